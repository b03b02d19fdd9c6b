package io.barrierscope.exec;

import static io.barrierscope.exec.IsaNoteChecks.*;

import org.junit.jupiter.api.Test;

/**
 * The Target ISA and PTX ISA notes of cp.async.bulk.tensor (9.7.9.25), nanosleep (9.7.19.2) and
 * atom .b128 (9.7.13.5), checked against ptxas 13.0 (docs/semantics.md section 15).
 */
class BulkTensorNanosleepAtomNotesTest {
    private static final String BULK = "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)";
    private static final String TILE = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [sm], "
            + "[%rd1, {%r1, %r2}], [bar];";
    private static final String MULTICAST = "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
            + ".multicast::cluster [sm], [%rd1, {%r1, %r2}], [bar], %h1;";
    private static final String IM2COL = "cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [sm], "
            + "[%rd1, {%r1, %r2, %r3}], [bar], {%h1};";
    private static final String STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r1, %r2}], [sm];";
    private static final String B128 = ".reg .b128 %q<4>;\n";

    @Test
    void cpAsyncBulkTensorTileNeedsSm90AndPtx80() {
        needsTargetAndVersion(TILE, "sm_89", "sm_90", "7.8", "8.0", "", BULK);
    }

    /** The ISA marks .multicast::cluster as optimized for sm_90a, a performance note: plain sm_90 takes it, as ptxas does. */
    @Test
    void cpAsyncBulkTensorMulticastNeedsOnlySm90() {
        needsTarget(MULTICAST, "sm_89", "sm_90", "sm_90 or higher", BULK);
    }

    @Test
    void cpAsyncBulkTensorIm2colNeedsSm90AndPtx80() {
        needsTargetAndVersion(IM2COL, "sm_89", "sm_90", "7.8", "8.0", "", BULK);
    }

    @Test
    void cpAsyncBulkTensorStoreToGlobalNeedsSm90() {
        needsTarget(STORE, "sm_89", "sm_90", "sm_90 or higher", BULK);
    }

    /** The ISA says 6.3; ptxas 13.0 takes nanosleep from .version 6.2 on: we follow the ISA. */
    @Test
    void nanosleepNeedsSm70AndPtx63() {
        String insn = "nanosleep.u32 10;";
        needsTargetAndVersion(insn, "sm_62", "sm_70", "6.2", "6.3", "", "9.7.19.2");
    }

    @Test
    void atomB128NeedsSm90AndPtx83() {
        String insn = B128 + "atom.global.cas.b128 %q1, [%rd1], %q2, %q3;";
        needsTarget(insn, "sm_89", "sm_90", "sm_90 or higher (.b128)", "9.7.13.5");
        refusedInVersion(B128 + "atom.shared.exch.b128 %q1, [sm], %q2;", "8.2", ".b128", "8.3", "9.7.13.5");
        loadsInVersion(B128 + "atom.shared.exch.b128 %q1, [sm], %q2;", "8.3");
    }

    @Test
    void atomB128WithSysScopeNeedsPtx84() {
        String insn = B128 + "atom.sys.global.exch.b128 %q1, [%rd1], %q2;";
        needsVersion(insn, "8.3", ".sys scope with .b128", "8.4", "9.7.13.5");
    }
}
