package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.codes;
import static io.barrierscope.exec.ExecKernel.imm;
import static io.barrierscope.exec.ExecKernel.w;
import static io.barrierscope.exec.TextureSurfaceTest.NO_BORDER;
import static io.barrierscope.exec.TextureSurfaceTest.PRO;
import static io.barrierscope.exec.TextureSurfaceTest.desc;
import static io.barrierscope.exec.TextureSurfaceTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.ptx.ScalarType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Formatted surface stores ({@code sust.p}, PTX ISA 9.7.11.2), surface reductions ({@code sured},
 * 9.7.11.3) and the surface queries {@code suq.array_size} and {@code suq.memory_layout}
 * (9.7.11.4) on hand-built surface objects (docs/semantics.md section 16). nvcc emits none of
 * these from CUDA C++ (CUDA 13 has no formatted surface functions and no surface reductions), so
 * hand-written PTX is how they are reached here; runtime/.../ExecTexturesTest runs them through
 * inline PTX in a CUDA program (surface_formats.cu).
 */
class SurfaceFormatsTest {
    /** A surface of the given dimensions, extent, channel bits and kind. */
    static List<Number> surface(int dims, int[] ext, int[] bits, int kind) {
        return desc(true, dims, ext, bits, kind, new int[3], false, false, false, NO_BORDER);
    }

    static List<Number> zeros(int n) {
        List<Number> l = new ArrayList<>();
        for (int i = 0; i < n; i++) l.add(0L);
        return l;
    }

    static long tx(LaunchedRun r, int i) { return r.buffers().get("tx").get(i).longValue(); }

    static final int[] U32X1 = {32, 0, 0, 0};

    @Test
    void aFormattedStoreTakesASampleIndexAndStoresF32SourcesToAFloatFormat() {
        // 2 x 2 samples of two f32 channels: sample (1, 1) is words 6 and 7.
        LaunchedRun r = run(surface(2, new int[] {2, 2, 1}, new int[] {32, 32, 0, 0}, TextureObject.FLOAT), ScalarType.U32, zeros(8),
                "mov.u32 %r8, 1;\nmov.u32 %r9, 1;\nmov.f32 %f1, " + imm(1.5f) + ";\nmov.f32 %f2, " + imm(-2.25f) + ";\n"
                        + "sust.p.2d.v2.b32.trap [%rd1, {%r8, %r9}], {%f1, %f2};\n");
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(ExecKernel.f32(1.5f), tx(r, 6));
        assertEquals(ExecKernel.f32(-2.25f), tx(r, 7));
        assertEquals(0L, tx(r, 1), "x = 1 is the second sample, not byte 1");
    }

    @Test
    void halfFloatChannelsTakeExactValuesAndAnInexactOneIsSurfaceFormat() {
        List<Number> d = surface(1, new int[] {3, 0, 0}, new int[] {16, 0, 0, 0}, TextureObject.FLOAT);
        LaunchedRun r = run(d, ScalarType.U16, zeros(3),
                "mov.u32 %r8, 0;\nmov.f32 %f1, " + imm(0x1p-24f) + ";\nsust.p.1d.b32.trap [%rd1, {%r8}], {%f1};\n"
                        + "mov.u32 %r8, 1;\nmov.f32 %f1, " + imm(1.5f) + ";\nsust.p.1d.b32.trap [%rd1, {%r8}], {%f1};\n"
                        + "mov.u32 %r8, 2;\nmov.f32 %f1, " + imm(Float.NEGATIVE_INFINITY) + ";\nsust.p.1d.b32.trap [%rd1, {%r8}], {%f1};\n");
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0x0001L, 0x3E00L, 0xFC00L), List.of(tx(r, 0), tx(r, 1), tx(r, 2)), "the smallest subnormal, 1.5, -inf");
        LaunchedRun inexact = run(d, ScalarType.U16, zeros(3),
                "mov.u32 %r8, 1;\nmov.f32 %f1, " + imm(0.1f) + ";\nsust.p.1d.b32.trap [%rd1, {%r8}], {%f1};\n");
        assertEquals(List.of("surface-format"), codes(inexact), inexact.summary());
        assertTrue(inexact.summary().contains("the ISA names no rounding"), inexact.summary());
        assertEquals(0L, tx(inexact, 1), "nothing is written");
    }

    @Test
    void integerChannelsTakeValuesInTheirRangeAndOthersAreSurfaceFormat() {
        List<Number> u8 = surface(1, new int[] {2, 0, 0}, new int[] {8, 0, 0, 0}, TextureObject.UNSIGNED);
        LaunchedRun ok = run(u8, ScalarType.U8, zeros(2), "mov.u32 %r8, 1;\nmov.u32 %r5, 255;\nsust.p.1d.b32.zero [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of(), codes(ok), ok.summary());
        assertEquals(255L, tx(ok, 1));
        LaunchedRun big = run(u8, ScalarType.U8, zeros(2), "mov.u32 %r8, 1;\nmov.u32 %r5, 256;\nsust.p.1d.b32.zero [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of("surface-format"), codes(big), big.summary());
        LaunchedRun dropped = run(u8, ScalarType.U8, zeros(2), "mov.u32 %r8, 2;\nmov.u32 %r5, 256;\nsust.p.1d.b32.zero [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of(), codes(dropped), "a store .zero drops out of range converts nothing\n" + dropped.summary());
        List<Number> s8 = surface(1, new int[] {2, 0, 0}, new int[] {8, 0, 0, 0}, TextureObject.SIGNED);
        LaunchedRun min = run(s8, ScalarType.U8, zeros(2), "mov.u32 %r8, 0;\nmov.u32 %r5, -128;\nsust.p.1d.b32.clamp [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of(), codes(min), min.summary());
        assertEquals(0x80L, tx(min, 0), "the source is read as .s32 for a signed format");
        LaunchedRun under = run(s8, ScalarType.U8, zeros(2), "mov.u32 %r8, 0;\nmov.u32 %r5, -129;\nsust.p.1d.b32.clamp [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of("surface-format"), codes(under), under.summary());
    }

    @Test
    void fewerSourceElementsThanChannelsIsSurfaceFormatAndExtraElementsAreIgnored() {
        LaunchedRun few = run(surface(1, new int[] {2, 0, 0}, new int[] {32, 32, 0, 0}, TextureObject.UNSIGNED), ScalarType.U32, zeros(4),
                "mov.u32 %r8, 0;\nmov.u32 %r5, 7;\nsust.p.1d.b32.trap [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of("surface-format"), codes(few), few.summary());
        assertTrue(few.summary().contains("unpredictable"), few.summary());
        LaunchedRun extra = run(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED), ScalarType.U32, zeros(2),
                "mov.u32 %r8, 0;\nmov.u32 %r5, 7;\nmov.u32 %r6, 8;\nsust.p.1d.v4.b32.trap [%rd1, {%r8}], {%r5, %r6, %r6, %r6};\n");
        assertEquals(List.of(), codes(extra), extra.summary());
        assertEquals(List.of(7L, 0L), List.of(tx(extra, 0), tx(extra, 1)), "G, B, A have no channel: ignored");
    }

    @Test
    void aFormattedStoreOutOfRangeFollowsTheModeInSamples() {
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        String store = "mov.u32 %r5, 9;\nsust.p.1d.b32.MODE [%rd1, {%r8}], {%r5};\n";
        LaunchedRun zero = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 2;\n" + store.replace("MODE", "zero"));
        assertEquals(List.of(5L, 6L), List.of(tx(zero, 0), tx(zero, 1)), ".zero drops the store");
        LaunchedRun clamp = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 5;\n" + store.replace("MODE", "clamp"));
        assertEquals(List.of(5L, 9L), List.of(tx(clamp, 0), tx(clamp, 1)), ".clamp stores to the nearest sample");
        LaunchedRun trap = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 2;\n" + store.replace("MODE", "trap"));
        assertEquals(List.of("memory-fault"), codes(trap), trap.summary());
        assertTrue(trap.summary().contains("coordinate (x = 2) is outside the 2 surface"), trap.summary());
    }

    /** The texel address written into the descriptor by thread 0 alone, then a barrier: several threads may run the body. */
    static LaunchedRun runThreads(List<Number> desc, List<Number> texels, int threads, String body) {
        String pro = PRO.replace("st.global.u64 [%rd1+8], %rd2;\n",
                "mov.u32 %r60, %tid.x;\nsetp.eq.u32 %p15, %r60, 0;\n@%p15 st.global.u64 [%rd1+8], %rd2;\nbar.sync 0;\n");
        return ExecKernel.of(pro + body).threads(threads).buffer("desc", ScalarType.U32, desc).buffer("tx", ScalarType.U32, texels).run();
    }

    @Test
    void aByteAddressedReductionAddsAtomicallyForEveryThread() {
        // 32 threads add tid + 1 at byte 4: 1 + ... + 32 = 528, and atomics among themselves are no race.
        LaunchedRun r = runThreads(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED), zeros(2), 32,
                "mov.u32 %r8, 4;\nadd.u32 %r5, %r60, 1;\nsured.b.add.1d.u32.trap [%rd1, {%r8}], %r5;\n");
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0L, 528L), List.of(tx(r, 0), tx(r, 1)));
    }

    @Test
    void aReductionAndAPlainStoreToOneLocationWithoutOrderAreARace() {
        LaunchedRun r = runThreads(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED), zeros(2), 2,
                "mov.u32 %r8, 0;\nsetp.eq.u32 %p1, %r60, 0;\n@%p1 sured.b.add.1d.u32.trap [%rd1, {%r8}], %r60;\n"
                        + "@!%p1 st.global.u32 [%rd2], %r60;\n");
        assertTrue(codes(r).contains("race"), "sured is an atomic access, a plain store is not\n" + r.summary());
    }

    @Test
    void byteAddressedMinMaxFollowTheTypesSignednessAndAndOrAreBitwise() {
        LaunchedRun r = run(surface(1, new int[] {4, 0, 0}, U32X1, TextureObject.UNSIGNED), ScalarType.U32, List.of(5L, 5L, 0xF0L, 0xF0L),
                "mov.u32 %r5, -1;\nmov.u32 %r8, 0;\nsured.b.min.1d.s32.trap [%rd1, {%r8}], %r5;\n"
                        + "mov.u32 %r8, 4;\nsured.b.min.1d.u32.trap [%rd1, {%r8}], %r5;\n"
                        + "mov.u32 %r5, 0x3C;\nmov.u32 %r8, 8;\nsured.b.and.1d.b32.trap [%rd1, {%r8}], %r5;\n"
                        + "mov.u32 %r5, 0x0F;\nmov.u32 %r8, 12;\nsured.b.or.1d.b32.trap [%rd1, {%r8}], %r5;\n");
        assertEquals(List.of(), codes(r), r.summary());
        assertEquals(List.of(0xFFFFFFFFL, 5L, 0x30L, 0xFFL), List.of(tx(r, 0), tx(r, 1), tx(r, 2), tx(r, 3)));
    }

    @Test
    void aSampleAddressedReductionReadsItsDataAsTheFormatsSignednessAndNeedsOneIntegerChannel() {
        String min = "mov.u32 %r5, -1;\nmov.u32 %r8, 1;\nsured.p.min.1d.b32.trap [%rd1, {%r8}], %r5;\n";
        LaunchedRun signed = run(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.SIGNED), ScalarType.U32, List.of(5L, 5L), min);
        assertEquals(List.of(), codes(signed), signed.summary());
        assertEquals(List.of(5L, 0xFFFFFFFFL), List.of(tx(signed, 0), tx(signed, 1)), "SINT: -1 < 5; x = 1 is the second sample");
        LaunchedRun unsigned = run(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED), ScalarType.U32, List.of(5L, 5L), min);
        assertEquals(5L, tx(unsigned, 1), "UINT: 5 < 4294967295");
        LaunchedRun floats = run(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.FLOAT), ScalarType.U32, List.of(5L, 5L), min);
        assertEquals(List.of("texture-misuse"), codes(floats), floats.summary());
        LaunchedRun pairs = run(surface(1, new int[] {2, 0, 0}, new int[] {16, 16, 0, 0}, TextureObject.UNSIGNED), ScalarType.U32,
                List.of(5L, 5L), min);
        assertEquals(List.of("texture-misuse"), codes(pairs), "two 16-bit channels are no 32-bit integer\n" + pairs.summary());
    }

    @Test
    void aReductionOutOfRangeFollowsTheModeAndAByteXMustBeAligned() {
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        String add = "mov.u32 %r5, 10;\nsured.b.add.1d.u32.MODE [%rd1, {%r8}], %r5;\n";
        LaunchedRun zero = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 8;\n" + add.replace("MODE", "zero"));
        assertEquals(List.of(5L, 6L), List.of(tx(zero, 0), tx(zero, 1)), ".zero drops the reduction");
        LaunchedRun clamp = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, -4;\n" + add.replace("MODE", "clamp"));
        assertEquals(List.of(15L, 6L), List.of(tx(clamp, 0), tx(clamp, 1)), ".clamp reduces into the nearest location");
        LaunchedRun trap = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 8;\n" + add.replace("MODE", "trap"));
        assertEquals(List.of("memory-fault"), codes(trap), trap.summary());
        LaunchedRun odd = run(d, ScalarType.U32, List.of(5L, 6L), "mov.u32 %r8, 2;\n" + add.replace("MODE", "trap"));
        assertEquals(List.of("misaligned-access"), codes(odd), odd.summary());
    }

    @Test
    void reductionsTheIsaDoesNotGiveAreLoadErrors() {
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        // Each refused for its own reason, not for some other error in the line.
        Map<String, String> why = new LinkedHashMap<>();
        why.put("sured.b.or.1d.u32.trap [%rd1, {%r8}], %r5;", ".or does not take .u32");
        why.put("sured.b.add.1d.b32.trap [%rd1, {%r8}], %r5;", ".add does not take .b32");
        why.put("sured.b.add.1d.s64.trap [%rd1, {%r8}], %rd5;", ".add does not take .s64");
        why.put("sured.p.add.1d.b64.trap [%rd1, {%r8}], %rd5;", ".add does not take .b64");
        why.put("sured.b.add.1d.u32 [%rd1, {%r8}], %r5;", "needs .trap, .clamp or .zero");
        why.put("sured.b.add.a1d.u32.trap [%rd1, {%r8, %r8}], %r5;", "'.a1d' is not a modifier of sured");
        why.put("sust.p.1d.b32 [%rd1, {%r8}], {%r5};", "needs .trap, .clamp or .zero");
        why.forEach((insn, reason) -> {
            Exception e = assertThrows(Exception.class, () -> run(d, ScalarType.U32, zeros(2), insn));
            assertTrue(String.valueOf(e.getMessage()).contains(insn.substring(0, insn.indexOf(' '))), insn + ": " + e.getMessage());
            assertTrue(String.valueOf(e.getMessage()).contains(reason), insn + ": " + e.getMessage());
        });
    }

    @Test
    void aFormattedStoreWithoutAModeIsRefusedAtLoadWithItsLine() {
        // 9.7.11.2 gives sust.p no default mode (ptxas: "Clamp modifier required"); sust.b and suld.b default to .trap.
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        BadInputException e = assertThrows(BadInputException.class, () -> run(d, ScalarType.U32, zeros(2),
                "mov.u32 %r8, 0;\nmov.u32 %r5, 7;\nsust.p.1d.b32 [%rd1, {%r8}], {%r5};\n"));
        assertTrue(e.getMessage().contains("needs .trap, .clamp or .zero"), e.getMessage());
        assertTrue(e.getMessage().matches("(?s).*:\\d+:\\d+.*"), "file:line:col: " + e.getMessage());
        LaunchedRun withMode = run(d, ScalarType.U32, zeros(2), "mov.u32 %r8, 0;\nmov.u32 %r5, 7;\nsust.p.1d.b32.trap [%rd1, {%r8}], {%r5};\n");
        assertEquals(List.of(), codes(withMode), withMode.summary());
        assertEquals(7L, tx(withMode, 0), "the same store with a mode loads and stores");
    }

    @Test
    void aReductionNamingTwoOperationsIsALoadErrorNotOnePicked() {
        // Which one a set of operations would yield depends on its iteration order: the form is refused instead.
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        for (String insn : List.of("sured.b.add.min.1d.u32.trap [%rd1, {%r8}], %r5;", "sured.b.min.max.1d.u32.trap [%rd1, {%r8}], %r5;")) {
            BadInputException e = assertThrows(BadInputException.class, () -> run(d, ScalarType.U32, zeros(2),
                    "mov.u32 %r8, 0;\nmov.u32 %r5, 3;\n" + insn + "\n"));
            assertTrue(e.getMessage().contains("names more than one operation"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void formattedFormsOutsideTheIsaAndSourceLanguageQueriesAreRefusedByName() {
        List<Number> d = surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED);
        for (String insn : List.of("suld.p.1d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r8}];",
                "sust.p.a1d.b32.trap [%rd1, {%r8, %r8}], {%r5};", "suq.channel_data_type.b32 %r1, [%rd1];",
                "suq.channel_order.b32 %r1, [%rd1];")) {
            Exception e = assertThrows(Exception.class, () -> run(d, ScalarType.U32, zeros(2), insn));
            assertTrue(String.valueOf(e.getMessage()).contains("unsupported instruction"), insn + ": " + e.getMessage());
        }
    }

    @Test
    void arraySizeIsTheNumberOfLayersAndMemoryLayoutIsOneForLinearMemoryOnly() {
        String q = "suq.array_size.b32 %r1, [%rd1];\nsuq.memory_layout.b32 %r2, [%rd1];\n" + w(0, "%r1") + w(1, "%r2");
        LaunchedRun layered = run(LayeredTextureTest.layeredSurface(2, 2, 2, 3), ScalarType.U32, zeros(12), q);
        assertEquals(List.of(), codes(layered), layered.summary());
        assertEquals(List.of(3L, 0L), List.of(ExecKernel.w(layered, 0), ExecKernel.w(layered, 1)));
        List<Number> linear = new ArrayList<>(surface(1, new int[] {2, 0, 0}, U32X1, TextureObject.UNSIGNED));
        linear.set(76 / 4, linear.get(76 / 4).longValue() | 1L); // byte 76: linear memory
        LaunchedRun plain = run(linear, ScalarType.U32, zeros(2), q);
        assertEquals(List.of(0L, 1L), List.of(ExecKernel.w(plain, 0), ExecKernel.w(plain, 1)), "no array: size 0");
    }
}
