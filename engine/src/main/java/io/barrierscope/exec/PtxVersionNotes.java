package io.barrierscope.exec;

import static io.barrierscope.exec.InstructionForms.*;

import io.barrierscope.ptx.Instruction;
import java.util.List;
import java.util.function.Predicate;

/**
 * The "PTX ISA Notes" of the instructions the engine runs: an instruction, or a qualifier of it,
 * introduced in a later PTX ISA version than the module's {@code .version} is refused at load, by
 * name, with the version and the note's section (ptxas refuses such modules too). Only notes
 * checked against the ISA text are listed (docs/semantics.md section 15); a module without a
 * {@code .version} is not checked.
 */
final class PtxVersionNotes {
    private PtxVersionNotes() {}

    /** A note: which instructions, what was introduced (empty: the instruction itself), when (major*10+minor), and the section. */
    private record Note(Predicate<Instruction> applies, String what, int since, String section) {}

    private static boolean arriveOrDrop(Instruction in) { return is(in, "mbarrier", ".arrive") || is(in, "mbarrier", ".arrive_drop"); }

    private static boolean waits(Instruction in) { return is(in, "mbarrier", ".test_wait") || is(in, "mbarrier", ".try_wait"); }

    /** cp.async.bulk{.tensor} to .shared::cta: the destination state space comes before the .global source. */
    private static boolean bulkToSharedCta(Instruction in) {
        int cta = in.modifiers().indexOf(".shared::cta");
        int global = in.modifiers().indexOf(".global");
        return bulk(in) && !in.has(".reduce") && !in.has(".prefetch") && cta >= 0 && global > cta;
    }

    private static final String CP = "9.7.9.25";

    private static final String AR = "9.7.13.5, 9.7.13.6";
    private static final String MB = "9.7.13.15.13-14, .16";

    private static final List<Note> NOTES = List.of(
            new Note(in -> is(in, "wgmma", ".mma_async") && in.has(".sp"), "", 80, "9.7.15.6.3"),
            new Note(in -> is(in, "wgmma", ".mma_async"), "", 80, "9.7.15.5.2"),
            new Note(in -> is(in, "wgmma", ".fence"), "", 80, "9.7.15.7.1"),
            new Note(in -> is(in, "wgmma", ".commit_group"), "", 80, "9.7.15.7.2"),
            new Note(in -> is(in, "wgmma", ".wait_group"), "", 80, "9.7.15.7.3"),
            new Note(in -> in.opcode().equals("setmaxnreg"), "", 80, "9.7.19.5"),
            // 9.7.9: data movement (cp.async and the bulk copies in 9.7.9.25)
            new Note(in -> bulkToSharedCta(in), ".shared::cta as destination", 86, CP + " (cp.async.bulk{.tensor})"),
            new Note(in -> bulk(in), "", 80, CP + " (cp{.reduce}.async.bulk{.prefetch}{.tensor}, bulk commit/wait_group)"),
            new Note(in -> nonBulkCpAsync(in) && in.has(".shared::cta"), "sub-qualifier ::cta", 78, CP + " (cp.async)"),
            new Note(in -> nonBulkCpAsync(in) && any(in, ".L2::cache_hint", ".L2::64B", ".L2::128B", ".L2::256B"),
                    "qualifiers .level::cache_hint, .level::prefetch_size", 74, CP + " (cp.async)"),
            new Note(in -> nonBulkCpAsync(in), "", 70, CP + " (cp.async, cp.async.commit_group, cp.async.wait_group)"),
            new Note(in -> is(in, "atom", ".b128") && in.has(".sys"), ".sys scope with .b128", 84, "9.7.13.5"),
            new Note(in -> is(in, "atom", ".b128"), ".b128", 83, "9.7.13.5"),
            new Note(in -> in.opcode().equals("nanosleep"), "", 63, "9.7.19.2"),
            // 9.7.14.5.14: mma, one note per shape and type family
            new Note(MmaNoteForms::fp8F16Accumulator, ".f16 dtype/ctype with .e4m3, .e5m2", 87, "9.7.14.5.14"),
            new Note(MmaNoteForms::fp8, ".e4m3, .e5m2", 84, "9.7.14.5.14"),
            new Note(MmaNoteForms::f64M8n8k4, ".m8n8k4 .f64", 70, "9.7.14.5.14"),
            new Note(in -> MmaNoteForms.f16(in, ".m16n8k16"), ".m16n8k16 .f16", 70, "9.7.14.5.14"),
            new Note(MmaNoteForms::bf16, ".bf16", 70, "9.7.14.5.14"),
            new Note(MmaNoteForms::tf32, ".tf32", 70, "9.7.14.5.14"),
            new Note(MmaNoteForms::int8Sm80, ".u8/.s8 .m16n8k16, .m16n8k32", 70, "9.7.14.5.14"),
            new Note(in -> MmaNoteForms.f16(in, ".m16n8k8"), ".m16n8k8 .f16", 65, "9.7.14.5.14"),
            new Note(MmaNoteForms::mma, "", 64, "9.7.14.5.14"),
            // 9.7.3: f32/f64 arithmetic; 9.7.4.1-3: half-precision add, sub, mul
            new Note(in -> FloatNoteForms.f32(in, "min", "max") && in.has(".xorsign"), ".xorsign.abs", 72, "9.7.3.11-12"),
            new Note(in -> FloatNoteForms.f32(in, "min", "max") && in.has(".NaN"), ".NaN", 70, "9.7.3.11-12"),
            new Note(in -> FloatNoteForms.f32(in, "tanh"), "", 70, "9.7.3.22"),
            new Note(in -> is(in, "rcp", ".approx", ".ftz", ".f64"), "", 21, "9.7.3.14"),
            new Note(in -> FloatNoteForms.f32(in, "fma"), "fma.f32", 20, "9.7.3.6"),
            new Note(in -> op(in, "testp", "copysign"), "", 20, "9.7.3.1-2"),
            new Note(in -> is(in, "rsqrt", ".approx", ".ftz", ".f64"), "", 40, "9.7.3.17"),
            // 9.7.3.13, .15: "General rounding modifiers were added in PTX ISA version 2.0" (.rn.f64 came in 1.4)
            new Note(in -> rcpSqrt(in) && (FloatNoteForms.directed(in) || (in.has(".rn") && in.has(".f32"))), "general rounding modifiers", 20,
                    "9.7.3.13, 9.7.3.15"),
            new Note(in -> rcpSqrt(in) && any(in, ".rn", ".approx", ".ftz"), ".rn.f64 and explicit modifiers .approx, .ftz", 14,
                    "9.7.3.13, 9.7.3.15"),
            new Note(in -> (FloatNoteForms.f32(in, "div") || FloatNoteForms.f64(in, "div")) && (FloatNoteForms.rnd(in) || any(in, ".approx", ".full", ".ftz")),
                    "explicit modifiers .approx, .full, .ftz and rounding", 14, "9.7.3.8"),
            new Note(in -> FloatNoteForms.f64(in, "fma"), "fma.f64", 14, "9.7.3.6"),
            new Note(in -> op(in, "add", "sub", "mul") && bf16(in), ".bf16, .bf16x2", 78, "9.7.4.1-3"),
            new Note(in -> op(in, "add", "sub", "mul") && half(in), "", 42, "9.7.4.1-3"),
            new Note(in -> in.opcode().equals("createpolicy"), "", 74, "9.7.9.18"),
            new Note(in -> is(in, "ld", ".mmio") || is(in, "st", ".mmio"), ".mmio", 82, "9.7.9.8, 9.7.9.11"),
            new Note(in -> in.opcode().equals("mapa"), "", 78, "9.7.9.23"),
            new Note(in -> in.opcode().equals("getctarank"), "", 78, "9.7.9.24"),
            new Note(in -> is(in, "shfl", ".sync"), "", 60, "9.7.9.6"),
            // 9.7.9.21: cvt
            new Note(CvtNoteForms::tf32SatfiniteRnRz, "cvt.{rn,rz}.satfinite.tf32.f32", 86, "9.7.9.21"),
            new Note(CvtNoteForms::halfSatfiniteFromF32, "cvt.satfinite.{f16,bf16,f16x2,bf16x2}.f32", 81, "9.7.9.21"),
            new Note(CvtNoteForms::bf16WithIntegerF16OrF64, "cvt between .bf16 and an integer, .f16, .f64 or .bf16", 78, "9.7.9.21"),
            new Note(CvtNoteForms::f32FromBf16Ftz, ".ftz on cvt.f32.bf16", 78, "9.7.9.21"),
            new Note(CvtNoteForms::fp8, ".e4m3x2, .e5m2x2", 78, "9.7.9.21"),
            new Note(CvtNoteForms::f32FromBf16, "cvt.f32.bf16", 71, "9.7.9.21"),
            new Note(CvtNoteForms::reluOrAmpereDestination, ".relu, destination .f16x2, .bf16, .bf16x2, .tf32", 70, "9.7.9.21"),
            // 9.7.14.5.15-17: ldmatrix, stmatrix, movmatrix
            new Note(in -> in.opcode().equals("ldmatrix") && in.has(".shared::cta"), "sub-qualifier ::cta", 78, "9.7.14.5.15"),
            new Note(in -> in.opcode().equals("ldmatrix"), "", 65, "9.7.14.5.15"),
            new Note(in -> in.opcode().equals("stmatrix"), "", 78, "9.7.14.5.16"),
            new Note(in -> in.opcode().equals("movmatrix"), "", 78, "9.7.14.5.17"),
            // 9.7.4: half precision
            new Note(in -> op(in, "tanh", "ex2") && bf16(in), ".bf16, .bf16x2", 78, "9.7.4.9-10"),
            new Note(in -> op(in, "tanh", "ex2") && half(in), "", 70, "9.7.4.9-10"),
            new Note(in -> op(in, "min", "max") && half(in) && in.has(".xorsign"), ".xorsign.abs", 72, "9.7.4.7-8"),
            new Note(in -> op(in, "min", "max") && half(in), "", 70, "9.7.4.7-8"),
            new Note(in -> op(in, "fma", "neg", "abs") && bf16(in), ".bf16, .bf16x2", 70, "9.7.4.4-6"),
            new Note(in -> in.opcode().equals("fma") && half(in) && in.has(".relu"), "fma.relu", 70, "9.7.4.4"),
            new Note(in -> in.opcode().equals("abs") && half(in), "", 65, "9.7.4.6"),
            new Note(in -> in.opcode().equals("neg") && half(in), "", 60, "9.7.4.5"),
            new Note(in -> in.opcode().equals("fma") && half(in), "", 42, "9.7.4.4"),
            // 9.7.13.1: bar, barrier
            new Note(in -> (in.opcode().equals("bar") || in.opcode().equals("barrier")) && in.has(".cta"), "qualifier .cta", 78, "9.7.13.1"),
            new Note(in -> in.opcode().equals("barrier") && !in.has(".cluster"), "", 60, "9.7.13.1"),
            new Note(in -> is(in, "bar", ".arrive") || is(in, "bar", ".red"), "", 20, "9.7.13.1"),
            new Note(in -> is(in, "bar", ".warp", ".sync"), "", 60, "9.7.13.2"),
            new Note(in -> is(in, "barrier", ".cluster") && any(in, ".acquire", ".relaxed", ".release"), "qualifiers .acquire, .relaxed, .release",
                    80, "9.7.13.3"),
            new Note(in -> is(in, "barrier", ".cluster"), "", 78, "9.7.13.3"),
            // 9.7.13.4: membar, fence
            new Note(in -> is(in, "fence", ".proxy", ".async") || is(in, "membar", ".proxy", ".async"), "fence.proxy.async", 80, "9.7.13.4"),
            new Note(in -> is(in, "fence", ".mbarrier_init") || is(in, "fence", ".op_restrict"), "qualifier .op_restrict", 80, "9.7.13.4"),
            new Note(in -> is(in, "fence", ".proxy", ".tensormap::generic"), "qualifier .to_proxykind::from_proxykind", 83, "9.7.13.4"),
            new Note(in -> in.opcode().equals("fence") && any(in, ".sync_restrict::shared::cta", ".sync_restrict::shared::cluster"),
                    "qualifier .sync_restrict", 86, "9.7.13.4"),
            new Note(in -> threadFence(in) && any(in, ".acquire", ".release"), "qualifiers .acquire, .release",
                    86, "9.7.13.4"),
            new Note(in -> (in.opcode().equals("fence") || in.opcode().equals("membar")) && in.has(".cluster"), "scope .cluster", 78, "9.7.13.4"),
            new Note(in -> is(in, "fence", ".proxy") || is(in, "membar", ".proxy"), "", 75, "9.7.13.4"),
            new Note(in -> in.opcode().equals("fence"), "", 60, "9.7.13.4"),
            new Note(in -> is(in, "membar", ".sys"), "", 20, "9.7.13.4"),
            // 9.7.13.5 atom, 9.7.13.6 red: the same qualifier notes
            new Note(in -> atomOrRed(in) && any(in, ".shared::cta", ".shared::cluster"), "sub-qualifiers ::cta, ::cluster", 78, AR),
            new Note(in -> atomOrRed(in) && in.has(".cluster"), "scope .cluster", 78, AR),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && any(in, ".bf16", ".bf16x2"), "add.noftz.bf16{x2}", 78, AR),
            new Note(in -> atomOrRed(in) && in.has(".L2::cache_hint"), "qualifier .level::cache_hint", 74, AR),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && in.has(".f16"), "add.noftz.f16", 63, AR),
            new Note(in -> is(in, "atom", ".cas", ".b16"), "atom.cas.b16", 63, "9.7.13.5"),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".noftz") && in.has(".f16x2"), "add.noftz.f16x2", 62, AR),
            new Note(in -> atomOrRed(in) && any(in, ".relaxed", ".acquire", ".release", ".acq_rel"), "qualifier .sem", 60, AR),
            new Note(in -> atomOrRed(in) && any(in, ".cta", ".gpu", ".sys"), "qualifier .scope", 50, AR),
            new Note(in -> atomOrRed(in) && in.has(".add") && in.has(".f64"), "add.f64", 50, AR),
            new Note(in -> is(in, "red", ".async"), "", 81, "9.7.13.7"),
            // 9.7.11.3 sured: the 64-bit types came to .min/.max later than the instruction (.add.u64 is not in the note)
            new Note(in -> op(in, "sured") && any(in, ".min", ".max") && any(in, ".u64", ".s64", ".b64"),
                    ".u64/.s64/.b64 types with .min/.max", 81, "9.7.11.3"),
            new Note(in -> is(in, "vote", ".sync"), "", 60, "9.7.13.9"),
            new Note(in -> in.opcode().equals("match"), "", 60, "9.7.13.10"),
            new Note(in -> in.opcode().equals("activemask"), "", 62, "9.7.13.11"),
            new Note(in -> in.opcode().equals("redux"), "", 70, "9.7.13.12"),
            new Note(in -> in.opcode().equals("griddepcontrol"), "", 78, "9.7.13.13"),
            new Note(in -> in.opcode().equals("tensormap") && in.modifiers().contains(".cp_fenceproxy"), "", 83, "9.7.13.16"),
            new Note(in -> in.opcode().equals("elect"), "", 80, "9.7.13.14"),
            // 9.7.13.15: mbarrier
            new Note(in -> (arriveOrDrop(in) || waits(in)) && in.has(".relaxed"), "qualifier .relaxed", 86, MB),
            new Note(in -> (arriveOrDrop(in) || waits(in)) && any(in, ".cta", ".cluster", ".acquire", ".release"), "qualifiers .scope, .sem", 80, MB),
            new Note(in -> arriveOrDrop(in) && in.has(".shared::cluster"), "sub-qualifier ::cluster", 80, "9.7.13.15.13-14"),
            new Note(in -> arriveOrDrop(in) && in.has(".expect_tx"), "qualifier .expect_tx", 80, "9.7.13.15.13-14"),
            new Note(in -> is(in, "mbarrier", ".expect_tx") && !arriveOrDrop(in), "", 80, "9.7.13.15.11"),
            new Note(in -> is(in, "mbarrier", ".complete_tx"), "", 80, "9.7.13.15.12"),
            new Note(in -> is(in, "mbarrier", ".try_wait"), "", 78, "9.7.13.15.16"),
            new Note(in -> (in.opcode().equals("mbarrier") || is(in, "cp", ".async", ".mbarrier")) && in.has(".shared::cta"),
                    "sub-qualifier ::cta on .shared", 78, "9.7.13.15.9-17"),
            new Note(in -> waits(in) && in.has(".parity"), "modifier .parity", 71, "9.7.13.15.16"),
            new Note(in -> is(in, "mbarrier", ".test_wait"), "", 70, "9.7.13.15.16"),
            new Note(in -> is(in, "mbarrier", ".init"), "", 70, "9.7.13.15.9"),
            new Note(in -> is(in, "mbarrier", ".inval"), "", 70, "9.7.13.15.10"),
            new Note(in -> is(in, "mbarrier", ".arrive"), "", 70, "9.7.13.15.13"),
            new Note(in -> is(in, "mbarrier", ".arrive_drop"), "", 70, "9.7.13.15.14"),
            new Note(in -> is(in, "cp", ".async", ".mbarrier", ".arrive"), "", 70, "9.7.13.15.15"),
            new Note(in -> is(in, "mbarrier", ".pending_count"), "", 70, "9.7.13.15.17"));

    /** rcp or sqrt on .f32 or .f64. */
    private static boolean rcpSqrt(Instruction in) { return FloatNoteForms.f32(in, "rcp", "sqrt") || FloatNoteForms.f64(in, "rcp", "sqrt"); }

    /** The version as major*10+minor ("7.8" -> 78), or -1 when it is not of that form. */
    static int parse(String version) {
        int dot = version.indexOf('.');
        if (dot <= 0 || dot != version.length() - 2) return -1;
        try {
            return Integer.parseInt(version.substring(0, dot)) * 10 + Integer.parseInt(version.substring(dot + 1));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Refuses the instruction when a note says it, or a qualifier it uses, came after the module's version. */
    static void check(CompileContext c) {
        int v = parse(c.ptxVersion());
        if (v < 0) return;
        Instruction in = c.insn();
        for (Note n : NOTES) {
            if (!n.applies.test(in) || v >= n.since) continue;
            throw c.error("unsupported instruction " + in.mnemonic() + " in .version " + c.ptxVersion() + ": " + (n.what.isEmpty() ? "" : n.what + " ")
                    + "introduced in PTX ISA " + n.since / 10 + "." + n.since % 10 + " (" + n.section + ", PTX ISA Notes)");
        }
    }
}
