package io.barrierscope.launch;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * Remembers where each value of a JSON document starts (by JSON pointer, e.g. {@code /args/2/count}),
 * so semantic errors in a launch file can name line and column like syntax errors do.
 */
final class JsonLocations {
    private final Map<String, int[]> at = new HashMap<>();

    static JsonFactory factory() {
        return JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).maxStringLength(1 << 20)
                        .maxNumberLength(100).build())
                .build();
    }

    JsonLocations(String text) throws IOException {
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
                if (!index.isEmpty() && index.peek()[0] >= 0 && field == null) {
                    here = path.peek() + "/" + index.peek()[0]++;
                } else {
                    here = (path.isEmpty() ? "" : path.peek()) + (field == null ? "" : "/" + field);
                }
                field = null;
                at.putIfAbsent(here, new int[] {p.currentTokenLocation().getLineNr(), p.currentTokenLocation().getColumnNr()});
                if (t == JsonToken.START_OBJECT) {
                    path.push(here);
                    index.push(new int[] {-1});
                } else if (t == JsonToken.START_ARRAY) {
                    path.push(here);
                    index.push(new int[] {0});
                } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    path.pop();
                    index.pop();
                }
            }
        }
    }

    /** "line:col" of the value at {@code pointer}, or of its nearest located parent. */
    String of(String pointer) {
        int[] lc = lineCol(pointer);
        return lc[0] + ":" + lc[1];
    }

    /** {line, col} of the value at {@code pointer}, or of its nearest located parent ({1, 1} at worst). */
    int[] lineCol(String pointer) {
        String p = pointer;
        while (true) {
            int[] lc = at.get(p);
            if (lc != null) return lc;
            int i = p.lastIndexOf('/');
            if (i < 0) return new int[] {1, 1};
            p = p.substring(0, i);
        }
    }

    /**
     * "file:line:col: error: msg" followed by the line and a caret under the column, as PTX errors
     * are shown (interfaces.md: messages for bad input name file, line and column and show the line).
     */
    static String located(Object file, String text, int line, int col, String msg) {
        String shown = text == null ? null : text.lines().skip(Math.max(0, line - 1)).findFirst().orElse(null);
        // PTX errors are shown the same way; a blank or very long line is not worth showing.
        if (shown != null && (shown.isBlank() || shown.length() > 300)) shown = null;
        return io.barrierscope.ptx.PtxException.format(new io.barrierscope.ptx.SourcePos(String.valueOf(file), line, col), shown, msg);
    }
}
