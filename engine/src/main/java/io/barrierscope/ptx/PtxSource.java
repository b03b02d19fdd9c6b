package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;
import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/** The text being parsed, split into lines, and the factory for located errors. */
final class PtxSource {
    final String name;
    final String text;
    final List<String> lines;

    PtxSource(String name, String text) {
        this.name = name == null ? "<ptx>" : name;
        this.text = text == null ? "" : text;
        this.lines = new Lines(this.text);
    }

    /**
     * The text's lines, each made on demand from the line starts: a module of megabytes has tens of
     * thousands of lines, and a parse needs only the few an error or an explanation shows.
     */
    private static final class Lines extends AbstractList<String> implements RandomAccess {
        private final String text;
        private final int[] starts;

        Lines(String text) {
            this.text = text;
            int n = 1;
            for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
            starts = new int[n];
            int k = 1;
            for (int i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts[k++] = i + 1;
        }

        @Override
        public String get(int index) {
            Objects.checkIndex(index, starts.length);
            int end = index + 1 < starts.length ? starts[index + 1] - 1 : text.length();
            if (end > starts[index] && text.charAt(end - 1) == '\r') end--;
            return text.substring(starts[index], end);
        }

        @Override
        public int size() { return starts.length; }
    }

    String line(int line) {
        return line >= 1 && line <= lines.size() ? lines.get(line - 1) : "";
    }

    PtxException error(int line, int col, String detail) {
        int l = Math.max(1, Math.min(line, lines.size()));
        return new PtxException(new SourcePos(name, l, Math.max(1, col)), line(l), detail);
    }

    PtxException error(Token t, String detail) {
        return error(t.line(), t.col(), detail);
    }
}
