package io.aqueduct.engine.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape: its packages form layers without cycles, each part is given the services it
 * uses (nothing inside imports the engine, the composition root), and the API stays free of it.
 */
class EngineArchitectureTest {
    private static JavaClasses engine;

    @BeforeAll
    static void importClasses() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.aqueduct.engine", "io.aqueduct.api");
    }

    @Test
    void engine_packages_are_free_of_cycles() {
        slices().matching("io.aqueduct.engine.(*)..").should().beFreeOfCycles().check(engine);
    }

    @Test
    void nothing_inside_the_engine_refers_back_to_the_composition_root() {
        noClasses().that().resideInAPackage("io.aqueduct.engine.*..")
                .should().dependOnClassesThat().resideInAPackage("io.aqueduct.engine")
                .because("the engine gives each part the narrow services it uses; it is not a service locator")
                .check(engine);
    }

    @Test
    void packages_keep_their_layers() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Engine").definedBy("io.aqueduct.engine")
                .layer("Administration").definedBy("io.aqueduct.engine.admin..")
                .layer("Propagation").definedBy("io.aqueduct.engine.propagation..")
                .layer("Sessions").definedBy("io.aqueduct.engine.session..")
                .layer("Security").definedBy("io.aqueduct.engine.security..")
                .layer("Buffered").definedBy("io.aqueduct.engine.buffered..")
                .layer("Notifications").definedBy("io.aqueduct.engine.notification..")
                .layer("Time").definedBy("io.aqueduct.engine.time..")
                .layer("Transformations").definedBy("io.aqueduct.engine.transform..")
                .layer("Payloads").definedBy("io.aqueduct.engine.payload..")
                .layer("Queues").definedBy("io.aqueduct.engine.queue..")
                .layer("Store").definedBy("io.aqueduct.engine.store..")
                .layer("Expressions").definedBy("io.aqueduct.engine.expression..", "io.aqueduct.engine.xml..")
                .whereLayer("Engine").mayNotBeAccessedByAnyLayer()
                .whereLayer("Administration").mayOnlyBeAccessedByLayers("Engine")
                // propagation is run by the engine and administered through DBMS_AQADM; it works through sessions
                .whereLayer("Propagation").mayOnlyBeAccessedByLayers("Engine", "Administration")
                .whereLayer("Sessions").mayOnlyBeAccessedByLayers("Engine", "Propagation")
                // buffered messages: enqueued and dequeued by sessions, wired (view, time manager) by the engine,
                // moved out of memory for remote consumers by propagation (with its in-memory receipts)
                .whereLayer("Buffered").mayOnlyBeAccessedByLayers("Engine", "Sessions", "Propagation")
                // privileges are checked by sessions and administration, granted through administration
                .whereLayer("Security").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions")
                // notifications are planned by sessions and registrations removed with their queues
                .whereLayer("Notifications").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions")
                .whereLayer("Time").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions", "Propagation",
                        "Notifications", "Buffered")
                .whereLayer("Transformations").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions", "Propagation")
                .whereLayer("Payloads").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions", "Transformations",
                        "Propagation", "Notifications", "Buffered")
                .whereLayer("Queues").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions", "Time",
                        "Transformations", "Payloads", "Propagation", "Security", "Notifications", "Buffered")
                .whereLayer("Store").mayOnlyBeAccessedByLayers("Engine", "Administration", "Sessions", "Time",
                        "Transformations", "Payloads", "Queues", "Propagation", "Security", "Notifications")
                .check(engine);
    }

    @Test
    void the_api_knows_nothing_of_the_engine() {
        noClasses().that().resideInAPackage("io.aqueduct.api..")
                .should().dependOnClassesThat().resideInAPackage("io.aqueduct.engine..")
                .check(engine);
    }

    @Test
    void sql_is_not_built_in_the_expression_language() {
        noClasses().that().resideInAPackage("io.aqueduct.engine.expression..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "jakarta.persistence..")
                .check(engine);
    }
}
