package io.barrierscope.app.lesson;

import java.util.ArrayList;
import java.util.List;
import javafx.scene.Node;
import javafx.scene.control.Hyperlink;
import javafx.scene.control.Label;
import javafx.scene.control.ScrollPane;
import javafx.scene.control.Separator;
import javafx.scene.control.Tooltip;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.StackPane;
import javafx.scene.layout.VBox;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * The lesson of the open sample, rendered from its Markdown blocks: headings, paragraphs, lists,
 * code, tables and quotes as text flows styled by the window's CSS (so themes and presentation
 * mode apply). Links to other samples open them. Moment links ({@code break:SPEC}) are shown
 * as "▶ label" and listed under the title as the lesson's moments; following one shows that
 * moment of the run. A moment the engine refuses for this kernel is greyed and says why.
 */
public final class LessonView {
    private final LessonViewModel vm;
    private final VBox content = new VBox(8);
    private final ScrollPane scroll = new ScrollPane(content);
    private final StackPane root;

    public LessonView(LessonViewModel vm) {
        this.vm = vm;
        content.setId("lessonContent");
        content.getStyleClass().add("lesson");
        scroll.setFitToWidth(true);
        scroll.getStyleClass().add("lesson-scroll");
        Label none = new Label("This file has no lesson. The bundled samples (File ▸ Welcome) each come with one.");
        none.setWrapText(true);
        none.getStyleClass().add("placeholder-message");
        none.visibleProperty().bind(vm.availableProperty().not());
        scroll.visibleProperty().bind(vm.availableProperty());
        root = new StackPane(scroll, none);
        StackPane.setAlignment(none, javafx.geometry.Pos.TOP_LEFT);
        vm.blocksProperty().addListener((o, a, b) -> render(b));
        vm.refusedProperty().addListener((o, a, b) -> {
            double v = scroll.getVvalue();
            render(vm.blocksProperty().get());
            scroll.setVvalue(v);
        });
        render(vm.blocksProperty().get());
    }

    public Node root() { return root; }

    private void render(List<Markdown.Block> blocks) {
        List<Node> nodes = new ArrayList<>(blocks.size() + 1);
        for (Markdown.Block b : blocks) nodes.add(block(b));
        // The moments go under the title (or first, if the lesson has none).
        List<LessonViewModel.Moment> moments = vm.momentsProperty().get();
        if (!moments.isEmpty()) {
            int at = !blocks.isEmpty() && blocks.get(0) instanceof Markdown.Heading ? 1 : 0;
            nodes.add(at, momentList(moments));
        }
        content.getChildren().setAll(nodes);
        scroll.setVvalue(0);
    }

    private Node block(Markdown.Block b) {
        if (b instanceof Markdown.Heading h) return flow(h.spans(), "lesson-h" + Math.min(h.level(), 3));
        if (b instanceof Markdown.Paragraph p) return flow(p.spans(), "lesson-paragraph");
        if (b instanceof Markdown.Quote q) return flow(q.spans(), "lesson-quote");
        if (b instanceof Markdown.Rule) return new Separator();
        if (b instanceof Markdown.Code c) {
            Text t = new Text(c.text());
            t.getStyleClass().add("lesson-code-text");
            TextFlow f = new TextFlow(t);
            f.getStyleClass().add("lesson-code");
            return f;
        }
        if (b instanceof Markdown.Item i) {
            Label marker = new Label(i.marker());
            marker.getStyleClass().add("lesson-marker");
            marker.setMinWidth(18);
            TextFlow f = flow(i.spans(), "lesson-item");
            HBox.setHgrow(f, Priority.ALWAYS);
            HBox box = new HBox(4, marker, f);
            box.setStyle("-fx-padding: 0 0 0 " + (8 + 16 * i.depth()) + ";");
            return box;
        }
        return table((Markdown.Table) b);
    }

    /** "Moments": every moment of the lesson in order, each a link with its breakpoint spec. */
    private Node momentList(List<LessonViewModel.Moment> moments) {
        VBox box = new VBox(2);
        box.setId("lessonMoments");
        TextFlow title = new TextFlow(styledText("Moments", "lesson-h3-text"));
        title.getStyleClass().add("lesson-h3");
        box.getChildren().add(title);
        for (LessonViewModel.Moment m : moments) {
            Hyperlink link = momentLink(m.number() + ". " + m.label(), m.spec());
            TextFlow row = new TextFlow(link, styledText("  ", "lesson-item-text"), styledText(m.spec(), "lesson-code-span"));
            String why = vm.refusal(m.spec());
            if (why != null) row.getChildren().add(styledText("  — not available here: " + why, "lesson-item-text"));
            row.getStyleClass().addAll("lesson-item", "lesson-moment-row");
            row.setStyle("-fx-padding: 0 0 0 8;");
            box.getChildren().add(row);
        }
        return box;
    }

    private static Text styledText(String text, String style) {
        Text t = new Text(text);
        t.getStyleClass().addAll("lesson-text", style);
        return t;
    }

    /** A link that shows a moment; greyed, with the engine's message, if its breakpoint is refused. */
    private Hyperlink momentLink(String text, String spec) {
        Hyperlink link = new Hyperlink("▶ " + text);
        link.getStyleClass().addAll("lesson-link", "lesson-moment");
        link.setUserData(spec);
        String why = vm.refusal(spec);
        if (why == null) {
            link.setTooltip(new Tooltip("Show this moment: set breakpoint " + spec + " and run to it"));
        } else {
            link.getStyleClass().add("lesson-moment-refused");
            link.setOpacity(0.5);
            link.setTooltip(new Tooltip("Not available for this kernel: " + why));
        }
        link.setOnAction(e -> vm.showMoment(spec));
        return link;
    }

    private Node table(Markdown.Table t) {
        GridPane grid = new GridPane();
        grid.getStyleClass().add("lesson-table");
        for (int c = 0; c < t.header().size(); c++) grid.add(cell(t.header().get(c), "lesson-th"), c, 0);
        for (int r = 0; r < t.rows().size(); r++) {
            List<List<Markdown.Span>> row = t.rows().get(r);
            for (int c = 0; c < row.size(); c++) grid.add(cell(row.get(c), "lesson-td"), c, r + 1);
        }
        return grid;
    }

    private Node cell(List<Markdown.Span> spans, String style) {
        TextFlow f = flow(spans, style);
        f.setMaxWidth(260);
        return f;
    }

    private TextFlow flow(List<Markdown.Span> spans, String style) {
        TextFlow f = new TextFlow();
        f.getStyleClass().add(style);
        for (Markdown.Span s : spans) f.getChildren().add(span(s, style));
        return f;
    }

    private Node span(Markdown.Span s, String blockStyle) {
        if (s.kind() == Markdown.SpanKind.LINK && LessonViewModel.momentSpec(s.url()) != null) {
            return momentLink(s.text(), LessonViewModel.momentSpec(s.url()));
        }
        if (s.kind() == Markdown.SpanKind.LINK) {
            Hyperlink link = new Hyperlink(s.text());
            link.getStyleClass().add("lesson-link");
            link.setTooltip(new Tooltip(s.url()));
            link.setOnAction(e -> vm.follow(s.url()));
            return link;
        }
        Text t = new Text(s.text());
        t.getStyleClass().addAll("lesson-text", blockStyle + "-text");
        switch (s.kind()) {
            case CODE -> t.getStyleClass().add("lesson-code-span");
            case BOLD -> t.getStyleClass().add("lesson-bold");
            case ITALIC -> t.getStyleClass().add("lesson-italic");
            default -> { }
        }
        return t;
    }
}
