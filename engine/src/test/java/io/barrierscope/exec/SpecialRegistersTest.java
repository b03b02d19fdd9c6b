package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Special registers (PTX ISA 10) for a 2-D grid of 3-D blocks with a partial last warp. */
class SpecialRegistersTest {
    private static final List<String> REGS = List.of("%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z", "%ctaid.x",
            "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z", "%laneid", "%warpid", "%lanemask_eq", "%lanemask_lt",
            "%lanemask_le", "%lanemask_gt", "%lanemask_ge");
    private static final int K = REGS.size();
    private static final Dim3 GRID = new Dim3(3, 2, 1);
    private static final Dim3 BLOCK = new Dim3(4, 3, 5); // 60 threads: warp 1 has 28 lanes

    @Test
    void threadCtaAndLaneRegistersFor2dGridAnd3dBlock() {
        // global linear index g = (ctaid.y * nctaid.x + ctaid.x) * 60 + (tid.z * 12 + tid.y * 4 + tid.x)
        StringBuilder body = new StringBuilder("mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\n"
                + "mad.lo.u32 %r4, %r3, 3, %r2;\nmad.lo.u32 %r4, %r4, 4, %r1;\nmov.u32 %r5, %ctaid.x;\nmov.u32 %r6, %ctaid.y;\n"
                + "mad.lo.u32 %r7, %r6, 3, %r5;\nmad.lo.u32 %r8, %r7, 60, %r4;\nmul.lo.u32 %r9, %r8, " + K + ";\n"
                + "mul.wide.u32 %rd1, %r9, 4;\nadd.s64 %rd2, %rd40, %rd1;\n");
        for (int k = 0; k < K; k++) {
            body.append("mov.u32 %r10, ").append(REGS.get(k)).append(";\nst.global.u32 [%rd2+").append(4 * k).append("], %r10;\n");
        }
        int threads = (int) (GRID.volume() * BLOCK.volume());
        LaunchedRun r = ExecKernel.of(body.toString()).grid(GRID).block(BLOCK).wSlots(threads * K).ok();
        List<Number> w = r.buffers().get("w");
        for (int cy = 0; cy < 2; cy++) {
            for (int cx = 0; cx < 3; cx++) {
                for (int z = 0; z < 5; z++) {
                    for (int y = 0; y < 3; y++) {
                        for (int xx = 0; xx < 4; xx++) {
                            int lin = xx + 4 * (y + 3 * z);
                            int g = (cy * 3 + cx) * 60 + lin;
                            int lane = lin % 32;
                            long[] e = {xx, y, z, 4, 3, 5, cx, cy, 0, 3, 2, 1, lane, lin / 32, 1L << lane, (1L << lane) - 1,
                                    (2L << lane) - 1, 0xFFFFFFFFL & (0xFFFFFFFFL << (lane + 1)), 0xFFFFFFFFL & (0xFFFFFFFFL << lane)};
                            for (int k = 0; k < K; k++) {
                                assertEquals(e[k], w.get(g * K + k).longValue(), REGS.get(k) + " of cta (" + cx + "," + cy
                                        + ") thread (" + xx + "," + y + "," + z + ")");
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void idsAreBelowTheirCounts() {
        String body = "mov.u32 %r1, %nwarpid;\n" + w(0, "%r1") + "mov.u32 %r2, %nsmid;\n" + w(1, "%r2") + "mov.u32 %r3, %smid;\n"
                + w(2, "%r3") + "mov.u64 %rd1, %gridid;\n" + x(0, "%rd1") + "mov.u32 %r4, %warpid;\n" + w(3, "%r4");
        LaunchedRun r = ExecKernel.of(body).ok();
        assertTrue(w(r, 3) < w(r, 0), "%warpid < %nwarpid");
        assertTrue(w(r, 2) < w(r, 1), "%smid < %nsmid");
    }

    @Test
    void envregsAreZeroOutsideACooperativeLaunch() {
        // %envreg1:%envreg2 hold a cooperative launch's grid-barrier workspace (Machine.gridWorkspace,
        // set by `exec`; runtime's cooperative.cu); a plain launch has none, so grid.sync() traps, as on a GPU.
        String body = "mov.u32 %r1, %envreg1;\n" + w(0, "%r1") + "mov.u32 %r2, %envreg2;\n" + w(1, "%r2")
                + "mov.u32 %r3, %envreg0;\n" + w(2, "%r3") + "mov.u32 %r4, %envreg31;\n" + w(3, "%r4");
        LaunchedRun r = ExecKernel.of(body).ok();
        for (int k = 0; k < 4; k++) assertEquals(0, w(r, k), "envreg " + k);
    }

    @Test
    void lanemaskLtSelectsLowerLanesForPrefixPopc() {
        // rank of each odd lane among the odd lanes: popc(ballot & lanemask_lt)
        String body = "mov.u32 %r1, %laneid;\nand.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 1;\nvote.sync.ballot.b32 %r3, %p1, -1;\n"
                + "mov.u32 %r4, %lanemask_lt;\nand.b32 %r5, %r3, %r4;\npopc.b32 %r6, %r5;\nmul.wide.u32 %rd1, %r1, 4;\n"
                + "add.s64 %rd2, %rd40, %rd1;\nst.global.u32 [%rd2], %r6;\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).ok();
        for (int l = 0; l < 32; l++) assertEquals(l / 2, w(r, l), "lane " + l);
    }
}
