package io.barrierscope.app.debugger;

import io.barrierscope.app.barriers.BarriersView;
import io.barrierscope.app.breakpoints.BreakpointsView;
import io.barrierscope.app.console.ConsoleView;
import io.barrierscope.app.deadlock.DeadlockView;
import io.barrierscope.app.diagnostics.DiagnosticsView;
import io.barrierscope.app.compare.CompareViewModel;
import io.barrierscope.app.compare.CompareWindow;
import io.barrierscope.app.compare.FixedTwin;
import io.barrierscope.app.explore.ExploreView;
import io.barrierscope.app.lesson.LessonView;
import io.barrierscope.app.source.CudaSourceView;
import io.barrierscope.app.source.SourceView;
import io.barrierscope.app.threads.InspectorView;
import io.barrierscope.app.threads.ThreadsView;
import io.barrierscope.app.timeline.TimelineView;
import io.barrierscope.app.welcome.SampleInfo;
import io.barrierscope.app.welcome.WelcomeView;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.css.PseudoClass;
import javafx.geometry.Orientation;
import javafx.scene.Node;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.SplitPane;
import javafx.scene.control.Tab;
import javafx.scene.control.TabPane;
import javafx.scene.control.TextArea;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.stage.Window;

/**
 * The debugger window's content: menus and toolbar; the PTX and CUDA sources side by side with
 * the timeline below; the barriers above the tabs (threads with registers and shared memory,
 * diagnostics, console, deadlock, lesson, run report, breakpoints, explore); the status bar; the welcome screen and
 * the help overlay on top; files dropped anywhere open. Code-behind only: all state is in the
 * {@link DebuggerViewModel}.
 */
public final class DebuggerView implements Commands.ViewActions {
    private static final String CSS = "/io/barrierscope/app/";

    private final DebuggerViewModel vm;
    private final StackPane root = new StackPane();
    private final BorderPane frame = new BorderPane();
    private final TabPane tabs = new TabPane();
    private final Map<Panel, Tab> tabOf = new EnumMap<>(Panel.class);
    private final List<Command> commands;
    private final ThreadsView threadsView;
    private final DeadlockView deadlockView;
    private final WelcomeView welcomeView;
    private final MenuBar menuBar;
    private final SplitPane threadsSplit = new SplitPane();
    private double threadsAt = 0.55;
    private final Node inspector;
    private final FileActions files;
    private TimelineView timelineView;
    private final PresentationLayout presentationLayout;
    private final BreakpointsView breakpointsView;
    private final ExploreView exploreView;
    private Consumer<String> browser = url -> { };
    /** The markers of the panes that keep their moment during a run; they come in one per frame. */
    private final FrozenMarker.Veils veils;

    /** @param samples the bundled samples, for the welcome screen and the Samples menu */
    public DebuggerView(DebuggerViewModel vm, List<SampleInfo> samples) {
        this.vm = vm;
        veils = new FrozenMarker.Veils(vm.nowProperty());
        vm.welcome().setSamples(samples);
        commands = Commands.of(vm, this);
        threadsView = new ThreadsView(vm.threads());
        deadlockView = new DeadlockView(vm.deadlock());
        files = new FileActions(vm, this::window);
        breakpointsView = new BreakpointsView(vm.breakpoints());
        vm.explore().setComparer(this::compare);
        exploreView = new ExploreView(vm.explore());
        welcomeView = new WelcomeView(vm.welcome(), this::chooseFile);
        welcomeView.setOnCompareWithFix(bug -> vm.compareWithFix(bug, this::compare));
        inspector = new InspectorView(vm.registers(), vm.shared(), vm.global(), vm.tensor()).root();

        SplitPane sources = new SplitPane(frozen(FrozenPanesViewModel.Pane.PTX, new SourceView(vm.source()).root()),
                frozen(FrozenPanesViewModel.Pane.CUDA, new CudaSourceView(vm.cuda()).root()));
        sources.setDividerPositions(0.55);
        SplitPane right = new SplitPane(frozen(FrozenPanesViewModel.Pane.BARRIERS, new BarriersView(vm.barriers()).root()), tabs());
        right.setOrientation(Orientation.VERTICAL);
        right.setDividerPositions(0.36);
        SplitPane main = new SplitPane(sources, right);
        main.setId("sourcesAndPanes");
        sources.setId("sourcesSplit");
        splitForWidth(main, right);
        presentationLayout = new PresentationLayout(main, sources);
        // The timeline below the sources; each run brings its own (a new TimelineView per model).
        StackPane timelineSlot = new StackPane();
        timelineSlot.setId("timelineSlot");
        vm.timelineProperty().addListener((o, a, t) -> {
            timelineView = t == null ? null : new TimelineView(t);
            if (timelineView != null) {
                timelineView.setScale(scale());
                timelineView.setDark(vm.appearance().darkProperty().get());
            }
            timelineSlot.getChildren().setAll(t == null ? List.of() : List.of(timelineView));
        });
        SplitPane vertical = new SplitPane(main, timelineSlot);
        vertical.setId("mainSplit");
        vertical.setOrientation(Orientation.VERTICAL);
        vertical.setDividerPositions(0.78);

        StackPane center = new StackPane(vertical, welcomeView.root());
        welcomeView.root().visibleProperty().bind(vm.welcome().visibleProperty());
        vertical.visibleProperty().bind(vm.welcome().visibleProperty().not());
        vm.welcome().visibleProperty().addListener((o, a, shown) -> {
            if (shown) welcomeView.focus();
        });

        menuBar = menuBar(samples);
        frame.setTop(new VBox(menuBar, MainToolBar.of(vm), NotificationBar.of(vm)));
        frame.setCenter(center);
        frame.setBottom(StatusLine.of(vm));
        root.getChildren().addAll(frame, new HelpOverlay(vm.appearance(), commands, url -> browser.accept(url)).root());
        root.getStyleClass().add("debugger");
        files.acceptDrops(root);
        root.getStylesheets().add(DebuggerView.class.getResource(CSS + "barrierscope.css").toExternalForm());
        vm.appearance().darkProperty().addListener((o, a, dark) -> applyDark());
        vm.appearance().presentationProperty().addListener((o, a, on) -> applyPresentation());
        vm.panelProperty().addListener((o, a, r) -> tabs.getSelectionModel().select(tabOf.get(r.panel())));
        tabs.getSelectionModel().select(tabOf.get(vm.panelProperty().get().panel()));
        // Hidden tabs' contents leave the scene graph (docs/performance.md, "Window responsiveness"):
        // every theme change and layout pass otherwise walks their tables and trees too.
        io.barrierscope.app.SelectedTabContent.only(tabs);
        applyTheme();
    }

    public Parent root() { return root; }

    /** Width the barriers table's columns and the tabs' headers need before they are cut. */
    static final double RIGHT_WIDTH = 730;

    /**
     * The sources give way: the right-hand panes get what their columns need (at least 45% of
     * the window, at most 60%), decided once the window's width is known; afterwards they keep
     * their width when the window is resized and the sources take the difference.
     */
    private static void splitForWidth(SplitPane main, Node right) {
        SplitPane.setResizableWithParent(right, false);
        main.widthProperty().addListener(new javafx.beans.value.ChangeListener<>() {
            @Override
            public void changed(javafx.beans.value.ObservableValue<? extends Number> o, Number was, Number w) {
                if (w.doubleValue() <= 0) return;
                main.widthProperty().removeListener(this);
                double share = Math.max(0.45, Math.min(0.6, RIGHT_WIDTH / w.doubleValue()));
                main.setDividerPositions(1 - share);
            }
        });
    }

    /**
     * Opens the file the command line named ({@code named}) as File > Open does: a bare PTX or
     * CUDA file asks for its launch first, and cancelling leaves the welcome screen. Without a
     * named file, {@code file} is the default sample, opened behind the welcome screen so Esc goes
     * straight to it; null (no sample found): the welcome screen alone.
     */
    public void openAtStartup(java.nio.file.Path file, boolean named) {
        if (file == null) {
            vm.welcome().show();
        } else if (!named) {
            vm.open(file);
            vm.welcome().show();
        } else {
            files.open(file, vm.welcome()::show);
        }
    }

    /** Where the help overlay's links go (the app passes its host services). */
    public void setBrowser(Consumer<String> browse) { browser = browse == null ? url -> { } : browse; }

    /**
     * Handles the window's keys before anything else sees them: a scene filter runs ahead of
     * the accelerators, where the menu bar claims F10 for itself.
     */
    public void installShortcuts(Scene scene) {
        scene.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            if (e.getCode() == KeyCode.ESCAPE && closeOverlay()) {
                e.consume();
                return;
            }
            // Several commands may share a key (Shift+F5: pause while running, else reverse-continue):
            // the first one enabled now takes it; a key whose commands are all disabled is still eaten.
            boolean matched = false;
            for (Command c : commands) {
                if (!c.key().match(e)) continue;
                matched = true;
                if (c.enabled().get()) {
                    c.fire();
                    break;
                }
            }
            if (matched) e.consume();
        });
    }

    /** Esc: the help overlay first, then the welcome screen (when there is a file to go back to). */
    private boolean closeOverlay() {
        if (vm.appearance().helpVisibleProperty().get()) {
            vm.appearance().helpVisibleProperty().set(false);
            return true;
        }
        if (vm.welcome().visibleProperty().get() && vm.loadedProperty().get()) {
            vm.welcome().hide();
            return true;
        }
        return false;
    }

    private TabPane tabs() {
        threadsSplit.setId("threadsSplit");
        threadsSplit.setOrientation(Orientation.VERTICAL);
        threadsSplit.getItems().addAll(threadsView.root(), inspector);
        threadsSplit.setDividerPositions(0.55);
        tab(Panel.THREADS, "Threads", "threadsTab", frozen(FrozenPanesViewModel.Pane.THREADS, threadsSplit));
        Tab diag = tab(Panel.DIAGNOSTICS, "Diagnostics", "diagnosticsTab",
                frozen(FrozenPanesViewModel.Pane.DIAGNOSTICS, new DiagnosticsView(vm.diagnosticsList()).root()));
        diag.textProperty().bind(vm.diagnosticsList().titleProperty());
        Tab console = tab(Panel.CONSOLE, "Console", "consoleTab",
                frozen(FrozenPanesViewModel.Pane.CONSOLE, new ConsoleView(vm.console()).root()));
        console.textProperty().bind(vm.console().titleProperty());
        tab(Panel.DEADLOCK, "Deadlock", "deadlockTab", frozen(FrozenPanesViewModel.Pane.DEADLOCK, deadlockView.root()));
        tab(Panel.LESSON, "Lesson", "lessonTab", new LessonView(vm.lesson()).root());
        TextArea report = new TextArea();
        report.setId("reportText");
        report.setEditable(false);
        report.getStyleClass().add("report-area");
        report.textProperty().bind(vm.reportProperty());
        report.setPromptText("The run report appears when the run ends.");
        tab(Panel.REPORT, "Run report", "reportTab", report);
        Tab bps = tab(Panel.BREAKPOINTS, "Breakpoints", "breakpointsTab", breakpointsView.root());
        bps.textProperty().bind(vm.breakpoints().titleProperty());
        Tab explore = tab(Panel.EXPLORE, "Explore", "exploreTab", exploreView.root());
        explore.textProperty().bind(vm.explore().titleProperty());
        tabs.setId("panelTabs");
        tabs.setTabClosingPolicy(TabPane.TabClosingPolicy.UNAVAILABLE);
        return tabs;
    }

    /** A pane that keeps its moment during a run, under its "as of step N — running" marker (id "frozen-" + pane). */
    private Node frozen(FrozenPanesViewModel.Pane p, Node pane) {
        return veils.over(pane, vm.frozen().markerProperty(p), "frozen-" + p.name().toLowerCase(java.util.Locale.ROOT));
    }

    private Tab tab(Panel p, String text, String id, Node content) {
        Tab t = new Tab(text, content);
        t.setId(id);
        tabs.getTabs().add(t);
        tabOf.put(p, t);
        return t;
    }

    private MenuBar menuBar(List<SampleInfo> samples) {
        MenuBar bar = new MenuBar();
        Menu current = null;
        for (Command c : commands) {
            if (current == null || !current.getText().equals(c.group())) {
                current = new Menu(c.group());
                bar.getMenus().add(current);
            }
            MenuItem item = new MenuItem(c.name());
            item.setAccelerator(c.key());
            item.setOnAction(e -> c.fire());
            item.disableProperty().bind(Bindings.not(c.enabled()));
            current.getItems().add(item);
        }
        Menu file = bar.getMenus().get(0);
        file.getItems().add(1, files.recentMenu());
        MenuItem compareFix = new MenuItem("Compare with the fix");
        compareFix.setId("compareWithFixMenu");
        compareFix.disableProperty().bind(vm.fixedTwinProperty().isNull());
        compareFix.setOnAction(e -> vm.compareWithFix(vm.openFile(), this::compare));
        file.getItems().add(2, compareFix);
        MenuItem compareTwo = new MenuItem("Compare two runs…");
        compareTwo.setId("compareTwoRunsMenu");
        compareTwo.setOnAction(e -> CompareWindow.chooseAndOpen(window(),
                vm.openFile() == null ? null : vm.openFile().toAbsolutePath().getParent()));
        file.getItems().add(3, compareTwo);
        Menu sampleMenu = new Menu("Samples");
        Menu compareMenu = new Menu("Compare with the fix");
        for (SampleInfo s : samples) {
            MenuItem item = new MenuItem(s.name());
            item.setOnAction(e -> vm.open(s.launchFile()));
            sampleMenu.getItems().add(item);
            if (FixedTwin.of(s.launchFile()).isPresent()) {
                MenuItem c = new MenuItem(s.name());
                c.setOnAction(e -> vm.compareWithFix(s.launchFile(), this::compare));
                compareMenu.getItems().add(c);
            }
        }
        if (!compareMenu.getItems().isEmpty()) sampleMenu.getItems().addAll(new SeparatorMenuItem(), compareMenu);
        sampleMenu.setDisable(samples.isEmpty());
        bar.getMenus().add(bar.getMenus().size() - 1, sampleMenu); // before Help
        return bar;
    }

    /** How much larger the drawn panes (timeline, wait-for graph) are: presentation mode's 17 px against 13 px text. */
    private double scale() { return vm.appearance().presentationProperty().get() ? 1.3 : 1; }

    private static final PseudoClass DARK = PseudoClass.getPseudoClass("dark");
    private static final PseudoClass PRESENTATION = PseudoClass.getPseudoClass("presentation");

    /**
     * Pseudo-classes on the root switch the theme (docs/performance.md, "Window responsiveness"):
     * a style class there would make JavaFX match every node of the window against the
     * stylesheets again, a pseudo-class only recomputes the values that depend on it.
     */
    private void applyTheme() {
        applyDark();
        applyPresentation();
    }

    private void applyDark() {
        boolean dark = vm.appearance().darkProperty().get();
        root.pseudoClassStateChanged(DARK, dark);
        deadlockView.setDark(dark);
        if (timelineView != null) timelineView.setDark(dark);
    }

    /** Presentation mode: larger type, and the panels a class does not need hidden. */
    private void applyPresentation() {
        boolean present = vm.appearance().presentationProperty().get();
        root.pseudoClassStateChanged(PRESENTATION, present);
        menuBar.setVisible(!present);
        menuBar.setManaged(!present);
        // Simplified panels: the threads tree without registers and memory.
        if (present && threadsSplit.getItems().contains(inspector)) {
            threadsAt = threadsSplit.getDividerPositions()[0]; // the user's size, given back afterwards
            threadsSplit.getItems().remove(inspector);
        } else if (!present && !threadsSplit.getItems().contains(inspector)) {
            threadsSplit.getItems().add(inspector);
            // after the next layout: presentation mode's larger minimum sizes would clamp it now
            double at = threadsAt;
            PresentationLayout.afterLayout(threadsSplit, () -> threadsSplit.setDividerPositions(at));
        }
        presentationLayout.apply(present);
        deadlockView.setScale(scale());
        if (timelineView != null) timelineView.setScale(scale());
    }

    @Override
    public void chooseFile() { files.chooseFile(); }

    @Override
    public void saveTrace() { files.saveTrace(); }

    @Override
    public void exportChrome() { files.exportChrome(); }

    /** The timeline shown now (null before a run). */
    TimelineView timelineView() { return timelineView; }

    @Override
    public void exportTimelinePng() { files.exportTimelinePng(timelineView()); }

    @Override
    public void exportTimelineSvg() { files.exportTimelineSvg(timelineView()); }

    @Override
    public void goToStep() { files.goToStep(); }

    @Override
    public void focusBreakpointField() {
        vm.showPanel(Panel.BREAKPOINTS);
        breakpointsView.focusField();
    }

    @Override
    public void explore() {
        vm.showPanel(Panel.EXPLORE);
        exploreView.focus();
    }

    @Override
    public void quit() {
        Window w = window();
        if (w != null) w.hide();
    }

    @Override
    public void focusThreadFilter() {
        vm.showPanel(Panel.THREADS);
        threadsView.focusFilter();
    }

    private Window window() {
        return root.getScene() == null ? null : root.getScene().getWindow();
    }

    /** Two runs side by side in a window of their own. */
    private void compare(CompareViewModel.Side a, CompareViewModel.Side b) { CompareWindow.open(window(), a, b); }
}
