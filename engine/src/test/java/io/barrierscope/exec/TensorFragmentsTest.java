package io.barrierscope.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fragment layouts tools are given ({@link TensorFragments}) are the ISA's: every element of
 * each mma.sync operand is held exactly once, by the lane, register and bits of the layouts
 * written out in {@link MmaTest} from the ISA's figures.
 */
class TensorFragmentsTest {

    /** The program of a kernel whose only tensor-core instruction is {@code insn} with D %r30.., A %r1.., B %r10.., C %r20... */
    private static Program program(String insn, int dRegs, int aRegs, int bRegs, int cRegs) {
        String body = insn + " " + regs(30, dRegs) + ", " + regs(1, aRegs) + ", " + regs(10, bRegs) + ", " + regs(20, cRegs) + ";\n";
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 0;\n" + body).threads(32).ok();
        return r.program();
    }

    private static String regs(int first, int n) {
        StringBuilder b = new StringBuilder("{");
        for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ", ").append("%r").append(first + i);
        return b.append('}').toString();
    }

    /** Checks operand {@code name}: rows x cols, each element once, at {@code layout}'s place, in register first + element / perReg. */
    private static void check(Program p, String name, int rows, int cols, MmaTest.Layout layout, int first, int bits) {
        int pc = TensorFragments.instructions(p).get(0).pc();
        List<TensorFragments.Cell> cells = TensorFragments.cells(p, pc, name);
        boolean[][] seen = new boolean[rows][cols];
        int per = 32 / bits;
        for (TensorFragments.Cell c : cells) {
            assertArrayEquals(layout.at(c.lane(), c.element()), new int[] {c.row(), c.col()}, name + " lane " + c.lane() + " element " + c.element());
            assertEquals("%r" + (first + c.element() / per), c.registerName(), name + " element " + c.element());
            assertEquals(c.element() % per * bits, c.shift());
            assertTrue(!seen[c.row()][c.col()], name + " element held twice");
            seen[c.row()][c.col()] = true;
        }
        assertEquals(rows * cols, cells.size(), name + ": every element once");
    }

    @Test
    void f16M16n8k16OperandsFollowTheIsaFragmentLayouts() {
        Program p = program("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 4, 2, 4);
        check(p, "A", 16, 16, MmaTest.A_16x16_HALF, 1, 16);
        check(p, "B", 16, 8, MmaTest.B_16x8_HALF, 10, 16);
        check(p, "C", 16, 8, MmaTest.C_16x8, 20, 32);
        check(p, "D", 16, 8, MmaTest.C_16x8, 30, 32);
    }

    @Test
    void halfAccumulatorsPackTwoElementsPerRegister() {
        Program p = program("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 2, 4, 2, 2);
        check(p, "C", 16, 8, MmaTest.C_16x8, 20, 16);
        check(p, "D", 16, 8, MmaTest.C_16x8, 30, 16);
    }

    @Test
    void tf32AndEightBitOperandsFollowTheirLayouts() {
        Program tf32 = program("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, 4, 2, 4);
        check(tf32, "A", 16, 8, MmaTest.A_16x8_TF32, 1, 32);
        check(tf32, "B", 8, 8, MmaTest.B_8x8_TF32, 10, 32);
        Program s8 = program("mma.sync.aligned.m16n8k16.row.col.s32.s8.u8.s32", 4, 2, 1, 4);
        check(s8, "A", 16, 16, MmaTest.A_16x16_BYTE, 1, 8);
        check(s8, "B", 16, 8, MmaTest.B_16x8_BYTE, 10, 8);
        Program fp8 = program("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 4, 4, 2, 4);
        check(fp8, "A", 16, 32, MmaTest.A_16x32_BYTE, 1, 8);
        check(fp8, "B", 32, 8, MmaTest.B_32x8_BYTE, 10, 8);
    }
}
