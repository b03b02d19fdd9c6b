package io.barrierscope.sync;

import io.barrierscope.exec.CompileContext;
import io.barrierscope.exec.Op;
import io.barrierscope.exec.Space;
import io.barrierscope.exec.Src;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/** Compiles cp.async (plain, mbarrier.arrive, groups, bulk) and st.async / red.async. */
final class AsyncCompiler {
    private AsyncCompiler() {}

    static Src addr(CompileContext c, int i, int space) {
        if (!(c.operand(i) instanceof Operand.Address)) throw c.error(c.insn().mnemonic() + " needs an address operand [..] at position " + (i + 1));
        return c.address(c.operand(i), space).address();
    }

    static int immediate(CompileContext c, int i) {
        return (int) intImmediate(c, i);
    }

    private static long intImmediate(CompileContext c, int i) {
        if (!(c.operand(i) instanceof Operand.Imm imm) || imm.kind() != Operand.ImmKind.INT) {
            throw c.error(c.insn().mnemonic() + " needs an integer constant at position " + (i + 1));
        }
        return imm.value();
    }

    /**
     * N of a wait_group: a count of groups, so a 32-bit non-negative constant (a negative one would
     * otherwise read as "no wait" and one past 2^32 wrap to a small N). Counts past 2^31 all keep
     * every committed group pending-allowed, as Integer.MAX_VALUE does.
     */
    private static int groupCount(CompileContext c) {
        long v = intImmediate(c, 0);
        if (v < 0 || v > 0xFFFFFFFFL) {
            throw c.error(c.insn().mnemonic() + " waits for N groups, a non-negative 32-bit constant, not " + v);
        }
        return (int) Math.min(v, Integer.MAX_VALUE);
    }

    /**
     * The optional cache-policy operand after the {@code fixed} operands of a bulk or tensor copy,
     * reduction or prefetch: at most one more operand, a 64-bit register or constant, and only with
     * {@code .L2::cache_hint} (PTX ISA 9.7.9.25.4-5: "When the optional argument cache-policy is
     * specified, the qualifier .level::cache_hint is required"). Without this an extra operand was
     * ignored, or read as another (a mask, a size).
     */
    static void cachePolicy(CompileContext c, int fixed) {
        String name = c.insn().mnemonic();
        if (c.operandCount() > fixed + 1) throw c.error(name + " takes " + fixed + " operands and an optional cache policy, not " + c.operandCount());
        if (c.operandCount() <= fixed) return;
        Operand o = c.operand(fixed);
        ScalarType t = c.regType(o);
        boolean policy = t != null ? t.bits() == 64 && !t.isFloat() && !t.isPred()
                : o instanceof Operand.Imm imm && imm.kind() == Operand.ImmKind.INT;
        if (!policy) throw c.error(name + ": operand " + (fixed + 1) + " can only be a cache policy, a 64-bit register");
        if (!c.has(".L2::cache_hint")) {
            throw c.error(name + ": a cache-policy operand needs .L2::cache_hint (\"When the optional argument cache-policy is "
                    + "specified, the qualifier .level::cache_hint is required\")");
        }
    }

    static Op cp(CompileContext c) {
        if (!c.has(".async")) throw c.error("unsupported instruction " + c.insn().mnemonic());
        if (c.has(".reduce")) return BulkReduceCompiler.reduce(c);
        if (c.has(".mbarrier") && c.has(".arrive")) {
            // "cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]" (9.7.13.15.8): no .shared::cluster, type .b64.
            if (c.has(".shared::cluster") || !c.types().equals(List.of(ScalarType.B64))) {
                throw c.error(c.insn().mnemonic() + ": the form is cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 (PTX ISA 9.7.13.15.8)");
            }
            c.expectOperands(1, 1);
            boolean shared = c.has(".shared") || c.has(".shared::cta");
            return new CpAsyncMbarrierArriveOp(addr(c, 0, shared ? Space.SHARED : Space.GENERIC), shared, c.has(".noinc"));
        }
        if (c.has(".bulk")) {
            if (c.has(".commit_group")) return new AsyncGroupOp(true, true, -1);
            if (c.has(".wait_group")) {
                c.expectOperands(1, 1);
                return new AsyncGroupOp(true, false, groupCount(c), c.has(".read"));
            }
            if (c.has(".tensor") && c.has(".prefetch")) return BulkReduceCompiler.prefetch(c);
            if (c.has(".tensor")) return tensor(c);
            if (c.has(".prefetch")) return BulkReduceCompiler.prefetch(c);
            List<String> mods = c.insn().modifiers();
            int dstAt = firstSpace(mods);
            boolean toGlobal = dstAt >= 0 && mods.get(dstAt).equals(".global");
            if (toGlobal) {
                if (!c.has(".bulk_group")) throw c.error(c.insn().mnemonic() + ": a bulk copy to global memory needs .bulk_group");
                if (c.has(".cp_mask")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (\"Support for .cp_mask qualifier "
                        + "requires sm_100 or higher\", PTX ISA 9.7.9.25.4.1)");
                c.expectOperands(3, 4);
                cachePolicy(c, 3);
                return new CpAsyncBulkOp(true, addr(c, 0, Space.GLOBAL), addr(c, 1, Space.SHARED), Space.SHARED,
                        c.src(2, ScalarType.U32), null, null);
            }
            if (c.has(".shared::cta") && !c.has(".global")) {
                // shared::cta of the issuer to shared::cluster (a peer or itself), complete-tx on the
                // destination CTA's mbarrier (PTX ISA 9.7.9.25.4.1); no multicast form exists.
                if (!c.has(".mbarrier::complete_tx::bytes") || c.has(".multicast::cluster")) {
                    throw c.error("unsupported instruction " + c.insn().mnemonic() + " (a bulk copy from shared::cta to "
                            + "shared::cluster completes with .mbarrier::complete_tx::bytes and has no .multicast::cluster)");
                }
                if (c.has(".L2::cache_hint")) throw c.error(c.insn().mnemonic() + ": a bulk copy from shared::cta to shared::cluster takes no .L2::cache_hint");
                c.expectOperands(4, 4);
                return new CpAsyncBulkOp(false, addr(c, 0, Space.SHARED), addr(c, 1, Space.SHARED), Space.SHARED,
                        c.src(2, ScalarType.U32), addr(c, 3, Space.SHARED), null);
            }
            if (!c.has(".global") || !c.has(".mbarrier::complete_tx::bytes")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (bulk copies from global to shared with "
                        + ".mbarrier::complete_tx::bytes, from shared::cta to shared::cluster, and from shared to global with .bulk_group, are modelled)");
            }
            if (c.has(".ignore_oob")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (\"Support for .ignore_oob qualifier introduced in PTX "
                        + "ISA version 9.2\"; the engine implements PTX ISA 9.0)");
            }
            boolean multicast = c.has(".multicast::cluster");
            // "When the destination of the copy is .shared::cta the destination address has to be in the
            // shared memory of the executing CTA": that form has no multicast (9.7.9.25.4.1 syntax).
            boolean ctaDst = mods.get(dstAt).equals(".shared::cta");
            if (ctaDst && multicast) {
                throw c.error(c.insn().mnemonic() + ": a bulk copy to .shared::cta has no .multicast::cluster (PTX ISA 9.7.9.25.4.1); "
                        + "multicast copies write .shared::cluster");
            }
            c.expectOperands(4, 6);
            cachePolicy(c, multicast ? 5 : 4);
            Src mask = multicast ? c.src(4, ScalarType.U16) : null;
            CpAsyncBulkOp op = new CpAsyncBulkOp(false, addr(c, 0, Space.SHARED), addr(c, 1, Space.GLOBAL), Space.GLOBAL,
                    c.src(2, ScalarType.U32), addr(c, 3, Space.SHARED), mask);
            return ctaDst ? op.toOwnCta() : op;
        }
        if (c.has(".commit_group")) return new AsyncGroupOp(false, true, -1);
        if (c.has(".wait_all")) return new AsyncGroupOp(false, true, 0);
        if (c.has(".wait_group")) {
            c.expectOperands(1, 1);
            return new AsyncGroupOp(false, false, groupCount(c));
        }
        if (c.has(".ca") || c.has(".cg")) return CpAsyncForms.compile(c);
        throw c.error("unsupported instruction " + c.insn().mnemonic());
    }

    /** Tensor copy modes and qualifiers the ISA lists only for sm_100a and the sm_100f/sm_110f families (9.7.9.25.5). */
    static final List<String> SM100_MODES = List.of(".im2col::w", ".im2col::w::128", ".tile::gather4", ".tile::scatter4",
            ".cta_group::1", ".cta_group::2");

    /** Why a tensor copy or prefetch naming {@code mod} is refused, or null if it is not an sm_100 mode. */
    static String sm100Refusal(String what, String mod) {
        if (!SM100_MODES.contains(mod)) return null;
        return what + " " + mod + " is not modelled: the ISA lists it for target sm_100a (and the sm_100f, sm_110f families); "
                + ".tile and .im2col are";
    }

    /** cp.async.bulk.tensor, tile or im2col mode, global to shared with complete-tx. */
    private static Op tensor(CompileContext c) {
        boolean im2col = false;
        for (String mod : c.insn().modifiers()) {
            String sm100 = sm100Refusal("tensor copy mode", mod);
            if (sm100 != null) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (" + sm100 + ")");
            if (mod.equals(".im2col")) {
                im2col = true;
            } else if (mod.equals(".im2col_no_offs")) {
                if (!c.has(".global") || firstSpace(c.insn().modifiers()) < 0
                        || !c.insn().modifiers().get(firstSpace(c.insn().modifiers())).equals(".global")) {
                    throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.im2col_no_offs is a mode of tensor copies to global memory)");
                }
            } else if (mod.startsWith(".im2col") || mod.startsWith(".gather4") || mod.startsWith(".scatter4")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic() + " (tensor copy mode " + mod
                        + " is not modelled; .tile and .im2col are)");
            }
        }
        List<String> mods = c.insn().modifiers();
        int dstAt = firstSpace(mods);
        if (dstAt >= 0 && mods.get(dstAt).equals(".global")) {
            if (im2col) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (a tensor store has no .im2col mode; .im2col_no_offs is its im2col form)");
            return tensorStore(c, -1);
        }
        if (dstAt < 0 || !c.has(".mbarrier::complete_tx::bytes")) {
            throw c.error("unsupported instruction " + c.insn().mnemonic()
                    + " (tensor copies from global to shared with .mbarrier::complete_tx::bytes are modelled)");
        }
        int rank = 0;
        for (int d = 1; d <= 5; d++) if (c.has("." + d + "d")) rank = d;
        if (rank == 0) throw c.error(c.insn().mnemonic() + " needs a dimension such as .2d");
        if (im2col && rank < 3) throw c.error(c.insn().mnemonic() + ": im2col mode needs a 3d, 4d or 5d tensor (PTX ISA 5.5.4), not " + rank + "d");
        boolean multicast = c.has(".multicast::cluster");
        int extra = im2col ? 1 : 0;
        c.expectOperands(3 + extra, 5 + extra);
        cachePolicy(c, 3 + extra + (multicast ? 1 : 0));
        if (!(c.operand(1) instanceof Operand.Address a) || !(a.base() instanceof Operand.Vector v) || v.elements().size() != 2
                || !(v.elements().get(1) instanceof Operand.Vector coords)) {
            throw c.error(c.insn().mnemonic() + " needs a tensor operand [tensorMap, {c0, ...}]");
        }
        if (coords.elements().size() != rank) {
            throw c.error(c.insn().mnemonic() + " is " + rank + "-d but names " + coords.elements().size() + " coordinates");
        }
        Src[] cs = new Src[rank];
        for (int i = 0; i < rank; i++) cs[i] = c.src(coords.elements().get(i), ScalarType.S32);
        Src[] offs = null;
        if (im2col) {
            // im2colInfo: one 16-bit offset per spatial dimension (W, H, D): rank - 2 of them (9.7.9.25.5.2).
            if (!(c.operand(3) instanceof Operand.Vector ov)) {
                throw c.error(c.insn().mnemonic() + " needs its im2col offsets {o0, ...} after the mbarrier");
            }
            if (ov.elements().size() != rank - 2) {
                throw c.error(c.insn().mnemonic() + " is " + rank + "-d, so it takes " + (rank - 2) + " im2col offsets (one per"
                        + " spatial dimension), not " + ov.elements().size());
            }
            offs = new Src[rank - 2];
            for (int j = 0; j < rank - 2; j++) offs[j] = c.src(ov.elements().get(j), ScalarType.U16);
        }
        Operand base = v.elements().get(0);
        Src map = base instanceof Operand.Symbol sym ? Src.imm(c.genericAddressOf(sym)) : c.src(base, ScalarType.U64);
        Src mask = multicast ? c.src(3 + extra, ScalarType.U16) : null;
        return new CpAsyncBulkTensorOp(rank, addr(c, 0, Space.SHARED), map, cs, addr(c, 2, Space.SHARED), mask, offs);
    }

    /** The rank of a tensor copy (.1d to .5d). */
    static int rank(CompileContext c) {
        int rank = 0;
        for (int d = 1; d <= 5; d++) if (c.has("." + d + "d")) rank = d;
        if (rank == 0) throw c.error(c.insn().mnemonic() + " needs a dimension such as .2d");
        return rank;
    }

    /** The tensor operand [tensorMap, {c0, ...}] at position {@code i}: the map address, then the coordinates. */
    static Src[] tensorOperand(CompileContext c, int i, int rank) {
        if (!(c.operand(i) instanceof Operand.Address a) || !(a.base() instanceof Operand.Vector v) || v.elements().size() != 2
                || !(v.elements().get(1) instanceof Operand.Vector coords)) {
            throw c.error(c.insn().mnemonic() + " needs a tensor operand [tensorMap, {c0, ...}]");
        }
        if (coords.elements().size() != rank) {
            throw c.error(c.insn().mnemonic() + " is " + rank + "-d but names " + coords.elements().size() + " coordinates");
        }
        Src[] out = new Src[rank + 1];
        Operand base = v.elements().get(0);
        out[0] = base instanceof Operand.Symbol sym ? Src.imm(c.genericAddressOf(sym)) : c.src(base, ScalarType.U64);
        for (int k = 0; k < rank; k++) out[k + 1] = c.src(coords.elements().get(k), ScalarType.S32);
        return out;
    }

    /**
     * cp.async.bulk.tensor / cp.reduce.async.bulk.tensor from shared::cta to global, tile or
     * im2col_no_offs mode (an im2col box with offsets 0, 3 to 5 dimensions), completed by bulk
     * groups (PTX ISA 9.7.9.25.5.2, 9.7.9.25.5.3; bulk async-groups 9.7.9.25.6).
     */
    static Op tensorStore(CompileContext c, int redOp) {
        String name = c.insn().mnemonic();
        if (!c.has(".shared::cta") || !c.has(".bulk_group")) {
            throw c.error(name + ": a tensor copy to global memory reads .shared::cta and completes with .bulk_group");
        }
        int rank = rank(c);
        boolean im2col = c.has(".im2col_no_offs");
        if (im2col && rank < 3) throw c.error(name + ": im2col mode needs a 3d, 4d or 5d tensor (PTX ISA 5.5.4), not " + rank + "d");
        c.expectOperands(2, 3);
        cachePolicy(c, 2);
        Src[] t = tensorOperand(c, 0, rank);
        Src[] coords = java.util.Arrays.copyOfRange(t, 1, t.length);
        return new CpAsyncBulkTensorStoreOp(rank, t[0], coords, addr(c, 1, Space.SHARED), redOp, im2col);
    }

    static int firstSpace(List<String> mods) {
        for (int i = 0; i < mods.size(); i++) {
            String m = mods.get(i);
            if (m.equals(".global") || m.startsWith(".shared")) return i;
        }
        return -1;
    }

    /**
     * st.async / red.async with an mbarrier (9.7.9.12, 9.7.13.7): the .relaxed .shared::cluster
     * form, whose completion mechanism is .mbarrier::complete_tx::bytes whether written or not.
     * red.async takes exactly the operation and type pairs the ISA lists.
     */
    static Op storeAsync(CompileContext c, boolean red) {
        String name = c.insn().mnemonic();
        if (c.has(".release") || c.has(".global") || c.has(".mmio") || c.insn().operands().size() == 2) {
            throw c.error("unsupported instruction " + name + " (the .release .global form needs sm_100; only the .shared::cluster "
                    + "form with an mbarrier is modelled)");
        }
        c.expectOperands(3, 3);
        ScalarType t = c.type();
        int redOp = -1;
        if (red) {
            // "red.async.sem.scope{.ss}...": .sem = { .relaxed }, .scope = { .cluster } are not optional, .ss = { .shared::cluster }.
            if (!c.has(".relaxed") || !c.has(".cluster") || c.has(".cta") || c.has(".gpu") || c.has(".sys") || c.has(".acquire") || c.has(".acq_rel")) {
                throw c.error(name + ": red.async with an mbarrier is written red.async.relaxed.cluster (PTX ISA 9.7.13.7: .sem = { .relaxed }, "
                        + ".scope = { .cluster }, both required)");
            }
            if ((c.has(".shared") || c.has(".shared::cta")) && !c.has(".shared::cluster")) {
                throw c.error(name + ": red.async's state space is .shared::cluster or none (generic addressing) (PTX ISA 9.7.13.7)");
            }
            String[] ops = {".add", ".min", ".max", ".and", ".or", ".xor", ".inc", ".dec"};
            for (int i = 0; i < ops.length; i++) if (c.has(ops[i])) redOp = i;
            if (redOp < 0) throw c.error(name + " needs a reduction such as .add");
            String type = t.name().toLowerCase(java.util.Locale.ROOT);
            boolean listed = switch (redOp) {
                case 0 -> type.equals("u32") || type.equals("s32") || type.equals("u64");
                case 1, 2 -> type.equals("u32") || type.equals("s32");
                case 3, 4, 5 -> type.equals("b32");
                default -> type.equals("u32");
            };
            if (!listed) {
                throw c.error(name + ": red.async " + ops[redOp] + " is not defined for ." + type + " (PTX ISA 9.7.13.7 lists "
                        + ".inc/.dec .u32; .min/.max .u32, .s32; .and/.or/.xor .b32; .add .u32, .s32, .u64)");
            }
            if (t.isSigned() && redOp == 1) redOp = StAsyncOp.MIN_S;
            if (t.isSigned() && redOp == 2) redOp = StAsyncOp.MAX_S;
        } else {
            // "st.async{.sem}{.scope}{.ss}{.completion_mechanism}{.vec}.type": .sem = { .weak }, .scope = { .cluster },
            // .ss = { .shared::cluster }, .type = { .b32, .b64, .u32, .u64, .s32, .s64, .f32, .f64 } (9.7.9.12).
            for (String bad : List.of(".relaxed", ".acquire", ".acq_rel", ".cta", ".gpu", ".sys")) {
                if (c.has(bad)) {
                    throw c.error(name + ": " + bad + " is not a qualifier of st.async with an mbarrier (PTX ISA 9.7.9.12: .sem = { .weak }, "
                            + ".scope = { .cluster })");
                }
            }
            if ((c.has(".shared") || c.has(".shared::cta")) && !c.has(".shared::cluster")) {
                throw c.error(name + ": st.async's state space is .shared::cluster or none (generic addressing) (PTX ISA 9.7.9.12)");
            }
            if (t.bits() != 32 && t.bits() != 64 || t.isPred() || t.isFloat() && t != ScalarType.F32 && t != ScalarType.F64) {
                throw c.error(name + ": st.async stores .b32, .b64, .u32, .u64, .s32, .s64, .f32 or .f64, not ." + t.ptxName()
                        + " (PTX ISA 9.7.9.12)");
            }
        }
        Operand v = c.operand(1);
        // The vector size is checked against the ISA's list and the operand (9.7.9.12: .v2 or .v4,
        // .v4 not of 64-bit types; red.async none): `.v8.b32 [a], {%r1, %r2}, [m]` ran as a .v2.
        int declared = c.has(".v2") ? 2 : c.has(".v4") ? 4 : c.has(".v8") ? 8 : 1;
        if (declared == 8 || (declared > 1 && red) || (declared == 4 && t.bytes() == 8)) {
            throw c.error(name + ": " + (red ? "red.async takes no vector size" : "st.async takes .v2 or .v4 (.v4 not of 64-bit types)")
                    + " (PTX ISA " + (red ? "9.7.13.7" : "9.7.9.12") + ")");
        }
        int given = v instanceof Operand.Vector vec0 ? vec0.elements().size() : 1;
        if (given != declared || (declared == 1 && v instanceof Operand.Vector)) {
            throw c.error(name + ": " + (declared == 1 ? "names no vector size but gives " + given + " values"
                    : "is .v" + declared + " but gives " + (v instanceof Operand.Vector ? given + " values" : "a single value")));
        }
        Src[] values;
        if (v instanceof Operand.Vector vec) {
            values = new Src[vec.elements().size()];
            for (int i = 0; i < values.length; i++) values[i] = c.src(vec.elements().get(i), t);
        } else {
            values = new Src[] {c.src(1, t)};
        }
        boolean shared = c.has(".shared::cluster") || c.has(".shared");
        int space = shared ? Space.SHARED : Space.GENERIC;
        return new StAsyncOp(addr(c, 0, space), values, t.bytes(), addr(c, 2, space), redOp, shared);
    }
}
