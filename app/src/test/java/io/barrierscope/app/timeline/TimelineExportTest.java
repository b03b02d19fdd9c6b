package io.barrierscope.app.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** The SVG export of a real recording (block-reduce run to its end): well-formed, complete per lane, deterministic. */
class TimelineExportTest {
    private static final int WIDTH = 900;
    private static Recorded rec;
    private static TimelineViewModel vm;
    private static int height;

    @BeforeAll
    static void record() {
        rec = new Recorded("block-reduce");
        vm = new TimelineViewModel(rec.model);
        vm.fitAll();
        height = (int) (TimelineView.TOP + rec.model.lanes() * TimelineView.ROW_H + TimelineView.LEGEND_H);
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<Element> children(Element e, String tag) {
        List<Element> out = new ArrayList<>();
        NodeList n = e.getChildNodes();
        for (int i = 0; i < n.getLength(); i++) {
            if (n.item(i).getNodeType() == Node.ELEMENT_NODE && ((Element) n.item(i)).getTagName().equals(tag)) {
                out.add((Element) n.item(i));
            }
        }
        return out;
    }

    private static List<Element> lanes(Document d) {
        List<Element> out = new ArrayList<>();
        NodeList g = d.getElementsByTagName("g");
        for (int i = 0; i < g.getLength(); i++) {
            Element e = (Element) g.item(i);
            if (e.getAttribute("class").equals("lane")) out.add(e);
        }
        return out;
    }

    @Test
    void isWellFormedSvgWithOneGroupPerLaneAndItsLabel() throws Exception {
        Document d = parse(TimelineExport.svg(vm, WIDTH, height));
        Element root = d.getDocumentElement();
        assertEquals("svg", root.getTagName());
        assertEquals("http://www.w3.org/2000/svg", root.getNamespaceURI());
        assertEquals(Integer.toString(WIDTH), root.getAttribute("width"));
        assertEquals(Integer.toString(height), root.getAttribute("height"));
        List<Element> lanes = lanes(d);
        assertEquals(rec.model.lanes(), lanes.size());
        for (int l = 0; l < lanes.size(); l++) {
            List<Element> texts = children(lanes.get(l), "text");
            assertEquals(1, texts.size());
            assertEquals(rec.model.laneLabel(l), texts.get(0).getTextContent());
        }
        // the ruler, the legend, and the run's barrier completions are there too
        assertTrue(d.getElementsByTagName("line").getLength() > 0, "completion lines");
        String all = root.getTextContent();
        assertTrue(all.contains("warp steps") && all.contains("completion") && all.contains("running"), all);
    }

    @Test
    void stateRunsCoverTheDrawingWidthPerLaneAndAdjacentRunsDiffer() throws Exception {
        Document d = parse(TimelineExport.svg(vm, WIDTH, height));
        int lanesWidth = WIDTH - (int) TimelineView.LABEL_W;
        boolean someWait = false;
        for (Element lane : lanes(d)) {
            int sum = 0;
            String previous = null;
            double x = TimelineView.LABEL_W;
            for (Element r : children(lane, "rect")) {
                if (!r.getAttribute("class").equals("state")) continue;
                assertEquals(x, Double.parseDouble(r.getAttribute("x")), "runs are contiguous");
                int w = Integer.parseInt(r.getAttribute("width"));
                assertTrue(w > 0);
                sum += w;
                x += w;
                String state = r.getAttribute("state");
                assertNotEquals(previous, state, "adjacent columns of one state make one rect");
                previous = state;
                someWait |= state.equals("cta_barrier");
            }
            assertEquals(lanesWidth, sum, lane.getAttribute("data-label"));
        }
        assertTrue(someWait, "block-reduce waits at its bar.sync");
    }

    @Test
    void twoExportsAreByteIdenticalAndTheFileIsWrittenWhole(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.svg");
        Path b = dir.resolve("b.svg");
        TimelineExport.writeSvg(vm, WIDTH, height, a);
        TimelineExport.writeSvg(vm, WIDTH, height, b);
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(a), Files.readAllBytes(b)));
        assertEquals(TimelineExport.svg(vm, WIDTH, height), Files.readString(a));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(2, files.count(), "no temporary files left behind");
        }
    }

    @Test
    void rowsThatDoNotFitAreLeftOut() throws Exception {
        int rows = 3;
        Document d = parse(TimelineExport.svg(vm, WIDTH, (int) (TimelineView.TOP + rows * TimelineView.ROW_H + TimelineView.LEGEND_H)));
        assertEquals(rows, lanes(d).size());
    }

    @Test
    void textIsEscaped() throws Exception {
        assertEquals("a &lt;b&gt; &amp; &quot;c&quot; &apos;d&apos;", TimelineExport.escape("a <b> & \"c\" 'd'\u0001"));
        assertEquals("12.5", TimelineExport.num(12.5));
        assertEquals("3", TimelineExport.num(3.0));
    }
}
