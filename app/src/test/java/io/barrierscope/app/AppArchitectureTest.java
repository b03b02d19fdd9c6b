package io.barrierscope.app;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The window's MVVM shape (docs/internals.md, App), checked on the compiled classes: view
 * models and the pure helpers they use never touch the scene graph (they are tested without a
 * toolkit) and never know their views.
 */
class AppArchitectureTest {
    /** Pure classes that are not named *ViewModel and live outside the session package. */
    private static final Set<String> PURE = Set.of("ThreadTree", "ThreadNode", "RegisterFormat", "WaitGraph", "Markdown",
            "SampleCatalog", "SampleInfo", "Glossary", "StateNames", "Panel", "ShownLines", "Place", "Selection", "Reveal",
            "Locations", "RecentFiles", "ExploreRunner", "RunStatus");

    private static JavaClasses app;

    private static final DescribedPredicate<JavaClass> PURE_CLASSES = DescribedPredicate.describe(
            "view models, the session and pure helpers", c -> {
                String top = c.isNestedClass() ? c.getEnclosingClass().map(AppArchitectureTest::topLevel).orElse(c).getSimpleName()
                        : c.getSimpleName();
                return top.endsWith("ViewModel") || PURE.contains(top) || c.getPackageName().equals("io.barrierscope.app.session");
            });

    private static JavaClass topLevel(JavaClass c) {
        JavaClass t = c;
        while (t.getEnclosingClass().isPresent()) t = t.getEnclosingClass().get();
        return t;
    }

    @BeforeAll
    static void importApp() {
        app = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.barrierscope.app");
    }

    @Test
    void viewModelsAndPureHelpersNeverTouchTheSceneGraph() {
        noClasses().that(PURE_CLASSES).should().dependOnClassesThat().resideInAnyPackage("javafx.scene..")
                .because("view models are unit-tested without a toolkit").check(app);
    }

    @Test
    void viewModelsNeverKnowTheirViews() {
        noClasses().that(PURE_CLASSES).should().dependOnClassesThat().haveSimpleNameEndingWith("View")
                .because("the ViewModel never knows the View").check(app);
    }
}
