package io.aqueduct.connector.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The adapter's packages in layers, without cycles: inbound (delivery to MDBs) and outbound
 * (pooled queue sessions) know nothing of JMS; the adapter class (the package root) knows its
 * activation specs only through inbound's EndpointSpec; jms (the JMS connection factories, admin
 * objects and the MessageListener activation spec) sits on top of them all.
 */
class ConnectorArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.aqueduct.connector");

    @Test
    void inbound_depends_on_no_other_part_of_the_adapter() {
        noClasses().that().resideInAPackage("io.aqueduct.connector.inbound..").should().dependOnClassesThat()
                .resideInAnyPackage("io.aqueduct.connector", "io.aqueduct.connector.outbound..", "io.aqueduct.connector.jms..")
                .check(CLASSES);
    }

    @Test
    void outbound_knows_nothing_of_delivery_or_jms() {
        noClasses().that().resideInAPackage("io.aqueduct.connector.outbound..").should().dependOnClassesThat()
                .resideInAnyPackage("io.aqueduct.connector.inbound..", "io.aqueduct.connector.jms..", "io.aqueduct.jms..")
                .check(CLASSES);
    }

    @Test
    void the_adapter_class_reaches_activation_specs_through_inbound_only() {
        noClasses().that().resideInAPackage("io.aqueduct.connector").should().dependOnClassesThat()
                .resideInAnyPackage("io.aqueduct.connector.outbound..", "io.aqueduct.connector.jms..", "io.aqueduct.jms..")
                .check(CLASSES);
    }
}
