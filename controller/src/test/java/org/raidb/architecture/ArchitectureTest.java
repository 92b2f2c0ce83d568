package org.raidb.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package graph of the driver, the balancers, the recovery log and the controller (all on this
 * module's class path) points one way: no package reaches back to one that reaches it, so a layer can
 * be understood, tested and replaced knowing only what is below it (docs/architecture.md). And the
 * server does not depend on the tools around it (demo, bench, console, embedded PostgreSQL).
 */
class ArchitectureTest {
    private static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.raidb.controller", "org.raidb.driver", "org.raidb.balancer", "org.raidb.recovery");
    }

    @Test
    void everyPackageIsFreeOfCycles() {
        slices().matching("org.raidb.(**)")
                .namingSlices("$1")
                .should()
                .beFreeOfCycles()
                .check(production);
    }

    @Test
    void theServerDoesNotDependOnTheTools() {
        noClasses()
                .that()
                .resideInAPackage("org.raidb.controller..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.raidb.tools..", "org.raidb.embedded..")
                .check(production);
    }

    @Test
    void theDriverDependsOnNothingOfTheServer() {
        noClasses()
                .that()
                .resideInAPackage("org.raidb.driver..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.raidb.controller..", "org.raidb.balancer..", "org.raidb.recovery..")
                .check(production);
    }
}
