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
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The engine's shape (docs/architecture.md), checked on the compiled classes: data flows one way,
 * ptx -> machine (exec + sync, one slice) -> check -> launch -> trace, explore -> cli.
 * Named exceptions are listed here, each with its reason, so a new one is a visible decision.
 */
class EngineArchitectureTest {
    private static JavaClasses engine;

    /**
     * The diagnostic vocabulary (codes, severities, a diagnostic, a barrier reference) lives in
     * check for now, and the machine reports in it. It is data the machine may name; nothing else
     * of check is.
     */
    private static final Set<String> VOCABULARY = Set.of("io.barrierscope.check.DiagnosticCode",
            "io.barrierscope.check.Severity", "io.barrierscope.check.Diagnostic", "io.barrierscope.check.BarrierRef");

    private static final DescribedPredicate<JavaClass> DIAGNOSTIC_VOCABULARY =
            DescribedPredicate.describe("the diagnostic vocabulary", EngineArchitectureTest::vocabulary);

    /** A vocabulary class, or an array of one. */
    private static boolean vocabulary(JavaClass c) { return VOCABULARY.contains(c.getBaseComponentType().getName()); }

    @BeforeAll
    static void importEngine() {
        engine = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.barrierscope");
    }

    @Test
    void packagesAreLayeredPtxMachineCheckLaunchToolsCli() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
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
                .ignoreDependency(DescribedPredicate.alwaysTrue(), DIAGNOSTIC_VOCABULARY)
                .check(engine);
    }

    @Test
    void theMachineNamesNoAnalysisOnlyItsHook() {
        noClasses().that().resideInAnyPackage("io.barrierscope.exec..", "io.barrierscope.sync..")
                .should().dependOnClassesThat(DescribedPredicate.describe("an analysis class of check",
                        (JavaClass c) -> c.getBaseComponentType().getPackageName().equals("io.barrierscope.check") && !vocabulary(c)))
                .because("analyses plug in through exec.MemoryModelHook (docs/architecture.md, Analyses plug in through a hook)")
                .check(engine);
    }

    @Test
    void packagesAreFreeOfCyclesWithExecAndSyncAsOneSlice() {
        SliceAssignment byPackage = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                if (vocabulary(c)) return SliceIdentifier.of("vocabulary");
                String p = c.getPackageName();
                if (!p.startsWith("io.barrierscope.")) return SliceIdentifier.ignore();
                String top = p.substring("io.barrierscope.".length()).split("\\.")[0];
                return SliceIdentifier.of(top.equals("exec") || top.equals("sync") ? "machine" : top);
            }

            @Override
            public String getDescription() { return "engine packages, exec and sync as one slice"; }
        };
        // The vocabulary names the machine (BarrierRef describes a barrier from its state) and the
        // machine names the vocabulary: that pair is the one cycle tolerated until the vocabulary
        // moves below the machine.
        SlicesRuleDefinition.slices().assignedFrom(byPackage).should().beFreeOfCycles()
                .ignoreDependency(DIAGNOSTIC_VOCABULARY, DescribedPredicate.alwaysTrue())
                .check(engine);
    }

    @Test
    void engineNeverTouchesTheUiToolkit() {
        noClasses().should().dependOnClassesThat().resideInAnyPackage("javafx..")
                .because("the engine is headless; the window is one consumer among others")
                .check(engine);
    }
}
