package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/** Raised by {@link Memory} on a bad access; the interpreter turns it into a diagnostic. */
public final class MemoryFault extends RuntimeException {
    private final DiagnosticCode code;
    private final long address;

    public MemoryFault(DiagnosticCode code, long address, String message) {
        super(message, null, false, false);
        this.code = code;
        this.address = address;
    }

    public DiagnosticCode code() { return code; }
    public long address() { return address; }
}
