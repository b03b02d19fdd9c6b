package io.barrierscope.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.barrierscope.diag.SourcePos;

/** Builders for small PTX snippets and assertions on located errors. */
final class PtxTestSupport {
    private PtxTestSupport() {}

    static final String FILE = "t.ptx";
    static final String HEADER = ".version 9.0\n.target sm_90a\n.address_size 64\n";
    static final String REGS = "  .reg .pred %p<4>;\n  .reg .b32 %r<10>;\n  .reg .b64 %rd<10>;\n  .reg .f32 %f<4>;\n";
    /** Line of the first body line written by {@link #kernelText}. */
    static final int BODY_LINE = 10;

    static Module parse(String text) { return PtxParser.parse(FILE, text); }

    /** An entry {@code k} with registers %p0-3, %r0-9, %rd0-9, %f0-3 around the given body. */
    static String kernelText(String body) {
        return HEADER + ".visible .entry k(.param .u64 k_p0)\n{\n" + REGS + body + "\n}\n";
    }

    static Function kernel(String body) { return parse(kernelText(body)).function("k"); }

    static Instruction only(String body) {
        Function f = kernel(body);
        assertEquals(1, f.instructions().size(), "instruction count");
        return f.instructions().get(0);
    }

    static PtxException error(String text) { return assertThrows(PtxException.class, () -> parse(text)); }

    static void assertError(String text, int line, int col, String detail) {
        PtxException e = error(text);
        assertEquals(detail, e.detail(), e.getMessage());
        assertEquals(new SourcePos(FILE, line, col), e.pos(), e.getMessage());
    }

    static void assertKernelError(String body, int bodyLine, int col, String detail) {
        assertError(kernelText(body), BODY_LINE + bodyLine, col, detail);
    }
}
