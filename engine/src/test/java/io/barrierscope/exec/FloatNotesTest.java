package io.barrierscope.exec;

import static io.barrierscope.exec.IsaNoteChecks.*;

import org.junit.jupiter.api.Test;

/**
 * The Target ISA and PTX ISA notes of the f32/f64 arithmetic (PTX ISA 9.7.3) and of the
 * half-precision add, sub, mul (9.7.4.1-3) the engine runs. Notes from sm_75 and .version 6.3 on
 * were checked against ptxas 13.0; older targets and versions (which ptxas no longer takes) follow
 * the ISA text.
 */
class FloatNotesTest {
    @Test
    void addSubMulRmRpOnF32NeedSm20() {
        for (String insn : new String[] {"add.rm.f32 %f1, %f2, %f3;", "sub.rp.f32 %f1, %f2, %f3;", "mul.rm.ftz.f32 %f1, %f2, %f3;"}) {
            needsTarget(insn, "sm_13", "sm_20", "sm_20 or higher (.rm, .rp on .f32)", "9.7.3.3-5");
        }
        loadsOnTarget("add.rz.f32 %f1, %f2, %f3;", "sm_10");
    }

    @Test
    void f64ArithmeticNeedsSm13() {
        for (String insn : new String[] {"add.rm.f64 %fd1, %fd2, %fd3;", "mul.f64 %fd1, %fd2, %fd3;", "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;",
            "mad.rn.f64 %fd1, %fd2, %fd3, %fd4;", "div.rn.f64 %fd1, %fd2, %fd3;", "neg.f64 %fd1, %fd2;", "min.f64 %fd1, %fd2, %fd3;",
            "rcp.rn.f64 %fd1, %fd2;", "sqrt.rn.f64 %fd1, %fd2;", "rsqrt.approx.f64 %fd1, %fd2;"}) {
            needsTarget(insn, "sm_12", "sm_13", "sm_13 or higher (.f64)", "9.7.3.3-13, 9.7.3.15-16");
        }
    }

    @Test
    void fmaF32NeedsSm20AndPtx20() {
        String insn = "fma.rn.f32 %f1, %f2, %f3, %f4;";
        needsTargetAndVersion(insn, "sm_13", "sm_20", "1.4", "2.0", "fma.f32", "9.7.3.6");
    }

    @Test
    void madDivRcpSqrtWithRoundingOnF32NeedSm20() {
        for (String insn : new String[] {"mad.rn.f32 %f1, %f2, %f3, %f4;", "div.rn.f32 %f1, %f2, %f3;", "rcp.rz.f32 %f1, %f2;",
            "sqrt.rm.f32 %f1, %f2;"}) {
            needsTarget(insn, "sm_13", "sm_20", "sm_20 or higher (.rnd on .f32)", "9.7.3.7-8, 9.7.3.13, 9.7.3.15");
        }
        loadsOnTarget("div.approx.f32 %f1, %f2, %f3;", "sm_10");
    }

    @Test
    void divRcpSqrtWithDirectedRoundingOnF64NeedSm20() {
        for (String insn : new String[] {"div.rz.f64 %fd1, %fd2, %fd3;", "rcp.rm.f64 %fd1, %fd2;", "sqrt.rp.f64 %fd1, %fd2;"}) {
            needsTarget(insn, "sm_13", "sm_20", "sm_20 or higher (.rz, .rm, .rp on .f64)", "9.7.3.8, 9.7.3.13, 9.7.3.15");
        }
    }

    @Test
    void rcpApproxFtzF64NeedsSm20AndPtx21() {
        String insn = "rcp.approx.ftz.f64 %fd1, %fd2;";
        needsTargetAndVersion(insn, "sm_13", "sm_20", "2.0", "2.1", "", "9.7.3.14");
    }

    @Test
    void minMaxNaNOnF32NeedsSm80AndPtx70() {
        String insn = "max.NaN.f32 %f1, %f2, %f3;";
        needsTargetAndVersion(insn, "sm_75", "sm_80", "6.5", "7.0", ".NaN", "9.7.3.11-12");
    }

    @Test
    void minMaxXorsignAbsOnF32NeedsSm86AndPtx72() {
        String insn = "min.xorsign.abs.f32 %f1, %f2, %f3;";
        needsTargetAndVersion(insn, "sm_80", "sm_86", "7.1", "7.2", ".xorsign.abs", "9.7.3.11-12");
    }

    @Test
    void tanhApproxF32NeedsSm75AndPtx70() {
        String insn = "tanh.approx.f32 %f1, %f2;";
        needsTargetAndVersion(insn, "sm_72", "sm_75", "6.5", "7.0", "", "9.7.3.22");
    }

    @Test
    void testpAndCopysignNeedSm20AndPtx20() {
        for (String insn : new String[] {"testp.finite.f32 %p1, %f1;", "copysign.f64 %fd1, %fd2, %fd3;"}) {
            needsTargetAndVersion(insn, "sm_13", "sm_20", "1.4", "2.0", "", "9.7.3.1-2");
        }
    }

    @Test
    void halfAddSubMulNeedSm53AndPtx42() {
        for (String insn : new String[] {"add.f16 %h1, %h2, %h3;", "sub.rn.f16x2 %r1, %r2, %r3;", "mul.ftz.f16 %h1, %h2, %h3;"}) {
            needsTargetAndVersion(insn, "sm_52", "sm_53", "4.1", "4.2", "", "9.7.4.1-3");
        }
    }

    @Test
    void bf16AddSubMulNeedSm90AndPtx78() {
        for (String insn : new String[] {"add.bf16 %h1, %h2, %h3;", "sub.rn.bf16x2 %r1, %r2, %r3;", "mul.bf16 %h1, %h2, %h3;"}) {
            needsTargetAndVersion(insn, "sm_89", "sm_90", "7.7", "7.8", ".bf16, .bf16x2", "9.7.4.1-3");
        }
    }

    @Test
    void fmaF64NeedsPtx14() {
        String insn = "fma.rn.f64 %fd1, %fd2, %fd3, %fd4;";
        needsVersion(insn, "1.3", "fma.f64", "1.4", "9.7.3.6");
    }

    @Test
    void divExplicitModifiersAndRoundingNeedPtx14() {
        for (String insn : new String[] {"div.rn.f64 %fd1, %fd2, %fd3;", "div.rz.f32 %f1, %f2, %f3;", "div.full.f32 %f1, %f2, %f3;",
            "div.approx.ftz.f32 %f1, %f2, %f3;"}) {
            needsVersion(insn, "1.3", "explicit modifiers .approx, .full, .ftz and rounding", "1.4", "9.7.3.8");
        }
    }

    @Test
    void rcpSqrtRnF64AndApproxFtzNeedPtx14() {
        for (String insn : new String[] {"rcp.rn.f64 %fd1, %fd2;", "sqrt.rn.f64 %fd1, %fd2;", "rcp.approx.ftz.f32 %f1, %f2;",
            "sqrt.approx.f32 %f1, %f2;"}) {
            needsVersion(insn, "1.3", ".rn.f64 and explicit modifiers .approx, .ftz", "1.4", "9.7.3.13, 9.7.3.15");
        }
    }

    @Test
    void rcpSqrtGeneralRoundingModifiersNeedPtx20() {
        for (String insn : new String[] {"rcp.rz.f64 %fd1, %fd2;", "sqrt.rm.f64 %fd1, %fd2;", "rcp.rn.f32 %f1, %f2;", "sqrt.rp.ftz.f32 %f1, %f2;"}) {
            needsVersion(insn, "1.4", "general rounding modifiers", "2.0", "9.7.3.13, 9.7.3.15");
        }
    }

    @Test
    void rsqrtApproxFtzF64NeedsSm20AndPtx40() {
        String insn = "rsqrt.approx.ftz.f64 %fd1, %fd2;";
        needsTargetAndVersion(insn, "sm_13", "sm_20", "3.2", "4.0", "", "9.7.3.17");
    }
}
