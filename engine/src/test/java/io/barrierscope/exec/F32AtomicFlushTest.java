package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.f32;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * atom/red.add.f32 (PTX ISA 9.7.13.5, 9.7.13.6): "atom.add.f32 on global memory flushes subnormal
 * inputs and results to sign-preserving zero; whereas atom.add.f32 on shared memory supports
 * subnormal inputs and results and doesn't flush them to zero." A generic address is judged by
 * the memory it lands in.
 */
class F32AtomicFlushTest {
    private static final float TINY = Float.MIN_NORMAL / 4;  // a subnormal

    @Test
    void f32AddOnGlobalMemoryFlushesSubnormalInputsAndResultsToSignedZero() {
        // [0] = tiny + tiny (inputs flushed: +0); [1] = -tiny + 1 (input flushed: 1.0, not 1 - tiny rounded);
        // [2] = MIN_NORMAL + (-MIN_NORMAL/2 as a subnormal input, flushed): MIN_NORMAL;
        // [3] = -MIN_NORMAL*1.5 + MIN_NORMAL = -MIN_NORMAL/2, a subnormal result: -0 (sign kept), through a generic address.
        String body = "ld.param.u64 %rd1, [g];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + "mov.b32 %r1, " + imm(TINY) + ";\natom.global.add.f32 %r2, [%rd2], %r1;\n" + w(0, "%r2")
                + "red.global.add.f32 [%rd2+4], " + imm(1f) + ";\n"
                + "mov.b32 %r3, " + imm(-Float.MIN_NORMAL / 2) + ";\nred.global.add.f32 [%rd2+8], %r3;\n"
                + "mov.b32 %r4, " + imm(Float.MIN_NORMAL) + ";\natom.add.f32 %r5, [%rd1+12], %r4;\n";
        LaunchedRun r = ExecKernel.of(body).buffer("g", ScalarType.U32,
                List.of(f32(TINY), f32(-TINY), f32(Float.MIN_NORMAL), f32(-Float.MIN_NORMAL * 1.5f))).ok();
        List<Number> g = r.buffers().get("g");
        assertEquals(f32(TINY), w(r, 0), "atom returns the old value as it was in memory");
        assertEquals(f32(0f), g.get(0).longValue(), "subnormal inputs flushed");
        assertEquals(f32(1f), g.get(1).longValue());
        assertEquals(f32(Float.MIN_NORMAL), g.get(2).longValue());
        assertEquals(f32(-0f), g.get(3).longValue(), "a subnormal result becomes a zero of its sign");
    }

    @Test
    void f32AddOnSharedMemoryKeepsSubnormalInputsAndResultsIncludingThroughAGenericAddress() {
        String body = "mov.u32 %r9, sm;\nmov.b32 %r1, " + imm(TINY) + ";\nst.shared.b32 [%r9], %r1;\n"
                + "atom.shared.add.f32 %r2, [%r9], %r1;\nld.shared.b32 %r3, [%r9];\n" + w(0, "%r3")
                + "mov.b32 %r4, " + imm(-Float.MIN_NORMAL * 1.5f) + ";\nst.shared.b32 [%r9+4], %r4;\n"
                + "mov.u64 %rd4, sm;\ncvta.shared.u64 %rd3, %rd4;\n"
                + "red.add.f32 [%rd3+4], " + imm(Float.MIN_NORMAL) + ";\nld.shared.b32 %r5, [%r9+4];\n" + w(1, "%r5");
        LaunchedRun r = ExecKernel.of(body).header(".shared .align 16 .b8 sm[16];").ok();
        assertEquals(f32(TINY * 2), w(r, 0), "tiny + tiny kept on shared memory");
        assertEquals(f32(-Float.MIN_NORMAL / 2), w(r, 1), "a subnormal result kept through a generic shared address");
    }
}
