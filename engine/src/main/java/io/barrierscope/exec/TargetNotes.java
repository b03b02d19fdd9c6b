package io.barrierscope.exec;

import static io.barrierscope.exec.InstructionForms.*;

import io.barrierscope.ptx.Instruction;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The "Target ISA Notes" of the instructions the engine runs that need more than an older target:
 * an instruction the module's {@code .target} does not support is refused at load, by name, with
 * the note's section. Two kinds: "Requires sm_90 or higher" (any sm_N with N >= 90, arch- and
 * family-specific targets included, as they carry their base architecture's features), and the
 * architecture-specific features that "a" targets alone have: wgmma needs sm_90a itself;
 * setmaxnreg sm_90a and the targets 9.7.19.5 lists. Every note that applies is checked (an
 * instruction meets its own note and those of its qualifiers). A module without an sm_ target is
 * not checked.
 */
final class TargetNotes {
    private TargetNotes() {}

    private static final Pattern SM = Pattern.compile("sm_(\\d+)([af]?)");

    /** A note: which instructions, what they need (for the message), the section, and the targets that satisfy it. */
    private record Note(Predicate<Instruction> applies, String needs, String section, Predicate<Matcher> satisfiedBy) {}

    private static Predicate<Matcher> atLeast(int n) { return m -> Integer.parseInt(m.group(1)) >= n; }

    /** A 64-bit integer atom or red (.b64, .u64, .s64): the "64-bit" of 9.7.13.5-6's operand-size notes (.f64 has its own). */
    private static boolean int64(Instruction in) { return atomOrRed(in) && any(in, ".b64", ".u64", ".s64"); }

    private static boolean sharedSpace(Instruction in) { return any(in, ".shared", ".shared::cta", ".shared::cluster"); }

    private static boolean mbarrierLike(Instruction in) { return in.opcode().equals("mbarrier") || is(in, "cp", ".async", ".mbarrier"); }

    private static final List<Note> NOTES = List.of(
            new Note(in -> is(in, "wgmma", ".mma_async") && in.has(".sp"), "sm_90a", "9.7.15.6.3", m -> m.group().equals("sm_90a")),
            new Note(in -> is(in, "wgmma", ".mma_async"), "sm_90a", "9.7.15.5.2", m -> m.group().equals("sm_90a")),
            new Note(in -> is(in, "wgmma", ".fence"), "sm_90a", "9.7.15.7.1", m -> m.group().equals("sm_90a")),
            new Note(in -> is(in, "wgmma", ".commit_group"), "sm_90a", "9.7.15.7.2", m -> m.group().equals("sm_90a")),
            new Note(in -> is(in, "wgmma", ".wait_group"), "sm_90a", "9.7.15.7.3", m -> m.group().equals("sm_90a")),
            new Note(in -> in.opcode().equals("wgmma"), "sm_90a", "9.7.15", m -> m.group().equals("sm_90a")),
            // sm_90a, sm_100a, sm_101a (sm_110a), sm_120a, and the sm_100f, sm_101f/sm_110f, sm_120f families and higher in them
            new Note(in -> in.opcode().equals("setmaxnreg"), "sm_90a, sm_100a, sm_110a, sm_120a or a family target sm_100f, sm_110f,"
                    + " sm_120f or higher in its family", "9.7.19.5",
                    m -> m.group().equals("sm_90a") || (!m.group(2).isEmpty() && Integer.parseInt(m.group(1)) >= 100
                            && Integer.parseInt(m.group(1)) < 130)),
            new Note(in -> bulk(in), "sm_90 or higher", "9.7.9.25 (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)",
                    atLeast(90)),
            new Note(in -> is(in, "atom", ".b128"), "sm_90 or higher (.b128)", "9.7.13.5", atLeast(90)),
            new Note(in -> in.opcode().equals("nanosleep"), "sm_70 or higher", "9.7.19.2", atLeast(70)),
            // 9.7.14.5.14: mma, one note per shape and type family
            new Note(MmaNoteForms::fp8, "sm_89 or higher (.e4m3, .e5m2)", "9.7.14.5.14", atLeast(89)),
            new Note(MmaNoteForms::f64M8n8k4, "sm_80 or higher (.m8n8k4 .f64)", "9.7.14.5.14", atLeast(80)),
            new Note(in -> MmaNoteForms.f16(in, ".m16n8k16"), "sm_80 or higher (.m16n8k16 .f16)", "9.7.14.5.14", atLeast(80)),
            new Note(MmaNoteForms::bf16, "sm_80 or higher (.bf16)", "9.7.14.5.14", atLeast(80)),
            new Note(MmaNoteForms::tf32, "sm_80 or higher (.tf32)", "9.7.14.5.14", atLeast(80)),
            new Note(MmaNoteForms::int8Sm80, "sm_80 or higher (.u8/.s8 .m16n8k16, .m16n8k32)", "9.7.14.5.14", atLeast(80)),
            new Note(in -> MmaNoteForms.f16(in, ".m16n8k8"), "sm_75 or higher (.m16n8k8 .f16)", "9.7.14.5.14", atLeast(75)),
            new Note(MmaNoteForms::mma, "sm_70 or higher", "9.7.14.5.14", atLeast(70)),
            // 9.7.3: f32/f64 arithmetic
            new Note(in -> FloatNoteForms.f32(in, "min", "max") && in.has(".xorsign"), "sm_86 or higher (.xorsign.abs)", "9.7.3.11-12",
                    atLeast(86)),
            new Note(in -> FloatNoteForms.f32(in, "min", "max") && in.has(".NaN"), "sm_80 or higher (.NaN)", "9.7.3.11-12", atLeast(80)),
            new Note(in -> FloatNoteForms.f32(in, "tanh"), "sm_75 or higher", "9.7.3.22", atLeast(75)),
            new Note(in -> is(in, "rcp", ".approx", ".ftz", ".f64"), "sm_20 or higher", "9.7.3.14", atLeast(20)),
            new Note(in -> FloatNoteForms.f64(in, "div", "rcp", "sqrt") && FloatNoteForms.directed(in),
                    "sm_20 or higher (.rz, .rm, .rp on .f64)", "9.7.3.8, 9.7.3.13, 9.7.3.15", atLeast(20)),
            new Note(in -> FloatNoteForms.f32(in, "div", "rcp", "sqrt", "mad") && FloatNoteForms.rnd(in), "sm_20 or higher (.rnd on .f32)",
                    "9.7.3.7-8, 9.7.3.13, 9.7.3.15", atLeast(20)),
            new Note(in -> FloatNoteForms.f32(in, "add", "sub", "mul") && any(in, ".rm", ".rp"), "sm_20 or higher (.rm, .rp on .f32)",
                    "9.7.3.3-5", atLeast(20)),
            new Note(in -> FloatNoteForms.f32(in, "fma"), "sm_20 or higher (fma.f32)", "9.7.3.6", atLeast(20)),
            new Note(in -> op(in, "testp", "copysign"), "sm_20 or higher", "9.7.3.1-2", atLeast(20)),
            new Note(in -> is(in, "rsqrt", ".approx", ".ftz", ".f64"), "sm_20 or higher", "9.7.3.17", atLeast(20)),
            new Note(in -> FloatNoteForms.f64(in, "add", "sub", "mul", "fma", "mad", "div", "abs", "neg", "min", "max", "rcp", "sqrt", "rsqrt"),
                    "sm_13 or higher (.f64)", "9.7.3.3-13, 9.7.3.15-16", atLeast(13)),
            // 9.7.4.1-3: half-precision add, sub, mul
            new Note(in -> op(in, "add", "sub", "mul") && bf16(in), "sm_90 or higher (.bf16, .bf16x2)", "9.7.4.1-3", atLeast(90)),
            new Note(in -> op(in, "add", "sub", "mul") && half(in), "sm_53 or higher", "9.7.4.1-3", atLeast(53)),
            new Note(in -> nonBulkCpAsync(in), "sm_80 or higher", "9.7.9.25 (cp.async, cp.async.commit_group, cp.async.wait_group)", atLeast(80)),
            new Note(in -> in.opcode().equals("createpolicy"), "sm_80 or higher", "9.7.9.18", atLeast(80)),
            new Note(in -> is(in, "ld", ".mmio") || is(in, "st", ".mmio"), "sm_70 or higher (.mmio)", "9.7.9.8, 9.7.9.11", atLeast(70)),
            new Note(in -> in.opcode().equals("mapa"), "sm_90 or higher", "9.7.9.23", atLeast(90)),
            new Note(in -> in.opcode().equals("getctarank"), "sm_90 or higher", "9.7.9.24", atLeast(90)),
            new Note(in -> is(in, "shfl", ".sync"), "sm_30 or higher", "9.7.9.6", atLeast(30)),
            new Note(in -> in.opcode().equals("stmatrix"), "sm_90 or higher", "9.7.14.5.16", atLeast(90)),
            new Note(in -> in.opcode().equals("ldmatrix"), "sm_75 or higher", "9.7.14.5.15", atLeast(75)),
            new Note(in -> in.opcode().equals("movmatrix"), "sm_75 or higher", "9.7.14.5.17", atLeast(75)),
            new Note(in -> op(in, "tanh", "ex2") && bf16(in), "sm_90 or higher (.bf16, .bf16x2)", "9.7.4.9-10", atLeast(90)),
            new Note(in -> op(in, "tanh", "ex2") && half(in), "sm_75 or higher", "9.7.4.9-10", atLeast(75)),
            new Note(in -> op(in, "min", "max") && half(in) && in.has(".xorsign"), "sm_86 or higher (.xorsign.abs)", "9.7.4.7-8", atLeast(86)),
            new Note(in -> op(in, "min", "max") && half(in), "sm_80 or higher", "9.7.4.7-8", atLeast(80)),
            new Note(in -> op(in, "fma", "neg", "abs") && bf16(in), "sm_80 or higher (.bf16, .bf16x2)", "9.7.4.4-6", atLeast(80)),
            new Note(in -> in.opcode().equals("fma") && half(in) && in.has(".relu"), "sm_80 or higher (.relu)", "9.7.4.4", atLeast(80)),
            new Note(in -> op(in, "fma", "neg", "abs") && half(in), "sm_53 or higher", "9.7.4.4-6", atLeast(53)),
            new Note(CvtNoteForms::tf32SatfiniteRnRz, "sm_100 or higher (cvt.{rn,rz}.satfinite.tf32.f32)", "9.7.9.21", atLeast(100)),
            new Note(CvtNoteForms::bf16WithIntegerF16OrF64, "sm_90 or higher (cvt between .bf16 and an integer, .f16, .f64 or .bf16)", "9.7.9.21",
                    atLeast(90)),
            new Note(CvtNoteForms::fp8, "sm_89 or higher (.e4m3x2, .e5m2x2)", "9.7.9.21", atLeast(89)),
            new Note(CvtNoteForms::reluOrAmpereDestination, "sm_80 or higher (.relu, destination .f16x2, .bf16, .bf16x2, .tf32)", "9.7.9.21",
                    atLeast(80)),
            new Note(CvtNoteForms::f32FromBf16, "sm_80 or higher (cvt.f32.bf16)", "9.7.9.21", atLeast(80)),
            new Note(in -> is(in, "barrier", ".cluster"), "sm_90 or higher", "9.7.13.3", atLeast(90)),
            new Note(in -> is(in, "red", ".async"), "sm_90 or higher", "9.7.13.7", atLeast(90)),
            new Note(in -> in.opcode().equals("griddepcontrol"), "sm_90 or higher", "9.7.13.13", atLeast(90)),
            new Note(in -> in.opcode().equals("tensormap") && in.modifiers().contains(".cp_fenceproxy"), "sm_90 or higher", "9.7.13.16", atLeast(90)),
            new Note(in -> in.opcode().equals("clusterlaunchcontrol"), "sm_100 or higher", "9.7.13.17-18", atLeast(100)),
            new Note(in -> in.opcode().equals("elect"), "sm_90 or higher", "9.7.13.14", atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".expect_tx") && !in.has(".arrive") && !in.has(".arrive_drop"), "sm_90 or higher",
                    "9.7.13.15.11", atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".complete_tx"), "sm_90 or higher", "9.7.13.15.12", atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".arrive", ".expect_tx"), "sm_90 or higher (qualifier .expect_tx)", "9.7.13.15.13", atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".arrive_drop", ".expect_tx"), "sm_90 or higher (qualifier .expect_tx)", "9.7.13.15.14",
                    atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".try_wait"), "sm_90 or higher", "9.7.13.15.16", atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".test_wait"), "sm_80 or higher", "9.7.13.15.16", atLeast(80)),
            new Note(in -> is(in, "fence", ".mbarrier_init") || is(in, "fence", ".op_restrict"), "sm_90 or higher (qualifier .op_restrict)",
                    "9.7.13.4", atLeast(90)),
            new Note(in -> (is(in, "fence", ".proxy", ".async") || is(in, "membar", ".proxy", ".async")), "sm_90 or higher", "9.7.13.4",
                    atLeast(90)),
            new Note(in -> (in.opcode().equals("fence") || in.opcode().equals("membar")) && in.has(".cluster"),
                    "sm_90 or higher (scope .cluster)", "9.7.13.4", atLeast(90)),
            new Note(in -> threadFence(in) && any(in, ".acquire", ".release"), "sm_90 or higher (qualifiers .acquire, .release)",
                    "9.7.13.4", atLeast(90)),
            new Note(in -> in.opcode().equals("fence") && any(in, ".sync_restrict::shared::cta", ".sync_restrict::shared::cluster"),
                    "sm_90 or higher (qualifier .sync_restrict)", "9.7.13.4", atLeast(90)),
            new Note(in -> is(in, "fence", ".proxy"), "sm_70 or higher", "9.7.13.4", atLeast(70)),
            new Note(in -> in.opcode().equals("fence"), "sm_70 or higher", "9.7.13.4", atLeast(70)),
            new Note(in -> is(in, "membar", ".proxy"), "sm_60 or higher", "9.7.13.4", atLeast(60)),
            new Note(in -> is(in, "membar", ".sys"), "sm_20 or higher", "9.7.13.4", atLeast(20)),
            new Note(in -> is(in, "red", ".async") && any(in, ".mmio", ".release", ".global", ".gpu", ".sys"),
                    "sm_100 or higher (.mmio, .release, .global, .gpu, .sys)", "9.7.13.7", atLeast(100)),
            // atom (9.7.13.5) and red (9.7.13.6) carry the same qualifier notes
            new Note(in -> atomOrRed(in) && (in.has(".cluster") || in.has(".shared::cluster")), "sm_90 or higher (.cluster scope, ::cluster)",
                    "9.7.13.5, 9.7.13.6", atLeast(90)),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && any(in, ".bf16", ".bf16x2"), "sm_90 or higher (add.noftz.bf16{x2})",
                    "9.7.13.5, 9.7.13.6", atLeast(90)),
            new Note(in -> atomOrRed(in) && in.has(".L2::cache_hint"), "sm_80 or higher (.level::cache_hint)", "9.7.13.5, 9.7.13.6", atLeast(80)),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && in.has(".f16"), "sm_70 or higher (add.noftz.f16)",
                    "9.7.13.5, 9.7.13.6", atLeast(70)),
            new Note(in -> is(in, "atom", ".cas", ".b16"), "sm_70 or higher (cas.b16)", "9.7.13.5", atLeast(70)),
            new Note(in -> atomOrRed(in) && any(in, ".relaxed", ".acquire", ".release", ".acq_rel"), "sm_70 or higher (.sem)", "9.7.13.5, 9.7.13.6",
                    atLeast(70)),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && in.has(".f16x2"), "sm_60 or higher (add.noftz.f16x2)",
                    "9.7.13.5, 9.7.13.6", atLeast(60)),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".f64"), "sm_60 or higher (add.f64)", "9.7.13.5, 9.7.13.6", atLeast(60)),
            new Note(in -> atomOrRed(in) && any(in, ".cta", ".gpu", ".sys"), "sm_60 or higher (.scope)", "9.7.13.5, 9.7.13.6", atLeast(60)),
            // the operand-size and state-space notes of atom and red: sm_32 down to sm_11
            new Note(in -> int64(in) && any(in, ".and", ".or", ".xor", ".min", ".max"), "sm_32 or higher (64-bit .and, .or, .xor, .min, .max)",
                    "9.7.13.5, 9.7.13.6", atLeast(32)),
            new Note(in -> int64(in) && sharedSpace(in) && any(in, ".add", ".cas", ".exch"), "sm_20 or higher (64-bit .add, .cas, .exch on .shared)",
                    "9.7.13.5, 9.7.13.6", atLeast(20)),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".f32"), "sm_20 or higher (add.f32)", "9.7.13.5, 9.7.13.6", atLeast(20)),
            new Note(in -> atomOrRed(in) && !in.has(".global") && !sharedSpace(in), "sm_20 or higher (generic addressing)", "9.7.13.5, 9.7.13.6",
                    atLeast(20)),
            new Note(in -> int64(in) && in.has(".global") && any(in, ".add", ".cas", ".exch"), "sm_12 or higher (64-bit .add, .cas, .exch on .global)",
                    "9.7.13.5, 9.7.13.6", atLeast(12)),
            new Note(in -> atomOrRed(in) && sharedSpace(in), "sm_12 or higher (.shared)", "9.7.13.5, 9.7.13.6", atLeast(12)),
            new Note(in -> atomOrRed(in) && in.has(".global"), "sm_11 or higher (.global)", "9.7.13.5, 9.7.13.6", atLeast(11)),
            new Note(in -> mbarrierLike(in) && in.has(".shared::cluster"), "sm_90 or higher (sub-qualifier ::cluster)", "9.7.13.15.13-14",
                    atLeast(90)),
            new Note(in -> in.opcode().equals("mbarrier") && in.has(".cluster"), "sm_90 or higher (scope .cluster)", "9.7.13.15.13-14, .16",
                    atLeast(90)),
            new Note(in -> is(in, "mbarrier", ".init"), "sm_80 or higher", "9.7.13.15.9", atLeast(80)),
            new Note(in -> is(in, "mbarrier", ".inval"), "sm_80 or higher", "9.7.13.15.10", atLeast(80)),
            new Note(in -> is(in, "mbarrier", ".arrive"), "sm_80 or higher", "9.7.13.15.13", atLeast(80)),
            new Note(in -> is(in, "mbarrier", ".arrive_drop"), "sm_80 or higher", "9.7.13.15.14", atLeast(80)),
            new Note(in -> is(in, "cp", ".async", ".mbarrier", ".arrive"), "sm_80 or higher", "9.7.13.15.15", atLeast(80)),
            new Note(in -> is(in, "mbarrier", ".pending_count"), "sm_80 or higher", "9.7.13.15.17", atLeast(80)),
            new Note(in -> in.opcode().equals("redux"), "sm_80 or higher", "9.7.13.12", atLeast(80)),
            new Note(in -> in.opcode().equals("match"), "sm_70 or higher", "9.7.13.10", atLeast(70)),
            new Note(in -> is(in, "vote", ".sync"), "sm_30 or higher", "9.7.13.9", atLeast(30)),
            new Note(in -> in.opcode().equals("activemask"), "sm_30 or higher", "9.7.13.11", atLeast(30)),
            new Note(in -> is(in, "bar", ".warp", ".sync"), "sm_30 or higher", "9.7.13.2", atLeast(30)),
            new Note(in -> in.opcode().equals("barrier") && !in.has(".cluster"), "sm_30 or higher", "9.7.13.1", atLeast(30)),
            new Note(in -> is(in, "bar", ".arrive") || is(in, "bar", ".red"), "sm_20 or higher", "9.7.13.1", atLeast(20)));

    private static boolean satisfied(Note n, List<String> sms) {
        for (String t : sms) {
            Matcher m = SM.matcher(t);
            if (m.matches() && n.satisfiedBy.test(m)) return true;
        }
        return false;
    }

    /** Refuses the instruction when every sm_ target of the module misses what one of its notes requires. */
    static void check(CompileContext c) {
        Instruction in = c.insn();
        List<String> sms = c.targets().stream().filter(t -> SM.matcher(t).matches()).toList();
        if (sms.isEmpty()) return;
        for (Note n : NOTES) {
            if (!n.applies.test(in) || satisfied(n, sms)) continue;
            throw c.error("unsupported instruction " + in.mnemonic() + " on .target " + String.join(", ", sms) + ": it requires " + n.needs
                    + " (PTX ISA " + n.section + ", Target ISA Notes)");
        }
    }
}
