package io.barrierscope.app.tensor;

import io.barrierscope.launch.LaunchValidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.app.TestFiles;
import io.barrierscope.app.session.TensorCapture;
import io.barrierscope.app.session.TensorTile;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.TimeTravel;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Tensor tab's view model on the mma-gemm and wgmma-gemm samples, run to their end: every
 * cell names the lane and register the ISA's fragment layout gives it, formulas written here
 * from the PTX ISA's fragment figures (9.7.14.5.8 for m16n8k16, 9.7.15.5.1.2 for wgmma D) rather
 * than taken from the engine; a descriptor operand reads the input matrix back through its swizzle.
 */
class TensorViewModelTest {

    /** A view model whose source captures from {@code run} synchronously, for thread {@code slot}. */
    private static TensorViewModel over(LaunchedRun run, int slot) {
        TensorViewModel vm = new TensorViewModel();
        vm.setSource((pc, operand, told) -> told.accept(TensorCapture.capture(run, slot, pc, operand)));
        vm.activeProperty().set(true);
        return vm;
    }

    private static LaunchedRun ran(String sample) {
        LaunchedRun run = LaunchValidation.validate(TestFiles.sample(sample)).start();
        run.runToEnd();
        return run;
    }

    /** The register names of vector operand {@code index} of the instruction text. */
    private static List<String> vector(String text, int index) {
        Matcher m = Pattern.compile("\\{([^}]*)\\}").matcher(text);
        for (int i = 0; i <= index; i++) assertTrue(m.find());
        return List.of(m.group(1).replace(" ", "").split(","));
    }

    @Test
    void mmaM16n8k16AccumulatorCellsNameTheLaneAndRegisterOfTheIsaLayout() {
        LaunchedRun run = ran("mma-gemm");
        TensorViewModel vm = over(run, 0);
        vm.refresh();
        assertEquals(2, vm.instructions().size(), "the sample's two mma.sync");
        assertEquals(List.of("A", "B", "C", "D"), vm.operands());
        assertEquals("D", vm.operand());
        String text = run.program().code[vm.tileProperty().get().pc()].insn.text();
        List<String> d = vector(text, 0);
        for (int lane = 0; lane < 32; lane++) {
            int groupId = lane / 4;
            int threadInGroup = lane % 4;
            for (int i = 0; i < 4; i++) {
                int row = groupId + (i >= 2 ? 8 : 0);
                int col = threadInGroup * 2 + (i & 1);
                TensorTile.Cell c = vm.cell(row, col);
                assertEquals(lane, c.lane(), "D[" + row + "][" + col + "]");
                assertEquals(d.get(i), c.register());
                assertEquals("L" + lane + " " + d.get(i), vm.holder(c));
            }
        }
        TensorTile.Cell c = vm.cell(9, 3);
        assertEquals(Float.intBitsToFloat((int) c.bits()), Float.parseFloat(c.value()));
    }

    @Test
    void mmaM16n8k16AFragmentFollowsTheIsaTable() {
        LaunchedRun run = ran("mma-gemm");
        TensorViewModel vm = over(run, 32 * 0);
        vm.refresh();
        vm.choose(0, "A");
        assertEquals("A", vm.operand());
        List<String> a = vector(run.program().code[vm.tileProperty().get().pc()].insn.text(), 1);
        // a0..a7 (ISA figure "Fragment layout for the A matrix .f16 m16n8k16"): two halves per register
        int[] rowOff = {0, 0, 8, 8, 0, 0, 8, 8};
        int[] colOff = {0, 1, 0, 1, 8, 9, 8, 9};
        for (int lane = 0; lane < 32; lane++) {
            for (int i = 0; i < 8; i++) {
                TensorTile.Cell c = vm.cell(lane / 4 + rowOff[i], lane % 4 * 2 + colOff[i]);
                assertEquals(lane, c.lane());
                assertEquals(a.get(i / 2), c.register(), "a" + i + " of lane " + lane);
            }
        }
    }

    @Test
    void wgmmaAccumulatorCellsNameTheWarpLaneAndRegisterOfTheIsaLayout() {
        LaunchedRun run = ran("wgmma-gemm");
        TensorViewModel vm = over(run, 0);
        vm.refresh();
        TensorTile t = vm.tileProperty().get();
        assertEquals("D", t.operand());
        assertEquals(64, t.rows());
        assertEquals(64, t.cols());
        assertTrue(vm.headerProperty().get().contains("warpgroup 0 (warps 0-3)"), vm.headerProperty().get());
        List<String> d = vector(run.program().code[t.pc()].insn.text(), 0);
        for (int warp = 0; warp < 4; warp++) {
            for (int lane = 0; lane < 32; lane++) {
                for (int i = 0; i < 32; i++) {
                    int row = 16 * warp + lane / 4 + (i % 4 >= 2 ? 8 : 0);
                    int col = (i / 4) * 8 + (lane % 4) * 2 + i % 2;
                    TensorTile.Cell c = vm.cell(row, col);
                    assertEquals(warp, c.warp());
                    assertEquals(lane, c.lane());
                    assertEquals(d.get(i), c.register());
                }
            }
        }
        // the accumulators hold C = A * B once retired: the kernel stores them row-major into C
        List<Number> out = run.buffers().get("C");
        for (int row = 0; row < 64; row += 7) {
            for (int col = 0; col < 64; col += 5) {
                assertEquals(out.get(row * 64 + col).doubleValue(), Double.parseDouble(vm.cell(row, col).value()), "C[" + row + "][" + col + "]");
            }
        }
    }

    @Test
    void wgmmaDescriptorOperandsReadTheInputMatricesBackThroughTheSwizzle() {
        LaunchedRun run = ran("wgmma-gemm");
        TensorViewModel vm = over(run, 0);
        vm.refresh();
        List<Number> a = run.buffers().get("A");
        List<Number> bt = run.buffers().get("Bt");
        for (int wgmma = 0; wgmma < 4; wgmma++) {
            vm.choose(wgmma, "A");
            TensorTile t = vm.tileProperty().get();
            assertEquals(64, t.rows());
            assertEquals(16, t.cols());
            assertTrue(t.note().contains("swizzle 128B"), t.note());
            for (int m = 0; m < 64; m++) {
                for (int k = 0; k < 16; k++) {
                    TensorTile.Cell c = vm.cell(m, k);
                    assertEquals(-1, c.lane());
                    assertEquals(a.get(m * 64 + 16 * wgmma + k).longValue(), c.bits(), "A[" + m + "][" + (16 * wgmma + k) + "]");
                }
            }
            vm.choose(wgmma, "B");
            for (int k = 0; k < 16; k++) {
                for (int n = 0; n < 64; n++) {
                    assertEquals(bt.get(n * 64 + 16 * wgmma + k).longValue(), vm.cell(k, n).bits(), "B[" + (16 * wgmma + k) + "][" + n + "]");
                }
            }
        }
        TensorTile.Cell c = vm.cell(0, 0);
        assertNotNull(vm.describe(c));
        assertTrue(vm.holder(c).startsWith("0x"));
    }

    @Test
    void singleBitWgmmaOperandsShowEachBitOfTheInputs() {
        LaunchedRun run = ran("wgmma-b1-popc");
        TensorViewModel vm = over(run, 0);
        vm.refresh();
        List<Number> a = run.buffers().get("A");
        List<Number> bt = run.buffers().get("Bt");
        // bit k of row i of A is bit k % 32 of word i * 8 + k / 32 (the sample's input layout)
        vm.choose(0, "A");
        assertEquals(256, vm.tileProperty().get().cols());
        for (int m = 0; m < 64; m++) {
            for (int k = 0; k < 256; k++) {
                assertEquals((a.get(m * 8 + k / 32).longValue() >>> (k % 32)) & 1, vm.cell(m, k).bits(), "A[" + m + "][" + k + "] via descriptor");
            }
        }
        vm.choose(0, "B");
        for (int k = 0; k < 256; k++) {
            for (int n = 0; n < 16; n++) {
                assertEquals((bt.get(n * 8 + k / 32).longValue() >>> (k % 32)) & 1, vm.cell(k, n).bits(), "B[" + k + "][" + n + "]");
            }
        }
        // the second wgmma's A from registers: row 16w + l/4 (+8 for odd register q), column 32(l%4) + j (+128 for q >= 2)
        vm.choose(1, "A");
        for (int w = 0; w < 4; w++) {
            for (int l = 0; l < 32; l++) {
                for (int i = 0; i < 128; i++) {
                    int row = 16 * w + l / 4 + ((i / 32) % 2 == 1 ? 8 : 0);
                    int col = 32 * (l % 4) + i % 32 + (i >= 64 ? 128 : 0);
                    TensorTile.Cell c = vm.cell(row, col);
                    assertEquals(w * 32 + l, c.warp() * 32 + c.lane(), "A[" + row + "][" + col + "]");
                    assertEquals((a.get(row * 8 + col / 32).longValue() >>> (col % 32)) & 1, c.bits(), "A[" + row + "][" + col + "] from registers");
                }
            }
        }
    }

    @Test
    void aDescriptorOperandBeforeItsWgmmaIsIssuedIsNotYetComputed() {
        TimeTravel tt = new TimeTravel(LaunchValidation.validate(TestFiles.sample("wgmma-gemm")).start());
        for (int i = 0; i < 5; i++) tt.step();
        // the registers that will hold the descriptor hold 0 now: read through, they would name shared memory at 0
        TensorTile t = TensorCapture.capture(tt, 0, -1, "A");
        assertEquals("A", t.operand());
        assertTrue(t.note().startsWith("not yet computed at step 5"), t.note());
        for (int m = 0; m < t.rows(); m++) for (int k = 0; k < t.cols(); k++) assertNull(t.cell(m, k), "A[" + m + "][" + k + "]");
        assertEquals(5, tt.now(), "the position does not move");
    }

    @Test
    void aDescriptorOperandIsReadAsItsWgmmaWasIssued() {
        LaunchedRun run = LaunchValidation.validate(TestFiles.sample("wgmma-gemm")).start();
        TimeTravel tt = new TimeTravel(run);
        tt.runForward(() -> false);
        long end = tt.now();
        List<Number> a = run.buffers().get("A");
        TensorTile t = TensorCapture.capture(tt, 0, -1, "A");
        assertTrue(t.note().startsWith("as issued at step "), t.note());
        assertTrue(t.note().contains("swizzle 128B"), t.note());
        for (int m = 0; m < 64; m++) {
            for (int k = 0; k < 16; k++) assertEquals(a.get(m * 64 + k).longValue(), t.cell(m, k).bits(), "A[" + m + "][" + k + "]");
        }
        assertEquals(end, tt.now(), "back where it was");
        assertTrue(tt.atEnd());
    }

    @Test
    void aRecordingWithoutWgmmaIssuesReadsTheDescriptorThroughTheRegistersNow() {
        LaunchedRun run = LaunchValidation.validate(TestFiles.sample("wgmma-gemm")).start();
        TimeTravel tt = new TimeTravel(run);
        tt.omitTensorCoreEvents(); // as a trace of format 2 replays
        tt.runForward(() -> false);
        List<Number> a = run.buffers().get("A");
        TensorTile t = TensorCapture.capture(tt, 0, -1, "A");
        assertTrue(t.note().startsWith("through the registers now"), t.note());
        for (int m = 0; m < 64; m++) {
            for (int k = 0; k < 16; k++) assertEquals(a.get(m * 64 + k).longValue(), t.cell(m, k).bits(), "A[" + m + "][" + k + "]");
        }
    }

    @Test
    void aKernelWithoutTensorCoreInstructionsSaysSo() {
        LaunchedRun run = ran("block-reduce");
        TensorViewModel vm = over(run, 0);
        vm.refresh();
        assertEquals(0, vm.instructions().size());
        assertTrue(vm.headerProperty().get().startsWith("No mma.sync"));
    }
}
