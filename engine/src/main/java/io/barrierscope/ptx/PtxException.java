package io.barrierscope.ptx;

import io.barrierscope.diag.SourcePos;

/**
 * Bad PTX (a syntax error, an unknown or unsupported instruction, an undeclared name), located
 * at file:line:col with the offending line and a caret under the column.
 */
public class PtxException extends RuntimeException {
    private final SourcePos pos;
    private final String lineText;
    private final String detail;

    public PtxException(SourcePos pos, String lineText, String detail) {
        super(format(pos, lineText, detail));
        this.pos = pos;
        this.lineText = lineText;
        this.detail = detail;
    }

    public SourcePos pos() { return pos; }
    public String lineText() { return lineText; }
    /** The message without location and excerpt. */
    public String detail() { return detail; }

    /** "file:line:col: error: detail", then the line (if any) with a caret under the column: every located message's form. */
    public static String format(SourcePos pos, String lineText, String detail) {
        StringBuilder sb = new StringBuilder();
        sb.append(pos).append(": error: ").append(detail);
        if (lineText != null) {
            String shown = lineText.replace('\t', ' ');
            sb.append('\n').append("  ").append(shown).append('\n').append("  ");
            sb.append(" ".repeat(Math.max(0, Math.min(pos.col() - 1, shown.length())))).append('^');
        }
        return sb.toString();
    }
}
