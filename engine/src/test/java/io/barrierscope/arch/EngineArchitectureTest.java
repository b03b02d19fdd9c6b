package io.barrierscope.arch;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape (docs/internals.md), checked on the compiled classes: data flows one way,
 * diag -> ptx -> machine (exec + sync, one slice) -> check -> launch -> trace, explore -> cli.
 * diag, the diagnostic vocabulary (codes, severities, a diagnostic, a barrier reference, source
 * locations), is the bottom layer: every package may name it and it names none of them.
 */
class EngineArchitectureTest {
    private static JavaClasses engine;

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.barrierscope");
    }

    @Test
    void packagesAreLayeredDiagPtxMachineCheckLaunchToolsCli() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("Diag").definedBy("io.barrierscope.diag..")
                .layer("Ptx").definedBy("io.barrierscope.ptx..")
                .layer("Machine").definedBy("io.barrierscope.exec..", "io.barrierscope.sync..")
                .layer("Check").definedBy("io.barrierscope.check..")
                .layer("Launch").definedBy("io.barrierscope.launch..")
                .layer("Tools").definedBy("io.barrierscope.trace..", "io.barrierscope.explore..")
                .layer("Cli").definedBy("io.barrierscope.cli..")
                .whereLayer("Cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("Tools").mayOnlyBeAccessedByLayers("Cli")
                .whereLayer("Launch").mayOnlyBeAccessedByLayers("Tools", "Cli")
                .whereLayer("Check").mayOnlyBeAccessedByLayers("Launch", "Tools", "Cli")
                .whereLayer("Machine").mayOnlyBeAccessedByLayers("Check", "Launch", "Tools", "Cli")
                .whereLayer("Ptx").mayOnlyBeAccessedByLayers("Machine", "Check", "Launch", "Tools", "Cli")
                .check(engine);
    }

    @Test
    void theDiagnosticVocabularyNamesNothingElseOfTheProject() {
        noClasses().that().resideInAPackage("io.barrierscope.diag..")
                .should().dependOnClassesThat(DescribedPredicate.describe("a class of another engine package",
                        (JavaClass c) -> c.getBaseComponentType().getPackageName().startsWith("io.barrierscope.")
                                && !c.getBaseComponentType().getPackageName().startsWith("io.barrierscope.diag")))
                .because("diag is the bottom layer every package may use (docs/internals.md)")
                .check(engine);
    }

    @Test
    void theMachineNamesNoAnalysisOnlyItsHook() {
        noClasses().that().resideInAnyPackage("io.barrierscope.exec..", "io.barrierscope.sync..")
                .should().dependOnClassesThat().resideInAPackage("io.barrierscope.check..")
                .because("analyses plug in through exec.MemoryModelHook (docs/internals.md, Analyses plug in through a hook)")
                .check(engine);
    }

    @Test
    void packagesAreFreeOfCyclesWithExecAndSyncAsOneSlice() {
        SliceAssignment byPackage = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String p = c.getPackageName();
                if (!p.startsWith("io.barrierscope.")) return SliceIdentifier.ignore();
                String top = p.substring("io.barrierscope.".length()).split("\\.")[0];
                return SliceIdentifier.of(top.equals("exec") || top.equals("sync") ? "machine" : top);
            }

            @Override
            public String getDescription() { return "engine packages, exec and sync as one slice"; }
        };
        SlicesRuleDefinition.slices().assignedFrom(byPackage).should().beFreeOfCycles().check(engine);
    }

    @Test
    void engineNeverTouchesTheUiToolkit() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("javafx..")
                .because("the engine is headless; the window is one consumer among others")
                .check(engine);
    }
}
