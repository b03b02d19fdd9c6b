package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;

/**
 * The device runtime's {@code cudaGraphSetConditional(handle, value)} (nvcc: {@code call.uni} to
 * {@code .extern .func cudaGraphSetConditional(.param .b64, .param .b32)}), which sets the value
 * of a CUDA graph's conditional handle from a kernel. The handle is the global address of a
 * 16-byte slot that the runtime (BarrierScope's libcudart, docs/runtime.md, "Conditional nodes")
 * keeps for it; four little-endian u32 words: {@link #MAGIC}, armed (1 while a launch of a graph
 * holding the handle's conditional node runs), the value, and assigned (1 once the value was set
 * in that launch). The engine keeps no state of its own, so a launch bundle (the slot is an
 * allocation) replays the call as the program's launch made it (docs/semantics.md section 18).
 */
final class GraphConditional {
    static final String FUNCTION = "cudaGraphSetConditional";
    /** "COND" in little-endian byte order. */
    static final long MAGIC = 0x444E4F43L;

    private GraphConditional() {}

    static final class Misuse extends RuntimeException {
        final DiagnosticCode code;

        Misuse(DiagnosticCode code, String message) {
            super(message, null, false, false);
            this.code = code;
        }
    }

    /**
     * Checks the slot at {@code handle} and writes value and assigned with plain stores, so two
     * threads setting one handle unordered are reported as a race: the header declares "racing /
     * possibly concurrent calls" undefined. An address that is no global memory is a memory fault.
     */
    static void set(Memory mem, int thread, long handle, long value) {
        if ((handle & 15) != 0 || mem.load(Space.GLOBAL, handle, 4, thread) != MAGIC) {
            throw new Misuse(DiagnosticCode.GRAPH_CONDITIONAL_BAD_HANDLE, "0x" + Long.toHexString(handle)
                    + " is not a conditional handle made by cudaGraphConditionalHandleCreate");
        }
        if (mem.load(Space.GLOBAL, handle + 4, 4, thread) != 1) {
            throw new Misuse(DiagnosticCode.GRAPH_CONDITIONAL_NOT_LAUNCHED, "conditional handle 0x" + Long.toHexString(handle)
                    + " set by a kernel that is not part of a launch of a graph holding the handle's conditional node");
        }
        mem.store(Space.GLOBAL, handle + 8, 4, value & 0xFFFFFFFFL, thread);
        mem.store(Space.GLOBAL, handle + 12, 4, 1, thread);
    }
}
