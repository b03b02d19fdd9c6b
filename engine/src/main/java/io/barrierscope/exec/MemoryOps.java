package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/** ld, ldu, st, atom and red (PTX ISA 9.7.9, 9.7.13.5-6). Ordering qualifiers are kept for the race detector. */
final class MemoryOps {
    private MemoryOps() {}

    static Op compile(CompileContext c, String opc) {
        if (opc.equals("ld") || opc.equals("st")) LdStForms.check(c, opc.equals("ld"));
        for (String mod : c.insn().modifiers()) {
            // ld/st.mmio.relaxed.sys (checked above) run as relaxed .sys accesses: the engine has no I/O memory.
            if (mod.equals(".v8") && !opc.equals("atom") && !opc.equals("red") || mod.startsWith(".tile")
                    || mod.equals(".mmio") && !opc.equals("ld") && !opc.equals("st")) {
                throw c.error("unsupported instruction " + c.insn().mnemonic());
            }
        }
        // Strong accesses tell the race detector their order, which only the general form does.
        boolean plain = semantics(c, false) == 0;
        // ld/st.relaxed, .acquire and .release take a scope: the ISA gives them no default (atom and red do).
        if (!opc.equals("atom") && !opc.equals("red") && (c.has(".relaxed") || c.has(".acquire") || c.has(".release"))
                && !hasScope(c)) {
            throw c.error(c.insn().mnemonic() + " needs a scope (.cta, .cluster, .gpu or .sys): the ISA gives "
                    + opc + ".relaxed/.acquire/.release no default scope");
        }
        // ldu's only state space is .global (PTX ISA 9.7.9.10: ".ss = { .global }"), else generic addressing.
        int sp = c.spaceOf();
        if (opc.equals("ldu") && sp != Space.GLOBAL && sp != Space.GENERIC) {
            throw c.error(c.insn().mnemonic() + ": ldu loads from .global (or a generic address) only (PTX ISA 9.7.9.10)");
        }
        boolean b128 = c.has(".b128");
        if (opc.equals("atom") || opc.equals("red")) AtomForms.check(c, opc, atomOp(c), c.has(".v2") || c.has(".v4") || c.has(".v8"));
        Op op = switch (opc) {
            case "ld", "ldu" -> b128 ? B128Ops.load(c) : load(c, plain);
            case "st" -> b128 ? B128Ops.store(c) : store(c, plain);
            case "atom" -> b128 ? B128Ops.atom(c) : atom(c, true);
            case "red" -> {
                // red has no .b128 type (9.7.13.6's syntax; ptxas: "Unexpected instruction types"): atom.exch.b128 with _ is its form.
                if (b128) throw c.error(c.insn().mnemonic() + ": red has no .b128 type (PTX ISA 9.7.13.6); use atom.exch.b128 or atom.cas.b128");
                yield atom(c, false);
            }
            default -> throw c.error("unsupported instruction " + c.insn().mnemonic());
        };
        int sem = semantics(c, opc.equals("atom") || opc.equals("red"));
        if (sem != 0 && op instanceof CheckedOp co) co.strong(sem, opc.equals("atom") || opc.equals("red"), scope(c));
        return op;
    }

    /**
     * The scope of a strong access or fence (MemoryModelHook.SCOPE_*): .cta, .cluster, or .gpu /
     * .sys (one set of threads for one launch). Absent, it is .gpu: the default of atom and red
     * (PTX ISA 9.7.13.5-6); ld/st.relaxed/acquire/release require one, and .volatile means .sys.
     * membar's levels .cta, .gl, .sys are the fence scopes .cta, .gpu, .sys (9.7.13.4).
     */
    static int scope(CompileContext c) {
        if (c.has(".cta")) return MemoryModelHook.SCOPE_CTA;
        if (c.has(".cluster")) return MemoryModelHook.SCOPE_CLUSTER;
        return MemoryModelHook.SCOPE_GPU;
    }

    /** Whether the instruction names a scope (.cta, .cluster, .gpu or .sys). */
    static boolean hasScope(CompileContext c) {
        return c.has(".cta") || c.has(".cluster") || c.has(".gpu") || c.has(".sys");
    }

    /**
     * The memory-order class for the race detector: 0 weak (plain), 1 relaxed or volatile (strong,
     * no ordering), 2 acquire, 3 release, 4 acq_rel. Atomics are relaxed by default.
     */
    private static int semantics(CompileContext c, boolean atomic) {
        if (c.has(".acq_rel")) return 4;
        if (c.has(".release")) return 3;
        if (c.has(".acquire")) return 2;
        if (c.has(".relaxed") || c.has(".volatile") || atomic) return 1;
        return 0;
    }

    /**
     * A lane op whose work may fault (memory access, integer division): the fault is reported for
     * the thread that caused it, not for the first lane of the group, and the run stops there.
     */
    static final class CheckedOp extends Op {
        private final FnOp.LaneFn fn;
        /** The ordering class of a strong access (see {@link #semantics}); 0 for a plain one. */
        private int sem;
        private boolean rmw;
        private int scope;

        CheckedOp(FnOp.LaneFn fn) { this.fn = fn; }

        void strong(int sem, boolean rmw, int scope) {
            this.sem = sem;
            this.rmw = rmw;
            this.scope = scope;
        }

        @Override
        public void execute(Interpreter x, int warp, int group, int active) {
            Machine m = x.machine();
            int base = warp << 5;
            for (int a = active; a != 0; a &= a - 1) {
                int s = base + Integer.numberOfTrailingZeros(a);
                try {
                    if (sem != 0 && m.race != null) {
                        m.race.beginStrong(sem, rmw, scope);
                        try {
                            fn.run(m, s);
                        } finally {
                            m.race.endStrong();
                        }
                    } else {
                        fn.run(m, s);
                    }
                } catch (MemoryFault f) {
                    reportLaneFault(x, s, f);
                    return;
                } catch (ArithmeticException e) {
                    x.report(DiagnosticCode.DIVIDE_BY_ZERO, m.threadName(s) + ": integer division by zero in " + insn.mnemonic()
                            + " at " + x.where(pc), new int[] {pc}, new int[] {s}, null);
                    return;
                }
            }
            advance(m, warp, group);
        }
    }

    private static int vectorWidth(CompileContext c) {
        if (c.has(".v2")) return 2;
        if (c.has(".v4")) return 4;
        return 1;
    }

    private static ScalarType memType(CompileContext c) {
        ScalarType t = c.type();
        if (t == ScalarType.B128) {
            // ld/st/atom .b128 go to B128Ops before reaching here; no other access moves a .b128.
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.b128)");
        }
        if (t == ScalarType.PRED) throw c.error("unsupported instruction " + c.insn().mnemonic());
        return t;
    }

    private static Op load(CompileContext c, boolean plain) {
        c.expectOperands(2, 3);
        ScalarType t = memType(c);
        int n = vectorWidth(c);
        int size = t.bytes();
        int space = c.spaceOf();
        CompileContext.Addr addr = c.address(c.operand(1), space);
        int sp = addr.space();
        Src a = LdStForms.address(c, addr, true);
        Operand d0 = c.operand(0);
        List<Operand> dsts = n == 1 ? List.of(d0) : vector(c, d0, n);
        int[] d = new int[n];
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            d[i] = c.dst(dsts.get(i));
            ScalarType rt = c.regType(dsts.get(i));
            width[i] = Math.max(t.bits(), rt == null ? 0 : rt.bits());
        }
        if (n == 1) {
            int d1 = d[0];
            int w1 = width[0];
            if (sp == Space.SHARED && size == 4) {
                Op fast = plain ? SharedWordOp.load(c, t, w1) : null;
                if (fast != null) return fast;
                return new CheckedOp((m, th) -> {
                    long v = Values.norm(m.memory.loadShared32(a.get(m, th), th), t);
                    if (d1 >= 0) m.setReg(th, d1, Values.trunc(v, w1));
                });
            }
            if (sp == Space.GLOBAL && plain) {
                return new CheckedOp((m, th) -> {
                    long v = Values.norm(m.memory.loadGlobal(a.get(m, th), size, th), t);
                    if (d1 >= 0) m.setReg(th, d1, Values.trunc(v, w1));
                });
            }
            return new CheckedOp((m, th) -> {
                long v = Values.norm(m.memory.load(sp, a.get(m, th), size, th), t);
                if (d1 >= 0) m.setReg(th, d1, Values.trunc(v, w1));
            });
        }
        return new CheckedOp((m, th) -> {
            long base = a.get(m, th);
            m.memory.checkVectorAlignment(sp, base, size * n, th);
            for (int i = 0; i < n; i++) {
                long v = Values.norm(m.memory.load(sp, base + (long) i * size, size, th), t);
                if (d[i] >= 0) m.setReg(th, d[i], Values.trunc(v, width[i]));
            }
        });
    }

    /**
     * The address of an access in {@code .shared} or {@code .shared::cta}, checked to be in the
     * executing CTA's window ({@link Memory#inCtaWindow}); other spaces' addresses as they are.
     */
    static Src ctaWindow(CompileContext c, CompileContext.Addr addr) {
        Src a = addr.address();
        if (addr.space() != Space.SHARED || c.has(".shared::cluster")) return a;
        return (m, t) -> m.memory.inCtaWindow(a.get(m, t), t);
    }

    private static List<Operand> vector(CompileContext c, Operand o, int n) {
        if (!(o instanceof Operand.Vector v) || v.elements().size() != n) {
            throw c.error(c.insn().mnemonic() + " needs a vector operand of " + n + " elements");
        }
        return v.elements();
    }

    private static Op store(CompileContext c, boolean plain) {
        c.expectOperands(2, 3);
        ScalarType t = memType(c);
        int n = vectorWidth(c);
        int size = t.bytes();
        CompileContext.Addr addr = c.address(c.operand(0), c.spaceOf());
        int sp = addr.space();
        Src a = LdStForms.address(c, addr, false);
        Operand s0 = c.operand(1);
        List<Operand> srcs = n == 1 ? List.of(s0) : vector(c, s0, n);
        Src[] v = new Src[n];
        for (int i = 0; i < n; i++) {
            v[i] = srcs.get(i) instanceof Operand.Sink ? null : c.src(srcs.get(i), t);
        }
        if (n == 1) {
            Src v1 = v[0];
            if (sp == Space.SHARED && size == 4) {
                Op fast = plain ? SharedWordOp.store(c) : null;
                if (fast != null) return fast;
                return new CheckedOp((m, th) -> m.memory.storeShared32(a.get(m, th), v1.get(m, th), th));
            }
            if (sp == Space.GLOBAL && plain) {
                Op fast = GlobalStoreOp.of(c, t);
                if (fast != null) return fast;
                return new CheckedOp((m, th) -> m.memory.storeGlobal(a.get(m, th), size, v1.get(m, th), th));
            }
            return new CheckedOp((m, th) -> m.memory.store(sp, a.get(m, th), size, v1.get(m, th), th));
        }
        return new CheckedOp((m, th) -> {
            long base = a.get(m, th);
            m.memory.checkVectorAlignment(sp, base, size * n, th);
            for (int i = 0; i < n; i++) {
                if (v[i] != null) m.memory.store(sp, base + (long) i * size, size, v[i].get(m, th), th);
            }
        });
    }

    private static String atomOp(CompileContext c) {
        for (String mod : c.insn().modifiers()) {
            switch (mod) {
                case ".add", ".min", ".max", ".inc", ".dec", ".and", ".or", ".xor", ".exch", ".cas":
                    return mod.substring(1);
                default:
            }
        }
        throw c.error(c.insn().mnemonic() + " needs an operation such as .add");
    }

    private static Op atom(CompileContext c, boolean returns) {
        String op = atomOp(c);
        ScalarType t = memType(c);
        if (c.has(".v2") || c.has(".v4") || c.has(".v8")) return AtomVectorOps.compile(c, returns);
        if (HalfOps.isHalf(t)) return atomHalf(c, returns, op, t);
        if (c.has(".noftz")) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (.noftz goes with .add on .f16, .f16x2, .bf16 and .bf16x2)");
        if (t.isFloat() && !(op.equals("add") || op.equals("exch") || op.equals("cas"))
                || (t.isFloat() && t != ScalarType.F32 && t != ScalarType.F64)) {
            throw c.error("unsupported instruction " + c.insn().mnemonic());
        }
        int first = returns ? 1 : 0;
        boolean cas = op.equals("cas");
        // cas takes no cache policy (9.7.13.5's syntax; ptxas rejects one, and .L2::cache_hint, on cas).
        if (cas && c.has(".L2::cache_hint")) throw c.error(c.insn().mnemonic() + ": .cas takes no .L2::cache_hint");
        c.expectOperands(first + (cas ? 3 : 2), first + 3);
        if (!cas) cachePolicy(c, first + 2);
        int d = returns ? c.dst(0) : -1;
        CompileContext.Addr addr = c.address(c.operand(first), c.spaceOf());
        int sp = addr.space();
        Src a = AtomForms.address(c, addr, returns ? "atom" : "red");
        Src b = c.src(first + 1, t);
        Src cc = cas ? c.src(first + 2, t) : null;
        int size = t.bytes();
        int bits = t.bits();
        boolean signed = t.isSigned();
        boolean f32 = t == ScalarType.F32;
        return new CheckedOp((m, th) -> {
            long ad = a.get(m, th);
            long old = m.memory.load(sp, ad, size, th);
            long bv = Values.norm(b.get(m, th), t);
            long ov = Values.norm(old, t);
            long nv = switch (op) {
                case "add" -> t.isFloat()
                        ? (f32 ? addF32(old, bv, isGlobal(sp, ad)) : Values.arithBits(Values.f64(old) + Values.f64(bv)))
                        : ov + bv;
                case "min" -> signed ? Math.min(ov, bv) : (Long.compareUnsigned(ov, bv) <= 0 ? ov : bv);
                case "max" -> signed ? Math.max(ov, bv) : (Long.compareUnsigned(ov, bv) >= 0 ? ov : bv);
                case "inc" -> Long.compareUnsigned(ov, bv) >= 0 ? 0 : ov + 1;
                case "dec" -> (ov == 0 || Long.compareUnsigned(ov, bv) > 0) ? bv : ov - 1;
                case "and" -> ov & bv;
                case "or" -> ov | bv;
                case "xor" -> ov ^ bv;
                case "exch" -> bv;
                default -> Values.trunc(ov, bits) == Values.trunc(bv, bits) ? cc.get(m, th) : ov;
            };
            m.memory.store(sp, ad, size, Values.trunc(nv, bits), th);
            if (d >= 0) m.setReg(th, d, Values.trunc(old, bits));
        });
    }

    /**
     * {@code atom/red.add.f32}: rounded to nearest even; on global memory subnormal inputs and the
     * result are flushed to sign-preserving zero, on shared memory they are kept (PTX ISA 9.7.13.5,
     * 9.7.13.6: "atom.add.f32 on global memory flushes subnormal inputs and results ...").
     */
    static long addF32(long a, long b, boolean global) {
        if (!global) return Values.arithBits(Values.f32(a) + Values.f32(b));
        return FloatOps.writeF32(FloatOps.read(a, true, true) + FloatOps.read(b, true, true), true, false, true);
    }

    /** Whether the access is to global memory: a generic address resolved as {@link Memory} resolves it. */
    private static boolean isGlobal(int space, long addr) {
        return (space == Space.GENERIC ? Space.ofGeneric(addr) : space) == Space.GLOBAL;
    }

    /** A cache-policy operand (at {@code index}) requires .L2::cache_hint (PTX ISA 9.7.13.5, 9.7.13.6); it is only a hint. */
    private static void cachePolicy(CompileContext c, int index) {
        if (c.operandCount() > index && !c.has(".L2::cache_hint")) {
            throw c.error(c.insn().mnemonic() + ": a cache-policy operand needs .L2::cache_hint");
        }
    }

    /**
     * {@code atom/red.add.noftz.{f16,f16x2,bf16,bf16x2}} (PTX ISA 9.7.13.5, 9.7.13.6): the sum (of
     * each half for the pairs) rounded to nearest even, subnormals kept; atom returns the old
     * value. The ISA gives these types only .add, and only with .noftz.
     */
    private static Op atomHalf(CompileContext c, boolean returns, String op, ScalarType t) {
        if (!op.equals("add") || !c.has(".noftz")) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " (." + t.ptxName() + " takes .add.noftz only)");
        }
        FloatFormat f = NarrowFloatCvt.format(t);
        boolean pair = t == ScalarType.F16X2 || t == ScalarType.BF16X2;
        int first = returns ? 1 : 0;
        c.expectOperands(first + 2, first + 3);
        cachePolicy(c, first + 2);
        int d = returns ? c.dst(0) : -1;
        CompileContext.Addr addr = c.address(c.operand(first), c.spaceOf());
        int sp = addr.space();
        Src a = AtomForms.address(c, addr, returns ? "atom" : "red");
        Src b = c.src(first + 1, pair ? ScalarType.B32 : ScalarType.B16);
        int size = pair ? 4 : 2;
        return new CheckedOp((m, th) -> {
            long ad = a.get(m, th);
            long old = m.memory.load(sp, ad, size, th);
            m.memory.store(sp, ad, size, HalfOps.addNoFtz(f, pair, old, b.get(m, th)), th);
            if (d >= 0) m.setReg(th, d, old);
        });
    }
}
