package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The text being parsed, split into lines, and the factory for located errors. */
final class PtxSource {
    final String name;
    final String text;
    final List<String> lines;

    PtxSource(String name, String text) {
        this.name = name == null ? "<ptx>" : name;
        this.text = text == null ? "" : text;
        List<String> ls = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < this.text.length(); i++) {
            if (this.text.charAt(i) == '\n') {
                ls.add(stripCr(this.text.substring(start, i)));
                start = i + 1;
            }
        }
        ls.add(stripCr(this.text.substring(start)));
        this.lines = Collections.unmodifiableList(ls);
    }

    private static String stripCr(String s) {
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
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
