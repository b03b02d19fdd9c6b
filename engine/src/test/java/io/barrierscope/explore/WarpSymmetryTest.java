package io.barrierscope.explore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.exec.Machine;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.Register;
import io.barrierscope.ptx.ScalarType;
import io.barrierscope.testing.PtxRun;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The symmetry rules of the symmetric-warp reduction (docs/explore.md, "Symmetric warps"), one per test. */
class WarpSymmetryTest {
    /** Every warp stores its tid, waits at a barrier, reads a neighbour's: warps differ only by identity. */
    static final String SAME_WORK = """
            .reg .b32 %r<8>;
            .shared .align 4 .b32 s[256];
            mov.u32 %r1, %tid.x;
            shl.b32 %r2, %r1, 2;
            mov.u32 %r3, s;
            add.u32 %r3, %r3, %r2;
            st.shared.u32 [%r3], %r1;
            bar.sync 0;
            xor.b32 %r4, %r2, 4;
            mov.u32 %r6, s;
            add.u32 %r6, %r6, %r4;
            ld.shared.u32 %r7, [%r6];
            ret;
            """;

    /** Warp 0 takes a branch the others do not, decided before the barrier they all reach. */
    private static final String ROLE_BEFORE_BARRIER = """
            .reg .b32 %r<8>;
            .reg .pred %p<2>;
            .shared .align 4 .b32 s[4];
            mov.u32 %r1, %tid.x;
            shr.u32 %r2, %r1, 5;
            setp.eq.u32 %p1, %r2, 0;
            bar.sync 0;
            @%p1 bra PRODUCER;
            ld.shared.u32 %r5, [s];
            ret;
            PRODUCER:
            st.shared.u32 [s], %r1;
            ret;
            """;

    private static long[] kept(WarpSymmetry sym, Machine m, int chosen, long... alts) {
        long[] a = alts.clone();
        return Arrays.copyOf(a, sym.reduce(m, chosen, a, a.length));
    }

    /** Runs round-robin (warps in lockstep) until every warp stands at the first barrier, all runnable. */
    private static Machine allAtTheBarrier(LaunchedRun r) {
        Machine m = r.machine();
        int bar = 0;
        while (!r.program().code[bar].insn.opcode().equals("bar")) bar++;
        for (int i = 0; i < 1000; i++) {
            boolean all = true;
            for (int w = 0; w < m.warps; w++) all &= m.pc[w << 5] == bar && m.runMask[w] == -1;
            if (all) return m;
            r.interpreter().step();
        }
        throw new AssertionError("the warps never stood at the barrier together");
    }

    @Test
    void warpsAtTheSameInstructionWithEqualControlStateAreOneClassRepresentedByTheChosenWarp() {
        LaunchedRun r = PtxRun.kernel(SAME_WORK).threads(128).launch(new SchedulePolicy());
        WarpSymmetry sym = new WarpSymmetry(r.program());
        assertTrue(sym.symmetric(r.machine(), 1, 2));
        assertArrayEquals(new long[0], kept(sym, r.machine(), 0, 1, 2, 3));
    }

    @Test
    void lanesWithAsManyGroupsInFlightButOfDifferentAgesAreNotSymmetric() {
        // Two committed cp.async groups each; lane 0 of warp 1 still has the older in flight, of warp 2 the newer:
        // cp.async.wait_group 1 would hold the first and pass the second (PTX ISA 9.7.9.25.3).
        LaunchedRun r = PtxRun.kernel(SAME_WORK).threads(128).launch(new SchedulePolicy());
        Machine m = r.machine();
        WarpSymmetry sym = new WarpSymmetry(r.program());
        for (int s : new int[] {32, 64, 96}) m.async.cpGroup[s] = 2;
        m.async.add(copy(m, 32, 0));
        m.async.add(copy(m, 64, 1));
        m.async.add(copy(m, 96, 1));
        assertFalse(sym.symmetric(m, 1, 2));
        assertTrue(sym.symmetric(m, 2, 3), "the same group in flight");
    }

    private static io.barrierscope.sync.AsyncOperation copy(Machine m, int slot, long group) {
        return new io.barrierscope.sync.AsyncOperation(m.async.nextId(), 10, io.barrierscope.sync.AsyncOperation.Kind.CP_ASYNC, slot, 0,
                group, io.barrierscope.exec.Space.GLOBAL, 0, new int[] {0}, 4L * (slot >> 5), 4, -1, 4, -1, null);
    }

    @Test
    void aClassWithoutTheChosenWarpIsRepresentedByItsLowestWarp() {
        LaunchedRun r = PtxRun.kernel(SAME_WORK).threads(128).launch(new SchedulePolicy());
        r.interpreter().step(); // warp 0 moves on; 1, 2 and 3 are still at the entry
        WarpSymmetry sym = new WarpSymmetry(r.program());
        assertFalse(sym.symmetric(r.machine(), 0, 1));
        assertArrayEquals(new long[] {1}, kept(sym, r.machine(), 0, 3, 1, 2));
    }

    @Test
    void warpsAtDifferentInstructionsOrConvergencePatternsAreAllKept() {
        // The default schedule runs warp 0 to its barrier (5 steps); 1, 2 and 3 are still at the entry.
        LaunchedRun r = PtxRun.kernel(SAME_WORK).threads(128).launch(new SchedulePolicy());
        for (int i = 0; i < 5; i++) r.interpreter().step();
        Machine m = r.machine();
        assertTrue(m.pc[0] != m.pc[32] && m.pc[32] == m.pc[64]);
        WarpSymmetry sym = new WarpSymmetry(r.program());
        assertArrayEquals(new long[] {1}, kept(sym, m, 0, 1, 2, 3));
        m.pc[64] = m.pc[0]; // warp 2's lane 0 moves alone: no longer warp 3's convergence pattern
        assertArrayEquals(new long[] {1, 2}, kept(sym, m, 0, 1, 2, 3));
    }

    @Test
    void anAlreadyComputedPredicateSeparatesWarpsAtTheSameInstruction() {
        LaunchedRun r = PtxRun.kernel(ROLE_BEFORE_BARRIER).threads(128).launch();
        Machine m = allAtTheBarrier(r);
        // Warp 0's %p1 is true, the others' false (the warp index itself is identity, not compared); 1 and 2 mirror 3.
        assertArrayEquals(new long[] {0}, kept(new WarpSymmetry(r.program()), m, 3, 0, 1, 2));
    }

    @Test
    void aLoadedValueThatSteersABranchSeparatesWarpsAndEqualValuesDoNot() {
        String body = """
                .reg .b32 %r<8>;
                .reg .b64 %rd<4>;
                .reg .pred %p<2>;
                ld.param.u64 %rd1, [in];
                cvta.to.global.u64 %rd1, %rd1;
                mov.u32 %r1, %tid.x;
                mul.wide.u32 %rd2, %r1, 4;
                add.s64 %rd3, %rd1, %rd2;
                ld.global.u32 %r2, [%rd3];
                bar.sync 0;
                setp.ne.u32 %p1, %r2, 0;
                @%p1 bra SKIP;
                st.global.u32 [%rd3], %r1;
                SKIP:
                ret;
                """;
        // The same code: with zeros loaded, warps mirror each other; with tid loaded (iota) none does.
        LaunchedRun zero = PtxRun.kernel(body).buffer("in", 128).threads(128).launch();
        LaunchedRun iota = PtxRun.kernel(body).buffer("in", 128, ScalarType.U32, "iota").threads(128).launch();
        assertArrayEquals(new long[0], kept(new WarpSymmetry(zero.program()), allAtTheBarrier(zero), 3, 0, 1, 2));
        assertArrayEquals(new long[] {0, 1, 2}, kept(new WarpSymmetry(iota.program()), allAtTheBarrier(iota), 3, 0, 1, 2));
    }

    @Test
    void theControlSliceHoldsLoopCountersAndLoadedFlagsButNotIdentityOrData() {
        LaunchedRun r = PtxRun.kernel("""
                .reg .b32 %r<12>;
                .reg .pred %p<3>;
                .shared .align 4 .b32 s[128];
                mov.u32 %r1, %tid.x;
                shl.b32 %r2, %r1, 2;
                mov.u32 %r3, s;
                add.u32 %r3, %r3, %r2;
                mov.u32 %r4, 0;
                mov.u32 %r5, 0;
                LOOP:
                ld.shared.u32 %r6, [%r3];
                add.u32 %r5, %r5, %r6;
                st.shared.u32 [%r3], %r5;
                ld.volatile.shared.u32 %r7, [s];
                setp.ne.u32 %p2, %r7, 0;
                @%p2 bra DONE;
                bar.sync 0;
                add.u32 %r4, %r4, 1;
                setp.lt.u32 %p1, %r4, 4;
                @%p1 bra LOOP;
                DONE:
                ret;
                """).threads(64).launch(new SchedulePolicy());
        List<String> names = new ArrayList<>();
        int[] key = new WarpSymmetry(r.program()).keyRegisters();
        List<Register> regs = r.program().kernel.registers();
        int base = r.program().registerBase.get(r.program().kernel.name());
        for (int k : key) names.add(regs.get(k - base).name());
        assertTrue(names.containsAll(List.of("%r4", "%r7", "%p1", "%p2")), names.toString()); // counter, flag, predicates
        assertFalse(names.contains("%r1") || names.contains("%r3"), names.toString()); // identity and addresses from it
        assertFalse(names.contains("%r5") || names.contains("%r6"), names.toString()); // data only stored
    }

    @Test
    void warpsAtTheSamePositionOfMirroredCtasAreSymmetricButNotAcrossAClustersCtas() {
        LaunchedRun grid = PtxRun.kernel(SAME_WORK).threads(64).grid(2).launch(new SchedulePolicy());
        WarpSymmetry sym = new WarpSymmetry(grid.program());
        assertTrue(sym.symmetric(grid.machine(), 0, 2));
        // Transitively: warp 3 (CTA 1, position 1) mirrors warp 0 through warps 1 and 2.
        assertArrayEquals(new long[0], kept(sym, grid.machine(), 0, 1, 2, 3));
        grid.interpreter().step(); // CTA 0 moved on: CTA 1 no longer mirrors it, even at position 1
        assertFalse(sym.symmetric(grid.machine(), 1, 3));
        assertTrue(sym.symmetric(grid.machine(), 2, 3));

        LaunchedRun cluster = PtxRun.kernel(SAME_WORK).threads(64).cluster(2).launch(new SchedulePolicy());
        assertFalse(new WarpSymmetry(cluster.program()).symmetric(cluster.machine(), 0, 2));
    }
}
