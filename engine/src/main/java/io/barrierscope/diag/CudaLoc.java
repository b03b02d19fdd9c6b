package io.barrierscope.diag;

/**
 * A source location from a {@code .loc} directive: the CUDA file (resolved through {@code .file}),
 * line and column, and where the code was inlined ({@code inlined_at}, itself possibly inlined
 * further; null when not inlined). Equality is the location alone: the inlining chain is context.
 */
public record CudaLoc(String file, int line, int col, CudaLoc inlinedAt) {
    public CudaLoc(String file, int line, int col) { this(file, line, col, null); }

    /** Whether this location or any call site it was inlined at is {@code line} of a file matching {@code file}. */
    public boolean within(String wantFile, int wantLine) {
        for (CudaLoc l = this; l != null; l = l.inlinedAt) {
            if (l.line == wantLine && sameFile(l.file, wantFile)) return true;
        }
        return false;
    }

    /** A file name as written by a user matches a .file path: equal, or one ends with "/" + the other. */
    public static boolean sameFile(String loc, String want) {
        return loc.equals(want) || loc.endsWith("/" + want) || want.endsWith("/" + loc);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CudaLoc c && c.line == line && c.col == col && c.file.equals(file);
    }

    @Override
    public int hashCode() { return (file.hashCode() * 31 + line) * 31 + col; }

    @Override
    public String toString() { return file + ":" + line + (col > 0 ? ":" + col : ""); }
}
