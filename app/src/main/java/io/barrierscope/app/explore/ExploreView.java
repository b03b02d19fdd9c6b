package io.barrierscope.app.explore;

import javafx.beans.property.StringProperty;
import javafx.geometry.Insets;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ProgressBar;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.KeyCode;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/**
 * The Explore panel: the search's settings (the command line's defaults), Start and Cancel, a
 * progress bar with what it has done, the coverage once it ends, and the findings, each with
 * "Open in debugger" and a copy of the command that replays it. Code-behind only: the state is
 * in the {@link ExploreViewModel}.
 */
public final class ExploreView {
    private final BorderPane root = new BorderPane();
    private final TextField schedules;

    public ExploreView(ExploreViewModel vm) {
        schedules = field("exploreSchedules", vm.schedulesProperty(), 70,
                "Schedule budget: how many schedules to run at most (explore --schedules)");
        TextField time = field("exploreTimeLimit", vm.timeLimitProperty(), 50,
                "Time limit in seconds, checked between schedules; 0: none (explore --time-limit)");
        TextField seed = field("exploreSeed", vm.seedProperty(), 60, "Seed of the random phase (explore --seed)");
        TextField bound = field("exploreDeviations", vm.maxDeviationsProperty(), 40,
                "Deviation bound of the systematic phase: at most this many non-default decisions (warp switches, convergence "
                        + "groups, copy latencies, early try_wait) per schedule, 0..8; most real bugs need 1 to 3 (explore --max-deviations)");
        CheckBox boundedPor = new CheckBox("Prove the bound");
        boundedPor.setId("exploreBoundedPor");
        boundedPor.selectedProperty().bindBidirectional(vm.boundedPartialOrderProperty());
        boundedPor.disableProperty().bind(vm.runningProperty());
        boundedPor.setTooltip(new Tooltip(BOUNDED_POR_TIP));
        Button start = new Button("Start");
        start.setId("exploreStart");
        start.disableProperty().bind(vm.canStartProperty().not());
        start.setOnAction(e -> vm.start());
        start.setTooltip(new Tooltip("Search the open launch's schedules on a background thread; the debugger stays usable"));
        Button cancel = new Button("Cancel");
        cancel.setId("exploreCancel");
        cancel.disableProperty().bind(vm.runningProperty().not());
        cancel.setOnAction(e -> vm.cancel());
        FlowPane settings = new FlowPane(8, 4, labelled("Schedules", schedules), labelled("Time limit (s)", time),
                labelled("Seed", seed), labelled("Deviations", bound), boundedPor, start, cancel);
        settings.setAlignment(Pos.CENTER_LEFT);
        settings.getStyleClass().add("pane-toolbar");

        ProgressBar bar = new ProgressBar();
        bar.setId("exploreProgress");
        bar.progressProperty().bind(vm.progressProperty());
        bar.setMaxWidth(Double.MAX_VALUE);
        Label status = new Label();
        status.setId("exploreStatus");
        status.setWrapText(true);
        status.textProperty().bind(vm.statusProperty());
        Label coverage = new Label();
        coverage.setId("exploreCoverage");
        coverage.setWrapText(true);
        coverage.textProperty().bind(vm.coverageProperty());
        coverage.visibleProperty().bind(vm.coverageProperty().isNotEmpty());
        coverage.managedProperty().bind(coverage.visibleProperty());
        coverage.setTooltip(new Tooltip("Schedules run, distinct outcomes (outcome and cause, or final buffers), decision "
                + "alternatives in the default schedule, and why the search stopped"));
        VBox top = new VBox(6, settings, bar, status, coverage);
        top.setPadding(new Insets(4));

        ListView<ExploreViewModel.Row> list = new ListView<>(vm.findings());
        list.setId("exploreFindings");
        list.setPlaceholder(new Label("No findings yet. Start explores the schedules of the open launch."));
        list.setCellFactory(l -> new FindingCell(vm));
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) vm.openInDebugger(list.getSelectionModel().getSelectedItem());
        });
        root.setTop(top);
        root.setCenter(list);
        root.getStyleClass().add("explore-panel");
    }

    /** What the reduction choice proves and costs (docs/explore.md, "Sleep sets within the bound"). */
    static final String BOUNDED_POR_TIP = "Partial-order reduction sound within the deviation bound (on by default, as in "
            + "explore; explore --bounded-por). "
            + "Proves: a search with no findings that completes deviation bound K covers every interleaving with at most K "
            + "deviations, up to equivalence (reorderings of independent steps).\n"
            + "Costs: up to about 3x the schedules of source sets to complete a bound (a 4-warp barrier loop at bound 3: 475 "
            + "instead of 175).\n"
            + "Off: source sets (explore --source-sets), fewer schedules, but a completed bound covers only what the reduced "
            + "search forked.";

    public Node root() { return root; }

    /** Puts the keyboard in the first field (the Explore… command). */
    public void focus() { schedules.requestFocus(); }

    private static TextField field(String id, StringProperty value, double width, String tip) {
        TextField f = new TextField();
        f.setId(id);
        f.textProperty().bindBidirectional(value);
        f.setPrefColumnCount((int) (width / 10));
        f.setPrefWidth(width);
        f.setTooltip(new Tooltip(tip));
        return f;
    }

    private static HBox labelled(String text, TextField f) {
        Label l = new Label(text);
        l.setLabelFor(f);
        HBox box = new HBox(4, l, f);
        box.setAlignment(Pos.CENTER_LEFT);
        return box;
    }

    /** A finding: what and where, the message, the schedule, and its two buttons. */
    private static final class FindingCell extends ListCell<ExploreViewModel.Row> {
        private final ExploreViewModel vm;
        private final Label title = new Label();
        private final Label message = new Label();
        private final Label schedule = new Label();
        private final Label minimal = new Label();
        private final Label decisive = new Label();
        private final Button open = new Button("Open in debugger");
        private final Button copy = new Button("Copy replay command");
        private final Button compare = new Button("Compare with default");
        private final VBox box;

        FindingCell(ExploreViewModel vm) {
            this.vm = vm;
            title.getStyleClass().add("explore-finding-title");
            title.setStyle("-fx-font-weight: bold");
            message.setWrapText(true);
            message.setMaxWidth(Double.MAX_VALUE);
            schedule.getStyleClass().add("explore-schedule");
            schedule.setStyle("-fx-font-family: monospace");
            minimal.getStyleClass().add("explore-minimal");
            minimal.setWrapText(true);
            decisive.getStyleClass().add("explore-decisive");
            decisive.setWrapText(true);
            open.getStyleClass().add("explore-open");
            copy.getStyleClass().add("explore-copy");
            open.setFocusTraversable(false);
            copy.setFocusTraversable(false);
            open.setOnAction(e -> vm.openInDebugger(getItem()));
            compare.getStyleClass().add("explore-compare");
            compare.setFocusTraversable(false);
            compare.setOnAction(e -> vm.compareWithDefault(getItem()));
            compare.setTooltip(new Tooltip("Open this schedule's run beside the default schedule's, timelines aligned, where they part marked"));
            compare.setVisible(vm.canCompare());
            compare.setManaged(vm.canCompare());
            copy.setOnAction(e -> {
                ClipboardContent c = new ClipboardContent();
                c.putString(vm.copyText(getItem()));
                Clipboard.getSystemClipboard().setContent(c);
            });
            Label spacer = new Label();
            HBox.setHgrow(spacer, Priority.ALWAYS);
            HBox buttons = new HBox(6, schedule, spacer, open, compare, copy);
            buttons.setAlignment(Pos.CENTER_LEFT);
            box = new VBox(2, title, message, minimal, decisive, buttons);
            // Wrap the texts within the list, not at their natural width.
            message.prefWidthProperty().bind(widthProperty().subtract(30));
            minimal.prefWidthProperty().bind(widthProperty().subtract(30));
            decisive.prefWidthProperty().bind(widthProperty().subtract(30));
            setOnMouseClicked(e -> {
                if (e.getClickCount() == 2 && getItem() != null) vm.openInDebugger(getItem());
            });
        }

        @Override
        protected void updateItem(ExploreViewModel.Row r, boolean empty) {
            super.updateItem(r, empty);
            setText(null);
            if (empty || r == null) {
                setGraphic(null);
                setTooltip(null);
                return;
            }
            title.setText(r.title() + " · " + r.outcome());
            message.setText(r.message());
            schedule.setText(r.replaySchedule());
            minimal.setText(r.minimalText());
            decisive.setText(String.join("\n", r.decisiveText()));
            decisive.setVisible(!r.decisiveText().isEmpty());
            decisive.setManaged(decisive.isVisible());
            schedule.setTooltip(new Tooltip(r.minimal() != null ? "Minimal schedule (found: " + r.schedule() + ")" : "Schedule as found"));
            long fails = r.replayStep();
            open.setTooltip(new Tooltip("Replay the " + (r.minimal() != null ? "minimal " : "") + "schedule in the debugger and go to step "
                    + fails + ", where it fails; step back from there"));
            copy.setTooltip(new Tooltip(vm.copyText(r)));
            setTooltip(new Tooltip("cause " + r.cause() + " · found by schedule #" + r.foundAtSchedule()));
            setGraphic(box);
        }
    }
}
