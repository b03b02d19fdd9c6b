package io.barrierscope.launch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Remembers where each value of a JSON document starts (by JSON pointer, e.g. {@code /args/2/count}),
 * so semantic errors in a launch file can name line and column like syntax errors do.
 */
final class JsonLocations {
    /** Kept, not indexed: a place is looked up only for a message, so a large file costs no map of every value. */
    private final String text;

    static JsonFactory factory() {
        return JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxStringLength(1 << 20)
                        .maxNumberLength(100).build())
                // A key given twice has no one meaning (the JSON tree would keep the last silently).
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /**
     * {@code p} with its floats read as decimals, exactly as written (1e-99999 is no integer), except
     * a negative zero: a decimal has no -0, so -0.0 is read as a double and keeps its sign (an f32
     * or f64 value of -0.0, as a launch written by the tool gives it, is -0.0, not +0.0).
     */
    static JsonParser floatsAsDecimals(JsonParser p) {
        return new com.fasterxml.jackson.core.util.JsonParserDelegate(p) {
            @Override
            public NumberTypeFP getNumberTypeFP() throws IOException {
                if (currentToken() != JsonToken.VALUE_NUMBER_FLOAT) return super.getNumberTypeFP();
                return negativeZero(getText()) ? NumberTypeFP.DOUBLE64 : NumberTypeFP.BIG_DECIMAL;
            }
        };
    }

    /** Whether a JSON float's text is a negative zero: a '-' and no digit but 0 before the exponent (read from the text: asking the parser for its value would fix it as a decimal). */
    static boolean negativeZero(String number) {
        if (!number.startsWith("-")) return false;
        for (int i = 1; i < number.length(); i++) {
            char c = number.charAt(i);
            if (c == 'e' || c == 'E') break;
            if (c >= '1' && c <= '9') return false;
        }
        return true;
    }

    JsonLocations(String text) {
        this.text = text;
    }

    /** "line:col" of the value at {@code pointer}, or of its nearest located parent. */
    String of(String pointer) {
        int[] lc = lineCol(pointer);
        return lc[0] + ":" + lc[1];
    }

    /**
     * {line, col} of the value at {@code pointer}, or of its nearest located parent ({1, 1} at worst).
     * Streams the text once, stopping at the value; text that is not JSON up to there yields the
     * nearest parent seen before the fault.
     */
    int[] lineCol(String pointer) {
        int[] best = {1, 1};
        int bestLen = -1;
        try (JsonParser p = factory().createParser(text)) {
            Deque<String> path = new ArrayDeque<>();
            Deque<int[]> index = new ArrayDeque<>();
            JsonToken t;
            String field = null;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.FIELD_NAME) {
                    field = p.currentName();
                    continue;
                }
                String here;
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    path.pop();
                    index.pop();
                    field = null;
                    continue;
                }
                if (!index.isEmpty() && index.peek()[0] >= 0 && field == null) {
                    here = path.peek() + "/" + index.peek()[0]++;
                } else {
                    here = (path.isEmpty() ? "" : path.peek()) + (field == null ? "" : "/" + field);
                }
                field = null;
                if (here.length() > bestLen && (pointer.equals(here) || pointer.startsWith(here + "/") || here.isEmpty())) {
                    best = new int[] {p.currentTokenLocation().getLineNr(), p.currentTokenLocation().getColumnNr()};
                    bestLen = here.length();
                    if (pointer.equals(here)) return best;
                }
                if (t == JsonToken.START_OBJECT) {
                    path.push(here);
                    index.push(new int[] {-1});
                } else if (t == JsonToken.START_ARRAY) {
                    path.push(here);
                    index.push(new int[] {0});
                }
            }
        } catch (IOException | RuntimeException e) {
            // Not JSON past this point: the nearest place found so far.
        }
        return best;
    }

    /** A mistake at {@code pointer} of launch text {@code text} read as {@code file}: file:line:col, the line and a caret. */
    static BadInputException error(Object file, String text, String pointer, String msg) {
        int[] lc = new JsonLocations(text).lineCol(pointer);
        return new BadInputException(located(file, text, lc[0], lc[1], msg));
    }

    /**
     * A mistake in a launch found after it was read (its PTX known, its memory counted), located at
     * {@code pointer} of the launch text it was read from (a trace's embedded launch included),
     * never in a file read again from disk; a launch with no text (a bare .ptx) names the file only.
     */
    static BadInputException error(LaunchSpec spec, String pointer, String msg) {
        if (spec.sourceText() != null) return error(name(spec), spec.sourceText(), pointer, msg);
        return new BadInputException(spec.file() + ": error: " + msg);
    }

    /**
     * What messages call a launch's text: its file, or for a launch whose file is its PTX (a bare
     * .ptx or .cu, built in code with defaults or the window's settings) that launch written as JSON,
     * so a line of JSON is never shown as a line of the PTX.
     */
    static Object name(LaunchSpec spec) {
        return spec.file().equals(spec.ptx()) ? spec.file() + " (its launch as JSON)" : spec.file();
    }

    /**
     * "file:line:col: error: msg" followed by the line and a caret under the column, as PTX errors
     * are shown (README: messages for bad input name file, line and column and show the line).
     */
    static String located(Object file, String text, int line, int col, String msg) {
        String shown = text == null ? null : text.lines().skip(Math.max(0, line - 1)).findFirst().orElse(null);
        // PTX errors are shown the same way; a blank or very long line is not worth showing.
        if (shown != null && (shown.isBlank() || shown.length() > 300)) shown = null;
        return io.barrierscope.ptx.PtxException.format(new io.barrierscope.diag.SourcePos(String.valueOf(file), line, col), shown, msg);
    }
}
