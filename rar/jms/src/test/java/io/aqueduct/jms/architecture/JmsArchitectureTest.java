package io.aqueduct.jms.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The JMS provider's lane: it speaks to Aqueduct through the api only (never the engine or the
 * connector), so that it runs over any QueueSession, in Java SE and in the container alike.
 */
class JmsArchitectureTest {
    private static JavaClasses jms;

    @BeforeAll
    static void importClasses() {
        jms = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.aqueduct.jms");
    }

    @Test
    void the_provider_depends_on_the_api_jakarta_messaging_and_the_jdk_only() {
        classes().that().resideInAPackage("io.aqueduct.jms..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("io.aqueduct.jms..", "io.aqueduct.api..",
                        // also the JDK: javax.transaction.xa (XASession and XAJMSContext hand out its
                        // XAResource), java.xml (an XML payload read as a TextMessage) and javax.naming
                        // (the JNDI context for Java SE clients)
                        "jakarta.jms..", "java..", "javax.annotation..", "javax.transaction.xa..",
                        "javax.xml..", "org.w3c.dom..", "javax.naming..")
                .check(jms);
    }

    @Test
    void provider_packages_are_free_of_cycles() {
        slices().matching("io.aqueduct.jms.(*)..").should().beFreeOfCycles().check(jms);
    }
}
