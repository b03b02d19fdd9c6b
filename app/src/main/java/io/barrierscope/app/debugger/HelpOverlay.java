package io.barrierscope.app.debugger;

import io.barrierscope.app.classroom.AppearanceViewModel;
import io.barrierscope.app.classroom.Glossary;
import java.util.List;
import java.util.function.Consumer;
import javafx.geometry.Pos;
import javafx.scene.Node;
import javafx.scene.control.Button;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;

/**
 * The help overlay (F1): every command with its key, grouped as in the menus, and the barrier
 * glossary with the PTX ISA sections. Drawn over the window; Esc, F1 or a click outside closes it.
 */
public final class HelpOverlay {
    private final StackPane root = new StackPane();

    /** @param browse opens a web address (the PTX ISA sections), or does nothing when it cannot */
    public HelpOverlay(AppearanceViewModel vm, List<Command> commands, Consumer<String> browse) {
        GridPane keys = new GridPane();
        keys.getStyleClass().add("help-keys");
        keys.setMinWidth(Region.USE_PREF_SIZE); // the glossary beside it wraps; the keys do not
        int row = 0;
        String group = "";
        for (Command c : commands) {
            if (!c.group().equals(group)) {
                group = c.group();
                Label g = new Label(group);
                g.getStyleClass().add("help-group");
                keys.add(g, 0, row++, 2, 1);
            }
            Label key = new Label(c.key().getDisplayText());
            key.getStyleClass().add("help-key");
            key.setMinWidth(Region.USE_PREF_SIZE); // a key is never shortened to "Ctrl+..."
            keys.add(key, 0, row);
            Label name = new Label(c.name());
            name.setMinWidth(Region.USE_PREF_SIZE);
            keys.add(name, 1, row++);
        }
        Label esc = new Label("Esc");
        esc.getStyleClass().add("help-key");
        keys.add(esc, 0, row);
        Label escName = new Label("Close this overlay or the welcome screen");
        escName.setMinWidth(Region.USE_PREF_SIZE);
        keys.add(escName, 1, row++);
        // The timeline's own keys and wheel, as in Perfetto and Chrome tracing (they act while it has the focus).
        Label tg = new Label("Timeline");
        tg.getStyleClass().add("help-group");
        keys.add(tg, 0, row++, 2, 1);
        String[][] timeline = {{"Wheel", "Scroll the lanes"}, {"Ctrl+Wheel", "Zoom at the pointer"},
            {"Shift+Wheel", "Pan"}, {"W / S", "Zoom in / out"}, {"A / D", "Pan left / right"},
            {"0", "Fit all (or the Fit all button, or a double-click)"}};
        for (String[] t : timeline) {
            Label key = new Label(t[0]);
            key.getStyleClass().add("help-key");
            key.setMinWidth(Region.USE_PREF_SIZE);
            keys.add(key, 0, row);
            Label name = new Label(t[1]);
            name.setMinWidth(Region.USE_PREF_SIZE);
            keys.add(name, 1, row++);
        }

        VBox terms = new VBox(6);
        terms.getStyleClass().add("help-glossary");
        Label gt = new Label("Barrier terms");
        gt.getStyleClass().add("help-group");
        terms.getChildren().add(gt);
        for (Glossary.Term t : Glossary.ALL) {
            Label name = new Label(t.name());
            name.getStyleClass().add("help-term");
            Label sentence = new Label(t.sentence());
            sentence.setWrapText(true);
            HBox line = new HBox(6, name);
            if (!t.section().isEmpty()) {
                Hyperlink section = new Hyperlink("PTX ISA " + t.section());
                section.setDisable(t.url() == null);
                section.setOnAction(e -> browse.accept(t.url()));
                line.getChildren().add(section);
            }
            line.setAlignment(Pos.BASELINE_LEFT);
            terms.getChildren().add(new VBox(0, line, sentence));
        }
        HBox.setHgrow(terms, Priority.ALWAYS);

        Label title = new Label("Keyboard shortcuts and barrier terms");
        title.getStyleClass().add("help-title");
        Button close = new Button("Close (Esc)");
        close.setId("helpClose");
        close.setOnAction(e -> vm.helpVisibleProperty().set(false));
        HBox head = new HBox(12, title, close);
        head.setAlignment(Pos.CENTER_LEFT);
        HBox body = new HBox(28, keys, terms);
        VBox card = new VBox(12, head, body);
        card.getStyleClass().add("help-card");
        card.setMaxWidth(1000);
        card.setOnMouseClicked(e -> e.consume()); // a click on the card does not close it
        ScrollPane scroll = new ScrollPane(card);
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("help-scroll");
        scroll.setMaxWidth(1040);
        scroll.setMaxHeight(Double.MAX_VALUE);
        root.getChildren().add(scroll);
        StackPane.setAlignment(scroll, Pos.CENTER);
        root.setId("helpOverlay");
        root.getStyleClass().add("help-overlay");
        root.setOnMouseClicked(e -> vm.helpVisibleProperty().set(false));
        root.visibleProperty().bind(vm.helpVisibleProperty());
        root.managedProperty().bind(vm.helpVisibleProperty());
    }

    public Node root() { return root; }
}
