package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The device runtime's cudaGraphSetConditional as nvcc calls it (hand-written PTX in nvcc's calling
 * sequence), one rule per test (docs/semantics.md section 18). The conditional slot is the u64
 * result buffer x: x[0] = magic | armed << 32, x[1] = value | assigned << 32.
 */
class GraphConditionalTest {
    private static final String EXTERN = ".extern .func cudaGraphSetConditional\n(\n.param .b64 p0,\n.param .b32 p1\n)\n;\n";

    private static String set(String handle, String value) {
        return "{\n.param .b64 param0;\nst.param.b64 [param0], " + handle + ";\n.param .b32 param1;\nst.param.b32 [param1], " + value
                + ";\ncall.uni cudaGraphSetConditional, (param0, param1);\n}\n";
    }

    /** Thread 0 writes the slot header (magic, armed), then the body runs. */
    private static ExecKernel kernel(long armed, String body) {
        String header = "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra SKIP;\nmov.u64 %rd1, " + (GraphConditional.MAGIC | armed << 32)
                + ";\nst.global.u64 [%rd41], %rd1;\n" + body + "SKIP:\n";
        return ExecKernel.of(header).header(EXTERN);
    }

    @Test
    void settingAnArmedHandleWritesItsValueAndMarksItAssigned() {
        LaunchedRun r = kernel(1, set("%rd41", "7")).ok();
        assertEquals(7L | 1L << 32, x(r, 1));
    }

    @Test
    void settingAHandleOutsideALaunchOfItsGraphIsDiagnosed() {
        LaunchedRun r = kernel(0, set("%rd41", "1")).run();
        assertEquals(List.of("graph-conditional-not-launched"), codes(r), r.summary());
        assertEquals(0L, x(r, 1), "nothing is written");
    }

    @Test
    void aHandleThatIsNoConditionalSlotIsDiagnosed() {
        // x[2] is zero: no magic there.
        LaunchedRun r = kernel(1, "add.u64 %rd2, %rd41, 16;\n" + set("%rd2", "1")).run();
        assertEquals(List.of("graph-conditional-bad-handle"), codes(r), r.summary());
    }

    @Test
    void twoThreadsSettingOneHandleUnorderedIsARace() {
        // Thread 0 writes the header, then a barrier; then threads 0 and 1 both set the handle.
        String body = "mov.u32 %r1, %tid.x;\nsetp.ne.u32 %p1, %r1, 0;\n@%p1 bra HDR;\nmov.u64 %rd1, " + (GraphConditional.MAGIC | 1L << 32)
                + ";\nst.global.u64 [%rd41], %rd1;\nHDR:\nbar.sync 0;\n" + set("%rd41", "%r1");
        LaunchedRun r = ExecKernel.of(body).header(EXTERN).threads(2).run();
        assertEquals(List.of("race"), codes(r), r.summary());
    }
}
