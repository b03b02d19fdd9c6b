package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.f32;
import static io.barrierscope.exec.ExecKernel.u32;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.ExecKernel.x;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.diag.Diagnostic;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ld/st in every space, vectors, generic addressing, atom/red, faults (PTX ISA 9.7.9, 9.7.13.5-6). */
class MemoryOpsTest {
    private static final String SHARED = ".shared .align 16 .b8 sm[256];";

    private static Diagnostic only(LaunchedRun r, String code) {
        assertEquals(Outcome.DIAGNOSED, r.interpreter().outcome(), r.summary());
        assertEquals(List.of(code), codes(r), r.summary());
        return r.interpreter().diagnostics().get(0);
    }

    @Test
    void globalLoadsExtendBySignednessIntoTheRegister() {
        LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd1, %rd1;\n"
                + "ld.global.s8 %r1, [%rd1+1];\n" + w(0, "%r1") + "ld.global.u8 %r2, [%rd1+1];\n" + w(1, "%r2")
                + "ld.global.s16 %r3, [%rd1+2];\n" + w(2, "%r3") + "ld.global.u16 %r4, [%rd1+2];\n" + w(3, "%r4")
                + "ld.global.u32 %r5, [%rd1+4];\n" + w(4, "%r5") + "ld.global.u64 %rd2, [%rd1];\n" + x(0, "%rd2")
                + "ld.global.s32 %rd3, [%rd1+4];\n" + x(1, "%rd3") + "ld.global.f32 %f1, [%rd1+4];\nmov.b32 %r6, %f1;\n"
                + w(5, "%r6") + "ld.global.s8 %h1, [%rd1+1];\ncvt.s32.s16 %r7, %h1;\n" + w(6, "%r7"))
                .buffer("in", ScalarType.U32, List.of(0x8001ff80L, 0xfedcba98L)).ok();
        assertEquals(u32((byte) 0xff), w(r, 0));
        assertEquals(0xffL, w(r, 1));
        assertEquals(u32((short) 0x8001), w(r, 2));
        assertEquals(0x8001L, w(r, 3));
        assertEquals(0xfedcba98L, w(r, 4));
        assertEquals(0xfedcba988001ff80L, x(r, 0));
        assertEquals((long) (int) 0xfedcba98, x(r, 1));
        assertEquals(0xfedcba98L, w(r, 5));
        assertEquals(u32(-1), w(r, 6));
    }

    @Test
    void storesWriteOnlyTheirWidthLittleEndian() {
        LaunchedRun r = ExecKernel.of("mov.b32 %r1, 0x11223344;\nst.global.u8 [%rd40+1], %r1;\nst.global.u16 [%rd40+6], %r1;\n"
                + "mov.b64 %rd1, 0x0102030405060708;\nst.global.u64 [%rd40+8], %rd1;\nst.global.f64 [%rd41], 0d3FF0000000000000;\n"
                + "st.global.u32 [%rd40+16], 5;\n").ok();
        assertEquals(0x4400L, w(r, 0));
        assertEquals(0x33440000L, w(r, 1));
        assertEquals(0x05060708L, w(r, 2));
        assertEquals(0x01020304L, w(r, 3));
        assertEquals(ExecKernel.f64(1.0), x(r, 0));
        assertEquals(5L, w(r, 4));
    }

    @Test
    void sharedLocalConstAndParamSpaces() {
        String header = SHARED + "\n.const .align 4 .u32 tbl[4] = {10, 20, 30, 40};";
        String body = ".local .align 8 .b8 loc[32];\n"
                + "mov.u32 %r1, 123;\nst.shared.u32 [sm+8], %r1;\nld.shared.u32 %r2, [sm+8];\n" + w(0, "%r2")
                + "mov.u32 %r3, sm;\nst.shared.u32 [%r3+12], 7;\nld.shared.u32 %r4, [sm+12];\n" + w(1, "%r4")
                + "st.local.u64 [loc+16], %rd40;\nld.local.u64 %rd1, [loc+16];\nsub.s64 %rd2, %rd1, %rd40;\n" + x(0, "%rd2")
                + "ld.const.u32 %r5, [tbl+8];\n" + w(2, "%r5") + "mov.u64 %rd3, tbl;\nld.const.u32 %r6, [%rd3+12];\n" + w(3, "%r6")
                + "ld.param.u32 %r7, [n];\n" + w(4, "%r7") + "ld.param.s16 %r8, [h];\n" + w(5, "%r8");
        LaunchedRun r = ExecKernel.of(body).header(header).value("n", ScalarType.U32, 0xdeadbeefL)
                .value("h", ScalarType.S16, -3).ok();
        assertEquals(123L, w(r, 0));
        assertEquals(7L, w(r, 1));
        assertEquals(0L, x(r, 0));
        assertEquals(30L, w(r, 2));
        assertEquals(40L, w(r, 3));
        assertEquals(0xdeadbeefL, w(r, 4));
        assertEquals(u32(-3), w(r, 5));
    }

    @Test
    void localMemoryIsPrivateToEachThread() {
        String body = ".local .align 4 .b8 loc[8];\nmov.u32 %r1, %tid.x;\nst.local.u32 [loc], %r1;\nbar.sync 0;\n"
                + "ld.local.u32 %r2, [loc];\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd40, %rd1;\nst.global.u32 [%rd2], %r2;\n";
        LaunchedRun r = ExecKernel.of(body).threads(40).ok();
        for (int t = 0; t < 40; t++) assertEquals(t, w(r, t));
    }

    @Test
    void sharedMemoryIsPerCta() {
        String body = "mov.u32 %r1, %ctaid.x;\nmov.u32 %r2, %tid.x;\nsetp.eq.u32 %p1, %r2, 0;\n@%p1 st.shared.u32 [sm], %r1;\n"
                + "bar.sync 0;\nld.shared.u32 %r3, [sm];\nmov.u32 %r4, %ntid.x;\nmad.lo.u32 %r5, %r1, %r4, %r2;\n"
                + "mul.wide.u32 %rd1, %r5, 4;\nadd.s64 %rd2, %rd40, %rd1;\nst.global.u32 [%rd2], %r3;\n";
        LaunchedRun r = ExecKernel.of(body).header(SHARED).grid(new Dim3(3, 1, 1)).threads(20).ok();
        for (int t = 0; t < 60; t++) assertEquals(t / 20, w(r, t), "thread " + t);
    }

    @Test
    void vectorLoadsAndStores() {
        String body = "mov.b32 %r1, 1;\nmov.b32 %r2, 2;\nmov.b32 %r3, 3;\nmov.b32 %r4, 4;\n"
                + "st.global.v4.u32 [%rd40+16], {%r1, %r2, %r3, %r4};\nld.global.v2.u32 {%r5, %r6}, [%rd40+24];\n"
                + w(0, "%r5") + w(1, "%r6") + "st.shared.v2.u64 [sm+16], {%rd40, %rd41};\nld.shared.v2.u64 {%rd1, %rd2}, [sm+16];\n"
                + "sub.s64 %rd3, %rd2, %rd41;\n" + x(0, "%rd3") + "ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd40+16];\n"
                + "cvt.u32.u16 %r7, %h3;\n" + w(2, "%r7") + "st.global.v2.f32 [%rd41+16], {%f1, %f2};\n"
                + "st.global.v4.u32 [%rd40+48], {%r1, _, %r3, _};\n";
        LaunchedRun r = ExecKernel.of(body).header(SHARED).ok();
        assertEquals(3L, w(r, 0));
        assertEquals(4L, w(r, 1));
        assertEquals(0L, x(r, 0));
        assertEquals(2L, w(r, 2)); // halves of 1, 2: 1, 0, 2, 0
        assertEquals(List.of(1L, 2L, 3L, 4L), List.of(w(r, 4), w(r, 5), w(r, 6), w(r, 7)));
        assertEquals(List.of(1L, 0L, 3L, 0L), List.of(w(r, 12), w(r, 13), w(r, 14), w(r, 15)));
    }

    @Test
    void vectorAccessMustBeAlignedToItsWholeSize() {
        LaunchedRun r = ExecKernel.of("ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd40+8];").run();
        Diagnostic d = only(r, "misaligned-access");
        assertTrue(d.message().contains("16-byte"), d.message());
    }

    @Test
    void genericAddressingReachesEverySpace() {
        String body = ".local .align 4 .b8 loc[8];\n"
                + "cvta.shared.u64 %rd1, sm;\nst.u32 [%rd1+4], 11;\nld.shared.u32 %r1, [sm+4];\n" + w(0, "%r1")
                + "mov.u64 %rd2, loc;\ncvta.local.u64 %rd3, %rd2;\nst.u32 [%rd3], 22;\nld.local.u32 %r2, [loc];\n" + w(1, "%r2")
                + "mov.u64 %rd4, tbl;\ncvta.const.u64 %rd5, %rd4;\nld.u32 %r3, [%rd5+4];\n" + w(2, "%r3")
                + "ld.u32 %r4, [%rd1+4];\n" + w(3, "%r4") + "st.u32 [%rd40+16], 33;\n" + "mov.u64 %rd6, sm;\n"
                + "cvta.shared.u64 %rd7, %rd6;\nld.u32 %r5, [%rd7+4];\n" + w(5, "%r5");
        LaunchedRun r = ExecKernel.of(body).header(SHARED + "\n.const .align 4 .u32 tbl[2] = {5, 6};").ok();
        assertEquals(List.of(11L, 22L, 6L, 11L, 33L, 11L), List.of(w(r, 0), w(r, 1), w(r, 2), w(r, 3), w(r, 4), w(r, 5)));
    }

    @Test
    void atomicsOnGlobalReturnTheOldValue() {
        String body = "st.global.u32 [%rd40+128], 10;\n"
                + "atom.global.add.u32 %r1, [%rd40+128], 5;\n" + w(0, "%r1")
                + "atom.global.min.s32 %r2, [%rd40+128], -3;\n" + w(1, "%r2")
                + "atom.global.max.u32 %r3, [%rd40+128], 2;\n" + w(2, "%r3")
                + "atom.global.and.b32 %r4, [%rd40+128], 0xff00ff0f;\n" + w(3, "%r4")
                + "atom.global.or.b32 %r5, [%rd40+128], 0x10;\n" + w(4, "%r5")
                + "atom.global.xor.b32 %r6, [%rd40+128], 0xffffffff;\n" + w(5, "%r6")
                + "atom.global.exch.b32 %r7, [%rd40+128], 42;\n" + w(6, "%r7")
                + "atom.global.cas.b32 %r8, [%rd40+128], 41, 0;\n" + w(7, "%r8")
                + "atom.global.cas.b32 %r9, [%rd40+128], 42, 99;\n" + w(8, "%r9")
                + "ld.global.u32 %r10, [%rd40+128];\n" + w(9, "%r10")
                + "st.global.u64 [%rd41+64], 100;\natom.global.add.u64 %rd1, [%rd41+64], -1;\n" + x(0, "%rd1")
                + "atom.global.exch.b64 %rd2, [%rd41+64], 0x1234567890;\n" + x(1, "%rd2")
                + "atom.global.min.u64 %rd3, [%rd41+64], 7;\n" + x(2, "%rd3") + "ld.global.u64 %rd4, [%rd41+64];\n" + x(3, "%rd4");
        LaunchedRun r = ExecKernel.of(body).ok();
        int v = 10;
        long[] olds = new long[9];
        olds[0] = u32(v); v += 5;
        olds[1] = u32(v); v = Math.min(v, -3);
        olds[2] = u32(v); v = Integer.compareUnsigned(v, 2) >= 0 ? v : 2;
        olds[3] = u32(v); v &= 0xff00ff0f;
        olds[4] = u32(v); v |= 0x10;
        olds[5] = u32(v); v ^= 0xffffffff;
        olds[6] = u32(v); v = 42;
        olds[7] = u32(v); // 41 != 42: unchanged
        olds[8] = u32(v); v = 99;
        for (int i = 0; i < 9; i++) assertEquals(olds[i], w(r, i), "atom " + i);
        assertEquals(u32(v), w(r, 9));
        assertEquals(100L, x(r, 0));
        assertEquals(99L, x(r, 1));
        assertEquals(0x1234567890L, x(r, 2));
        assertEquals(7L, x(r, 3));
    }

    @Test
    void aFloatAtomicAddWhoseSumIsNaNStoresTheCanonicalNaN() {
        String body = "st.global.f32 [%rd40], 0f7FC00001;\nred.global.add.f32 [%rd40], 0fFFC00002;\n"
                + "st.global.f64 [%rd41], 0dFFF8000000000003;\natom.global.add.f64 %fd1, [%rd41], 0d7FF8000000000004;\n"
                + "st.global.f32 [%rd40+4], 0f7F800000;\natom.global.add.f32 %f1, [%rd40+4], 0fFF800000;\n";
        LaunchedRun r = ExecKernel.of(body).ok();
        assertEquals(0x7FFFFFFFL, w(r, 0));
        assertEquals(0x7FFFFFFFFFFFFFFFL, x(r, 0));
        assertEquals(0x7FFFFFFFL, w(r, 1), "inf + -inf");
    }

    @Test
    void floatAndSixtyFourBitAtomics() {
        String body = "st.global.f64 [%rd41], 0d3FF8000000000000;\natom.global.add.f64 %fd1, [%rd41], 0d4004000000000000;\n"
                + "mov.b64 %rd1, %fd1;\n" + x(1, "%rd1") + "st.shared.u64 [sm], 5;\n"
                + "atom.shared.cas.b64 %rd2, [sm], 5, 0x100000000;\n" + x(2, "%rd2") + "ld.shared.u64 %rd3, [sm];\n" + x(3, "%rd3")
                + "st.global.f32 [%rd40], 0f3F800000;\nred.global.add.f32 [%rd40], 0f3F000000;\n"
                + "atom.global.exch.b32 %r1, [%rd40+4], 0f40000000;\natom.global.add.s32 %r2, [%rd40+8], -4;\n"
                + "ld.global.s32 %r3, [%rd40+8];\n" + w(2, "%r3") + "atom.global.max.s64 %rd4, [%rd41+32], -1;\n"
                + "ld.global.u64 %rd5, [%rd41+32];\n" + x(5, "%rd5");
        LaunchedRun r = ExecKernel.of(body).header(SHARED).ok();
        assertEquals(ExecKernel.f64(1.5 + 2.5), x(r, 0));
        assertEquals(ExecKernel.f64(1.5), x(r, 1));
        assertEquals(5L, x(r, 2));
        assertEquals(0x100000000L, x(r, 3));
        assertEquals(f32(1.5f), w(r, 0));
        assertEquals(f32(2f), w(r, 1));
        assertEquals(u32(-4), w(r, 2));
        assertEquals(0L, x(r, 5)); // max(0, -1) as s64
    }

    @Test
    void atomIncAndDecWrapAtTheBound() {
        // 32 threads each inc (bound 5) one word and dec (bound 5) another; the ISA's rules applied 32 times.
        String body = "atom.global.inc.u32 %r1, [%rd40], 5;\natom.global.dec.u32 %r2, [%rd40+4], 5;\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).ok();
        long inc = 0;
        long dec = 0;
        for (int i = 0; i < 32; i++) {
            inc = inc >= 5 ? 0 : inc + 1;
            dec = (dec == 0 || dec > 5) ? 5 : dec - 1;
        }
        assertEquals(inc, w(r, 0));
        assertEquals(dec, w(r, 1));
    }

    @Test
    void sharedAtomicsFromManyThreadsAreNotLost() {
        String body = "mov.u32 %r1, %tid.x;\nsetp.eq.u32 %p1, %r1, 0;\n@%p1 st.shared.u32 [sm], 0;\n@%p1 st.shared.f32 [sm+4], 0f00000000;\n"
                + "@%p1 st.shared.u32 [sm+8], 0;\nbar.sync 0;\n"
                + "add.u32 %r2, %r1, 1;\natom.shared.add.u32 %r3, [sm], %r2;\ncvt.rn.f32.u32 %f1, %r2;\nmul.f32 %f1, %f1, 0f3F000000;\n"
                + "atom.shared.add.f32 %f2, [sm+4], %f1;\nred.shared.max.u32 [sm+8], %r2;\nbar.sync 0;\n"
                + "@%p1 ld.shared.u32 %r4, [sm];\n@%p1 ld.shared.u32 %r5, [sm+4];\n@%p1 ld.shared.u32 %r6, [sm+8];\n"
                + "@%p1 st.global.u32 [%rd40], %r4;\n@%p1 st.global.u32 [%rd40+4], %r5;\n@%p1 st.global.u32 [%rd40+8], %r6;\n"
                + "red.global.add.u32 [%rd40+12], %r2;\nmul.wide.u32 %rd1, %r1, 4;\nadd.s64 %rd2, %rd40, %rd1;\n"
                + "st.global.u32 [%rd2+64], %r3;\n";
        LaunchedRun r = ExecKernel.of(body).header(SHARED).threads(48).wSlots(128).ok();
        int n = 48;
        assertEquals((long) n * (n + 1) / 2, w(r, 0));
        assertEquals(f32(n * (n + 1) / 4f), w(r, 1)); // sum of k/2, exact in float
        assertEquals(n, w(r, 2));
        assertEquals((long) n * (n + 1) / 2, w(r, 3));
        // the returned old values are distinct partial sums
        List<Long> olds = new ArrayList<>();
        for (int t = 0; t < n; t++) olds.add(w(r, 16 + t));
        assertEquals(n, olds.stream().distinct().count());
        assertTrue(olds.contains(0L));
    }

    @Test
    void casElectsExactlyOneWinner() {
        String body = "mov.u32 %r1, %tid.x;\nadd.u32 %r2, %r1, 1;\natom.global.cas.b32 %r3, [%rd40], 0, %r2;\n"
                + "setp.eq.u32 %p1, %r3, 0;\nselp.u32 %r4, 1, 0, %p1;\nred.global.add.u32 [%rd40+4], %r4;\n"
                + "@%p1 st.global.u32 [%rd40+8], %r2;\n";
        LaunchedRun r = ExecKernel.of(body).threads(64).ok();
        assertEquals(1L, w(r, 1));
        assertEquals(w(r, 0), w(r, 2));
    }

    @Test
    void outOfBoundsGlobalAccessNamesTheNearestBuffer() {
        LaunchedRun r = ExecKernel.of("ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd1, %rd1;\nld.global.u32 %r1, [%rd1+16];")
                .buffer("in", ScalarType.U32, List.of(1L, 2L, 3L, 4L)).run();
        Diagnostic d = only(r, "memory-fault");
        assertTrue(d.message().contains("'in'"), d.message());
        r = ExecKernel.of("ld.param.u64 %rd1, [in];\ncvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1+-4], 0;")
                .buffer("in", ScalarType.U32, List.of(1L, 2L, 3L, 4L)).run();
        d = only(r, "memory-fault");
        assertTrue(d.message().contains("'in'"), d.message());
    }

    @Test
    void nullPointerAccessFaults() {
        LaunchedRun r = ExecKernel.of("mov.u64 %rd1, 0;\nld.u32 %r1, [%rd1];").run();
        only(r, "memory-fault");
    }

    @Test
    void faultNamesTheThreadThatFaulted() {
        // Only lane 5 goes out of bounds (out has 64 u32 slots; lane 5 indexes slot 64).
        String body = "mov.u32 %r1, %laneid;\nsetp.eq.u32 %p1, %r1, 5;\nselp.u32 %r2, 64, 0, %p1;\nmul.wide.u32 %rd1, %r2, 4;\n"
                + "add.s64 %rd2, %rd40, %rd1;\nst.global.u32 [%rd2], %r1;\n";
        // The other 31 lanes all store to slot 0: a race on purpose, this test is about the fault.
        LaunchedRun r = ExecKernel.of(body).threads(32).racy().run();
        Diagnostic d = only(r, "memory-fault");
        assertEquals(List.of(5), d.threads(), d.message());
        assertTrue(d.message().contains("thread (5,0,0)"), d.message());
    }

    @Test
    void lanesStoringToOneAddressLeaveTheHighestActiveLanesValueWithRaceDetectionOnOrOff() {
        // Lanes 0-19 store lane+100 to w[lane % 4] (lanes 20-31 guarded off): lanes store in lane order,
        // so w[k] holds lane 16+k's value, whether the warp-wide inline form or the per-lane one runs.
        String body = "mov.u32 %r1, %laneid;\nsetp.lt.u32 %p1, %r1, 20;\nand.b32 %r2, %r1, 3;\nmul.wide.u32 %rd1, %r2, 4;\n"
                + "add.s64 %rd2, %rd40, %rd1;\nadd.u32 %r3, %r1, 100;\n@%p1 st.global.u32 [%rd2], %r3;\n";
        for (boolean races : new boolean[] {false, true}) {
            ExecKernel k = ExecKernel.of(body).threads(32);
            LaunchedRun r = (races ? k : k.racy()).run();
            for (int i = 0; i < 4; i++) assertEquals(116 + i, w(r, i), "w[" + i + "], race detection " + (races ? "on" : "off"));
        }
    }

    @Test
    void warpStoreWritesLanesInOrderAcrossBuffersUntilOneFaults() {
        // Race detection off (the warp-wide inline store): even lanes store to w, odd lanes to x, so
        // the buffer changes from lane to lane; lane 9 aims past x's end and faults, so lanes 0-8
        // have stored and lanes 10-31 have not.
        String body = "mov.u32 %r1, %laneid;\nand.b32 %r2, %r1, 1;\nsetp.eq.u32 %p1, %r2, 0;\nsetp.eq.u32 %p2, %r1, 9;\n"
                + "mul.wide.u32 %rd1, %r1, 8;\n@%p2 add.s64 %rd1, %rd1, 4096;\nadd.s64 %rd2, %rd41, %rd1;\n"
                + "mul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd40, %rd3;\nselp.b64 %rd5, %rd4, %rd2, %p1;\n"
                + "add.u32 %r3, %r1, 100;\nst.global.u32 [%rd5], %r3;\n";
        LaunchedRun r = ExecKernel.of(body).threads(32).racy().run();
        Diagnostic d = only(r, "memory-fault");
        assertEquals(List.of(9), d.threads(), d.message());
        for (int l = 0; l < 32; l++) {
            long expected = l < 9 ? l + 100 : 0;
            assertEquals(l % 2 == 0 ? expected : 0, w(r, l), "w[" + l + "]");
            assertEquals(l % 2 == 1 ? expected : 0, x(r, l), "x[" + l + "]");
        }
    }

    @Test
    void outOfBoundsSharedAccessNamesTheVariable() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 300;\nld.shared.u32 %r2, [%r1];").header(SHARED).run();
        Diagnostic d = only(r, "memory-fault");
        assertTrue(d.message().contains("'sm'"), d.message());
    }

    @Test
    void misalignedAccessIsReported() {
        LaunchedRun r = ExecKernel.of("ld.global.u32 %r1, [%rd40+2];").run();
        only(r, "misaligned-access");
        r = ExecKernel.of("st.shared.u64 [sm+4], %rd40;").header(SHARED).run();
        only(r, "misaligned-access");
        r = ExecKernel.of("atom.global.add.u32 %r1, [%rd40+1], 1;").run();
        only(r, "misaligned-access");
    }

    @Test
    void writingAKernelParameterFaults() {
        LaunchedRun r = ExecKernel.of("mov.u32 %r1, 5;\nst.param.u32 [n], %r1;").value("n", ScalarType.U32, 1).run();
        Diagnostic d = only(r, "memory-fault");
        assertTrue(d.message().contains("kernel parameter"), d.message());
    }

    @Test
    void writingTheConstantBankFaults() {
        LaunchedRun r = ExecKernel.of("mov.u64 %rd1, tbl;\ncvta.const.u64 %rd2, %rd1;\nst.u32 [%rd2], 1;")
                .header(".const .align 4 .u32 tbl[2] = {5, 6};").run();
        only(r, "memory-fault");
    }
}
