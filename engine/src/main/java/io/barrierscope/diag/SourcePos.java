package io.barrierscope.diag;

/** A place in a PTX file: 1-based line and column. */
public record SourcePos(String file, int line, int col) {
    @Override
    public String toString() { return file + ":" + line + ":" + col; }
}
