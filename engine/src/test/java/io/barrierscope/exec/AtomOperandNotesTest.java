package io.barrierscope.exec;

import static io.barrierscope.exec.IsaNoteChecks.*;

import org.junit.jupiter.api.Test;

/**
 * The Target ISA notes of atom (PTX ISA 9.7.13.5) and red (9.7.13.6) that depend on the operand
 * size and the state space: 64-bit and, or, xor, min, max need sm_32; 64-bit add, cas, exch need
 * sm_20 on .shared and sm_12 on .global; add.f32 and generic addressing sm_20; .shared sm_12;
 * .global sm_11. Each was checked against ptxas 13.0 (given -arch=sm_75 it still checks a module's
 * lower .target), which refuses the form below the note's target and takes it there.
 */
class AtomOperandNotesTest {
    private static final String SECTION = "9.7.13.5, 9.7.13.6";

    @Test
    void sixtyFourBitAndOrXorMinMaxNeedSm32() {
        for (String insn : new String[] {"atom.global.and.b64 %rd2, [%rd1], %rd3;", "red.global.max.u64 [%rd1], %rd3;",
            "atom.shared.min.s64 %rd2, [sm], %rd3;"}) {
            refusedOnTarget(insn, "sm_30", "sm_32 or higher (64-bit .and, .or, .xor, .min, .max)", SECTION);
            loadsOnTarget(insn, "sm_32");
        }
        loadsOnTarget("atom.global.and.b32 %r2, [%rd1], %r3;", "sm_30");
    }

    @Test
    void sixtyFourBitAddCasExchOnSharedNeedSm20() {
        for (String insn : new String[] {"atom.shared.add.u64 %rd2, [sm], %rd3;", "atom.shared.cas.b64 %rd2, [sm], %rd3, %rd4;",
            "red.shared.add.u64 [sm], %rd3;"}) {
            refusedOnTarget(insn, "sm_13", "sm_20 or higher (64-bit .add, .cas, .exch on .shared)", SECTION);
            loadsOnTarget(insn, "sm_20");
        }
    }

    @Test
    void addF32NeedsSm20() {
        for (String insn : new String[] {"atom.global.add.f32 %f1, [%rd1], %f2;", "red.shared.add.f32 [sm], %f2;"}) {
            refusedOnTarget(insn, "sm_13", "sm_20 or higher (add.f32)", SECTION);
            loadsOnTarget(insn, "sm_20");
        }
    }

    @Test
    void genericAddressingNeedsSm20() {
        for (String insn : new String[] {"atom.add.u32 %r1, [%rd1], %r2;", "red.add.u32 [%rd1], %r2;"}) {
            refusedOnTarget(insn, "sm_13", "sm_20 or higher (generic addressing)", SECTION);
            loadsOnTarget(insn, "sm_20");
        }
    }

    @Test
    void sixtyFourBitAddCasExchOnGlobalNeedSm12() {
        for (String insn : new String[] {"atom.global.exch.b64 %rd2, [%rd1], %rd3;", "red.global.add.u64 [%rd1], %rd3;"}) {
            refusedOnTarget(insn, "sm_11", "sm_12 or higher (64-bit .add, .cas, .exch on .global)", SECTION);
            loadsOnTarget(insn, "sm_12");
        }
    }

    @Test
    void sharedNeedsSm12() {
        String insn = "atom.shared.add.u32 %r1, [sm], %r2;";
        refusedOnTarget(insn, "sm_11", "sm_12 or higher (.shared)", SECTION);
        loadsOnTarget(insn, "sm_12");
    }

    @Test
    void globalNeedsSm11() {
        String insn = "red.global.add.u32 [%rd1], %r2;";
        refusedOnTarget(insn, "sm_10", "sm_11 or higher (.global)", SECTION);
        loadsOnTarget(insn, "sm_11");
    }
}
