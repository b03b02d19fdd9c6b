package io.barrierscope.app.source;

import io.barrierscope.app.session.CudaFile;
import java.util.List;
import java.util.Set;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.ComboBox;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;

/**
 * The CUDA source beside the PTX: a file chooser over the files the PTX names, the text with
 * line numbers and colours, the followed warp's line highlighted, lines linked from the PTX
 * highlighted, a dot in the gutter on lines that have instructions, breakpoint markers (a gutter
 * click sets or removes {@code line:FILE:N}), and a message instead of the text when the file is
 * not there.
 */
public final class CudaSourceView {
    private static final String CURRENT = "current-line";
    private static final String LINKED = "linked-line";
    /** The gutter's column for the dot (5 px) with a little room before it. */
    private static final double DOT_WIDTH = 9;

    private final CudaSourceViewModel vm;
    private final CodePane code = new CodePane("cudaArea", "ptx.css");
    private final BorderPane root = new BorderPane();
    private int shownLine;
    private Set<Integer> shownLinked = Set.of();
    private Set<Integer> mapped = Set.of();

    public CudaSourceView(CudaSourceViewModel vm) {
        this.vm = vm;
        code.setGutter(() -> new Gutter(DOT_WIDTH, vm::toggleBreakpoint), (g, line) -> {
            g.setMarker(vm.breakpointMarker(line));
            if (!mapped.contains(line)) {
                g.setSlot(null);
            } else if (g.slot() != null) {
                g.setSlot(g.slot());
            } else {
                Region dot = new Region();
                dot.getStyleClass().add("code-dot");
                g.setSlot(dot);
            }
        });
        vm.breakpointLinesProperty().addListener((o, a, b) -> code.refreshGutters());
        code.onLineClicked(vm::clickLine);
        code.list().getStyleClass().add("cuda-area");

        ComboBox<CudaFile> files = new ComboBox<>();
        files.setId("cudaFiles");
        files.setFocusTraversable(false);
        files.setCellFactory(l -> new FileCell());
        files.setButtonCell(new FileCell());
        files.itemsProperty().bind(vm.filesProperty().map(javafx.collections.FXCollections::observableArrayList));
        vm.shownProperty().addListener((o, a, f) -> files.getSelectionModel().select(f));
        files.getSelectionModel().selectedItemProperty().addListener((o, a, f) -> {
            if (f != null) vm.showFile(f);
        });
        files.setTooltip(new Tooltip("The source files the PTX's .file lines name, most used first"));
        // Sized for "kernel.cu", not for the longest header path, so the pane can stay narrow.
        files.setPrefWidth(150);
        files.setMinWidth(110);
        Label note = new Label();
        note.setId("cudaFocusNote");
        note.getStyleClass().add("pane-note");
        note.textProperty().bind(vm.focusNoteProperty());
        note.setMinWidth(0);
        HBox.setHgrow(note, Priority.ALWAYS);
        HBox bar = new HBox(8, files, note);
        bar.setAlignment(Pos.CENTER_LEFT);
        bar.getStyleClass().add("pane-toolbar");

        Label message = new Label();
        message.setId("cudaMessage");
        message.getStyleClass().add("placeholder-message");
        message.setWrapText(true);
        message.textProperty().bind(vm.messageProperty());
        message.visibleProperty().bind(vm.messageProperty().isNotEmpty());
        code.node().visibleProperty().bind(vm.messageProperty().isEmpty());
        StackPane center = new StackPane(code.node(), message);
        StackPane.setAlignment(message, Pos.TOP_LEFT);

        vm.linesProperty().addListener((o, a, lines) -> showText(lines));
        vm.currentLineProperty().addListener((o, a, line) -> showCurrentLine(line.intValue()));
        vm.linkedLinesProperty().addListener((o, a, lines) -> {
            code.restyle(LINKED, shownLinked, lines);
            shownLinked = lines;
        });
        vm.revealProperty().addListener((o, a, r) -> code.reveal(r.line()));
        showText(vm.linesProperty().get());
        files.getSelectionModel().select(vm.shownProperty().get());

        root.setTop(bar);
        root.setCenter(center);
        root.getStyleClass().add("cuda-view");
    }

    public Node root() { return root; }

    private void showText(List<String> lines) {
        shownLine = 0;
        shownLinked = Set.of();
        mapped = vm.mappedLines();
        String text = String.join("\n", lines);
        code.setText(text, CudaHighlighter.highlight(text));
        showCurrentLine(vm.currentLineProperty().get());
    }

    private void showCurrentLine(int line) {
        code.setStyle(shownLine, CURRENT, false);
        shownLine = line;
        if (line <= 0 || line > code.lineCount()) return;
        code.setStyle(line, CURRENT, true);
        code.follow(line);
    }

    /** A file by its name, greyed when it is not available. */
    private static final class FileCell extends ListCell<CudaFile> {
        @Override
        protected void updateItem(CudaFile f, boolean empty) {
            super.updateItem(f, empty);
            if (empty || f == null) {
                setText(null);
                return;
            }
            setText(f.name() + (f.available() ? "" : " (not available)"));
            setDisable(!f.available());
        }
    }
}
