package io.barrierscope.exec;

import static io.barrierscope.exec.ExecKernel.assertRefusedAtLine;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.barrierscope.launch.LaunchedRun;
import java.util.List;
import org.junit.jupiter.api.Test;

/** atom and red with vector type (PTX ISA 9.7.13.5, 9.7.13.6): the ISA's table, global memory only, each element atomic. */
class AtomVectorTest {
    @Test
    void vectorF32AddAddsEachElementAndReturnsTheOldValues() {
        // ".v2 .v4 ... .f32: .add"; atom returns the old elements, red only adds.
        String body = "mov.f32 %f1, 0f3F800000;\nmov.f32 %f2, 0f40000000;\n"
                + "atom.global.v2.f32.add {%f3, %f4}, [%rd40], {%f1, %f2};\nred.global.v4.f32.add [%rd40+16], {%f1, %f2, %f1, %f2};\n"
                + "st.global.f32 [%rd40+8], %f3;\nst.global.f32 [%rd40+12], %f4;\n";
        LaunchedRun r = ExecKernel.of("mov.f32 %f5, 0f40400000;\nst.global.f32 [%rd40], %f5;\n" + body).ok();
        assertEquals(ExecKernel.f32(4f), ExecKernel.w(r, 0));
        assertEquals(ExecKernel.f32(2f), ExecKernel.w(r, 1));
        assertEquals(ExecKernel.f32(3f), ExecKernel.w(r, 2), "old element 0");
        assertEquals(0, ExecKernel.w(r, 3), "old element 1");
        assertEquals(List.of(ExecKernel.f32(1f), ExecKernel.f32(2f), ExecKernel.f32(1f), ExecKernel.f32(2f)),
                List.of(ExecKernel.w(r, 4), ExecKernel.w(r, 5), ExecKernel.w(r, 6), ExecKernel.w(r, 7)));
    }

    @Test
    void vectorHalfAddMinAndMaxWorkOnEachElementEvenWhenDestinationsAreTheSources() {
        // ".v2 .v4 .v8 .f16/.bf16: .add, .min, .max"; ".v2 .v4 .f16x2/.bf16x2: .add, .min, .max" (with .noftz).
        String body = "mov.b16 %h1, 0x3C00;\nmov.b16 %h2, 0xBC00;\n"
                + "atom.global.v2.f16.max.noftz {%h3, %h4}, [%rd40], {%h1, %h2};\n"       // [2, 2] max [1, -1] = [2, 2]
                + "atom.global.v2.f16.min.noftz {%h3, %h4}, [%rd40+4], {%h1, %h2};\n"     // [2, 2] min [1, -1] = [1, -1]
                + "atom.global.v8.bf16.add.noftz {%h1, %h1, %h1, %h1, %h1, %h1, %h1, %h1}, [%rd40+16], {%h1, %h1, %h1, %h1, %h1, %h1, %h1, %h1};\n"
                + "mov.b32 %r1, 0x3C003C00;\nred.global.v2.f16x2.add.noftz [%rd40+32], {%r1, %r1};\n";
        // w starts at zero: the kernel seeds words 0 and 1 with the f16 pair [2, 2] first.
        LaunchedRun s = ExecKernel.of("st.global.u32 [%rd40], 0x40004000;\nst.global.u32 [%rd40+4], 0x40004000;\n" + body).ok();
        assertEquals(0x40004000L, ExecKernel.w(s, 0));
        assertEquals(0xBC003C00L, ExecKernel.w(s, 1));
        for (int i = 4; i < 8; i++) assertEquals(0x3C003C00L, ExecKernel.w(s, i), "bf16 word " + i + ": every element gets the source, read before any write");
        assertEquals(0x3C003C00L, ExecKernel.w(s, 8), "f16x2 pair: 0 + 1 in each half");
    }

    @Test
    void vectorFormsOutsideTheIsasTableOrOutsideGlobalMemoryAreRefused() {
        assertRefusedAtLine("atom.global.v4.f32.max {%f1, %f2, %f3, %f4}, [%rd40], {%f1, %f2, %f3, %f4};", "not in the ISA's table");
        assertRefusedAtLine("atom.global.v8.f16x2.add.noftz {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd40], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8};",
                "not in the ISA's table");
        assertRefusedAtLine("atom.global.v2.f16.add {%h1, %h2}, [%rd40], {%h1, %h2};", "not in the ISA's table");
        assertRefusedAtLine("atom.global.v2.u32.add {%r1, %r2}, [%rd40], {%r1, %r2};", "not in the ISA's table");
        assertRefusedAtLine("atom.shared.v2.f32.add {%f1, %f2}, [%r1], {%f1, %f2};", "only with .global or a generic address");
        assertRefusedAtLine("red.shared::cluster.v2.f32.add [%r1], {%f1, %f2};", "only with .global or a generic address");
    }

    @Test
    void aVectorOperandThatIsNotABraceVectorOfItsLengthIsRefusedCitingTheInstructionsOwnSection() {
        assertRefusedAtLine("atom.global.v2.f32.add {%f1, %f2}, [%rd40], %f1;", "brace-enclosed vector of 2 elements (PTX ISA 9.7.13.5)");
        assertRefusedAtLine("red.global.v2.f32.add [%rd40], {%f1, %f2, %f3};", "brace-enclosed vector of 2 elements (PTX ISA 9.7.13.6)");
    }

    @Test
    void aVectorAtomThroughAGenericSharedAddressIsAMemoryFault() {
        // "atom with vector type may be used only ... with generic addressing where the address points to .global space."
        LaunchedRun r = ExecKernel.of(".shared .align 8 .b8 sm[8];\nmov.u64 %rd1, sm;\ncvta.shared.u64 %rd2, %rd1;\nmov.f32 %f1, 0f3F800000;\n"
                + "atom.v2.f32.add {%f2, %f3}, [%rd2], {%f1, %f1};\n").run();
        assertEquals(List.of("memory-fault"), ExecKernel.codes(r), r.summary());
    }
}
