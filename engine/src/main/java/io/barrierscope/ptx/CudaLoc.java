package io.barrierscope.ptx;

/** A source location from a {@code .loc} directive: the CUDA file (resolved through {@code .file}), line and column. */
public record CudaLoc(String file, int line, int col) {
    @Override
    public String toString() { return file + ":" + line + (col > 0 ? ":" + col : ""); }
}
