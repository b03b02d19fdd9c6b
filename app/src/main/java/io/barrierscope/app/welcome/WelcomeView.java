package io.barrierscope.app.welcome;

import io.barrierscope.app.compare.FixedTwin;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.TextField;
import javafx.scene.control.Tooltip;
import javafx.scene.input.KeyCode;
import javafx.scene.input.MouseButton;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;

/**
 * The welcome screen: every bundled sample with its one-line description; a click or Enter
 * opens one. Also a way to open any file and to go back to the open one.
 */
public final class WelcomeView {
    private final BorderPane root = new BorderPane();
    private final ListView<SampleInfo> list;
    private java.util.function.Consumer<java.nio.file.Path> onCompareWithFix;

    /** @param openFile asks the user for a file to open */
    public WelcomeView(WelcomeViewModel vm, Runnable openFile) {
        Label title = new Label("BarrierScope");
        title.getStyleClass().add("welcome-title");
        Label sub = new Label("Step through real GPU kernels and watch their barriers. Pick a lesson:");
        sub.getStyleClass().add("welcome-subtitle");
        TextField filter = new TextField();
        filter.setId("welcomeFilter");
        filter.setPromptText("Filter samples (e.g. mbarrier, deadlock, cluster)");
        filter.textProperty().bindBidirectional(vm.filterProperty());
        HBox.setHgrow(filter, Priority.ALWAYS);
        Button open = new Button("Open file…");
        open.setId("welcomeOpenFile");
        open.setOnAction(e -> openFile.run());
        Button close = new Button("Back to the debugger");
        close.setId("welcomeClose");
        close.setOnAction(e -> vm.hide());
        HBox bar = new HBox(8, filter, open, close);
        bar.setAlignment(Pos.CENTER_LEFT);

        list = new ListView<>(vm.samples());
        list.setId("sampleList");
        list.setPlaceholder(new Label("No bundled samples found (they live in samples/ of the BarrierScope checkout)."));
        // One click (or Enter) opens: the list is a menu of samples, not a selection to act on later.
        list.setCellFactory(l -> {
            SampleCell cell = new SampleCell(p -> {
                if (onCompareWithFix != null) onCompareWithFix.accept(p);
            });
            cell.setOnMouseClicked(e -> {
                if (e.getButton() == MouseButton.PRIMARY && !cell.isEmpty() && cell.getItem() != null) vm.open(cell.getItem());
            });
            return cell;
        });
        list.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.ENTER) vm.open(list.getSelectionModel().getSelectedItem());
        });
        filter.setOnKeyPressed(e -> {
            if (e.getCode() == KeyCode.DOWN || e.getCode() == KeyCode.ENTER) {
                list.requestFocus();
                if (list.getSelectionModel().isEmpty()) list.getSelectionModel().selectFirst();
                if (e.getCode() == KeyCode.ENTER && list.getItems().size() == 1) vm.open(list.getItems().get(0));
            }
        });
        VBox head = new VBox(6, title, sub, bar);
        head.getStyleClass().add("welcome-head");
        root.setTop(head);
        root.setCenter(list);
        root.getStyleClass().add("welcome");
        root.setId("welcome");
    }

    public Node root() { return root; }

    /** What "Compare with the fix" on a bug sample with a fixed twin does (given the bug's launch file). */
    public void setOnCompareWithFix(java.util.function.Consumer<java.nio.file.Path> action) { onCompareWithFix = action; }

    /** Gives the keyboard to the list, so arrows and Enter pick a sample at once. */
    public void focus() {
        list.requestFocus();
        if (list.getSelectionModel().isEmpty()) list.getSelectionModel().selectFirst();
    }

    /** Name in bold, description under it. */
    private static final class SampleCell extends ListCell<SampleInfo> {
        private final Label name = new Label();
        private final Label description = new Label();
        private final Button compare = new Button("Compare with the fix");
        private final VBox box = new VBox(1, name, description, compare);

        SampleCell(java.util.function.Consumer<java.nio.file.Path> compareWithFix) {
            compare.getStyleClass().add("sample-compare");
            compare.setFocusTraversable(false);
            compare.setTooltip(new Tooltip("Run this bug sample and its -fixed twin side by side, timelines aligned"));
            // the cell opens its sample on a click: a click on the button must not reach it
            compare.addEventHandler(javafx.scene.input.MouseEvent.MOUSE_CLICKED, javafx.scene.input.MouseEvent::consume);
            compare.setOnAction(e -> {
                e.consume(); // not a click that opens the sample
                if (getItem() != null) compareWithFix.accept(getItem().launchFile());
            });
            name.getStyleClass().add("sample-name");
            description.getStyleClass().add("sample-description");
            description.setWrapText(true);
            description.setMinHeight(Region.USE_PREF_SIZE);
            box.setMaxWidth(Double.MAX_VALUE);
        }

        @Override
        protected void updateItem(SampleInfo s, boolean empty) {
            super.updateItem(s, empty);
            if (empty || s == null) {
                setGraphic(null);
                return;
            }
            name.setText(s.name());
            description.setText(s.description());
            boolean twin = FixedTwin.of(s.launchFile()).isPresent();
            compare.setVisible(twin);
            compare.setManaged(twin);
            if (!description.prefWidthProperty().isBound()) {
                // Wrap at the list's width, never below a sane minimum: a new cell's own width is 0
                // at first, and a description wrapped at a negative width grows thousands of pixels
                // tall, leaving the rest of the list blank.
                description.prefWidthProperty().bind(javafx.beans.binding.Bindings.max(200.0,
                        getListView().widthProperty().subtract(60)));
            }
            setGraphic(box);
        }
    }
}
