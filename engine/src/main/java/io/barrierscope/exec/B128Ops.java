package io.barrierscope.exec;

import io.barrierscope.ptx.Instruction;
import io.barrierscope.ptx.Operand;
import io.barrierscope.ptx.ScalarType;
import java.util.List;

/**
 * The .b128 type (PTX ISA 8.3+, sm_70+): {@code ld.b128}, {@code st.b128} (9.7.9.8, 9.7.9.11) and
 * {@code mov.b128} pack/unpack (9.7.9.4) on .b128 registers. A .b128 register is two 64-bit slots,
 * low half at its index and high half at index + 1 (FnBuilder gives it both). No other
 * instruction here takes a .b128 register: it is refused at load rather than read as its low
 * half. {@code atom.cas.b128} and {@code atom.exch.b128} (9.7.13.5) are one 16-byte atomic access.
 */
final class B128Ops {
    private B128Ops() {}

    /** Refuses a .b128 register anywhere but in {@code ld.b128}, {@code ldu.b128}, {@code st.b128} and {@code mov.b128}. */
    static void checkOperands(CompileContext c, Instruction in) {
        // atom .b128 reads its register operands itself (atom below); red .b128 is refused by MemoryOps.
        boolean allowed = (in.opcode().equals("ld") || in.opcode().equals("ldu") || in.opcode().equals("st")
                || in.opcode().equals("mov") || in.opcode().equals("atom") || in.opcode().equals("red")) && in.has(".b128");
        if (allowed) return;
        for (Operand o : in.operands()) {
            if (namesB128(o)) {
                throw c.error(in.mnemonic() + ": a .b128 register is an operand only of ld.b128, st.b128, mov.b128 and atom.{cas,exch}.b128 "
                        + "(the instructions that move 128-bit values whole)");
            }
        }
    }

    private static boolean namesB128(Operand o) {
        if (o instanceof Operand.Reg r) return r.reg().type() == ScalarType.B128;
        if (o instanceof Operand.Vector v) {
            for (Operand e : v.elements()) if (namesB128(e)) return true;
        }
        if (o instanceof Operand.Address a) return a.base() != null && namesB128(a.base());
        return false;
    }

    /** The .b128 register operand {@code o} (its low slot), or a refusal naming {@code what}. */
    static int b128Reg(CompileContext c, Operand o, String what) {
        if (o instanceof Operand.Sink) return -1;
        if (!(o instanceof Operand.Reg r) || r.negated() || r.reg().type() != ScalarType.B128) {
            throw c.error(c.insn().mnemonic() + ": " + what + " must be a .b128 register");
        }
        return c.regBase + r.reg().index();
    }

    /** {@code ld.b128 d, [a]}: 16 naturally aligned bytes, the low 8 to d's low half. */
    static Op load(CompileContext c) {
        refuseForms(c);
        c.expectOperands(2, 2);
        int d = b128Reg(c, c.operand(0), "the destination");
        return aligned16(c, c.operand(1), (m, th, sp, base) -> {
            long lo = m.memory.load(sp, base, 8, th);
            long hi = m.memory.load(sp, base + 8, 8, th);
            if (d >= 0) {
                m.setReg(th, d, lo);
                m.setReg(th, d + 1, hi);
            }
        });
    }

    /** {@code st.b128 [a], s}: the 16 bytes of a .b128 register, low half first (little-endian). */
    static Op store(CompileContext c) {
        refuseForms(c);
        c.expectOperands(2, 2);
        int v = b128Reg(c, c.operand(1), "the value");
        if (v < 0) throw c.error(c.insn().mnemonic() + ": the value must be a .b128 register");
        return aligned16(c, c.operand(0), (m, th, sp, base) -> {
            m.memory.store(sp, base, 8, m.reg(th, v), th);
            m.memory.store(sp, base + 8, 8, m.reg(th, v + 1), th);
        });
    }

    /** The 16 bytes at a thread's address, once checked naturally aligned (ld and st alike). */
    private interface Access { void at(Machine m, int th, int sp, long base); }

    /** An op that resolves the address operand (the CTA window as ld/st), checks 16-byte alignment, then does the access. */
    private static Op aligned16(CompileContext c, Operand address, Access access) {
        CompileContext.Addr addr = c.address(address, c.spaceOf());
        int sp = addr.space();
        Src a = MemoryOps.ctaWindow(c, addr);
        return new MemoryOps.CheckedOp((m, th) -> {
            long base = a.get(m, th);
            m.memory.checkVectorAlignment(sp, base, 16, th);
            access.at(m, th, sp, base);
        });
    }

    /**
     * {@code atom{.sem}{.scope}{.space}.cas.b128 d, [a], b, c} and {@code atom...exch{.L2::cache_hint}.b128
     * d, [a], b{, cache-policy}} (PTX ISA 9.7.13.5): the 16 bytes at a, naturally aligned, are read into d
     * and replaced by b (exch), or by c if they equal b (cas), as one atomic access of 16 bytes: the race
     * detector sees a single 16-byte read-modify-write (Memory.load16/store16) under the instruction's
     * .sem and .scope, which MemoryOps marks. d may be the sink {@code _}; b and c are .b128 registers.
     */
    static Op atom(CompileContext c) {
        String mn = c.insn().mnemonic();
        boolean cas = c.has(".cas");
        if (!cas && !c.has(".exch")) {
            throw c.error(mn + ": atom on .b128 has only .cas and .exch (PTX ISA 9.7.13.5)");
        }
        for (String mod : List.of(".v2", ".v4", ".v8", ".noftz")) {
            if (c.has(mod)) throw c.error("unsupported instruction " + mn + " (" + mod + " with .b128: atom .b128 is scalar, .cas or .exch)");
        }
        if (cas && c.has(".L2::cache_hint")) throw c.error(mn + ": .cas takes no .L2::cache_hint");
        c.expectOperands(cas ? 4 : 3, 4);
        if (!cas && c.operandCount() == 4 && !c.has(".L2::cache_hint")) {
            throw c.error(mn + ": a cache-policy operand needs .L2::cache_hint");
        }
        int d = b128Reg(c, c.operand(0), "the destination");
        int b = b128Reg(c, c.operand(2), cas ? "the compare value b" : "the new value b");
        int v = cas ? b128Reg(c, c.operand(3), "the swap value c") : b;
        if (b < 0 || v < 0) throw c.error(mn + ": b and c are .b128 registers, not the sink _");
        CompileContext.Addr addr = c.address(c.operand(1), c.spaceOf());
        int sp = addr.space();
        Src a = AtomForms.address(c, addr, "atom");
        return new MemoryOps.CheckedOp((m, th) -> {
            long base = a.get(m, th);
            long[] old = new long[2];
            m.memory.load16(sp, base, th, old);
            boolean swap = !cas || (old[0] == m.reg(th, b) && old[1] == m.reg(th, b + 1));
            long lo = swap ? m.reg(th, v) : old[0];
            long hi = swap ? m.reg(th, v + 1) : old[1];
            // cas(r, s, t) = (r == s) ? t : r is stored either way: the atomic writes its location (9.7.13.5, Semantics).
            m.memory.store16(sp, base, lo, hi, th);
            if (d >= 0) {
                m.setReg(th, d, old[0]);
                m.setReg(th, d + 1, old[1]);
            }
        });
    }

    /** Vector, ordered and cache-policy forms of .b128 are not modelled: refused by name, never half done. */
    private static void refuseForms(CompileContext c) {
        for (String mod : List.of(".v2", ".v4", ".v8", ".relaxed", ".acquire", ".release", ".volatile", ".mmio", ".L2::cache_hint", ".unified")) {
            if (c.has(mod)) throw c.error("unsupported instruction " + c.insn().mnemonic() + " (" + mod + " with .b128 is not modelled)");
        }
    }

    /**
     * {@code mov.b128 d, {a, b}} packs two 64-bit (or {@code {a, b, c, e}} four 32-bit) values into a
     * .b128 register, element 0 lowest; {@code mov.b128 {..}, s} unpacks one (9.7.9.4). A plain
     * {@code mov.b128 d, s} is refused: 9.7.9.3's mov has no .b128 type, 9.7.9.4 needs a vector side.
     */
    static Op mov(CompileContext c) {
        c.expectOperands(2, 2);
        Operand d0 = c.operand(0);
        Operand s0 = c.operand(1);
        if (s0 instanceof Operand.Vector v) {
            int bits = elementBits(c, v, false);
            int d = b128Reg(c, d0, "the destination of a pack");
            Src[] el = new Src[v.elements().size()];
            for (int i = 0; i < el.length; i++) el[i] = c.src(v.elements().get(i), bits == 64 ? ScalarType.B64 : ScalarType.B32);
            return new FnOp((m, th) -> {
                long l = bits == 64 ? el[0].get(m, th) : el[0].get(m, th) & 0xFFFFFFFFL | el[1].get(m, th) << 32;
                long h = bits == 64 ? el[1].get(m, th) : el[2].get(m, th) & 0xFFFFFFFFL | el[3].get(m, th) << 32;
                if (d >= 0) {
                    m.setReg(th, d, l);
                    m.setReg(th, d + 1, h);
                }
            });
        }
        if (!(d0 instanceof Operand.Vector v)) {
            throw c.error("unsupported instruction " + c.insn().mnemonic() + " d, s: mov.b128 packs or unpacks a vector "
                    + "(PTX ISA 9.7.9.4); the mov of 9.7.9.3 has no .b128 type, so a .b128 register is copied as {lo, hi} halves");
        }
        int s = b128Reg(c, s0, "the source");
        int bits = elementBits(c, v, true);
        int[] dst = new int[v.elements().size()];
        for (int i = 0; i < dst.length; i++) dst[i] = c.dst(v.elements().get(i));
        return new FnOp((m, th) -> {
            long l = m.reg(th, s);
            long h = m.reg(th, s + 1);
            long[] parts = bits == 64 ? new long[] {l, h} : new long[] {l & 0xFFFFFFFFL, l >>> 32, h & 0xFFFFFFFFL, h >>> 32};
            for (int i = 0; i < dst.length; i++) if (dst[i] >= 0) m.setReg(th, dst[i], parts[i]);
        });
    }

    /**
     * The element width of a .b128 pack/unpack vector: two 64-bit or four 32-bit elements ("both the overall
     * size of the vector and the size of the scalar must match the size of the instruction type", 9.7.9.4).
     * A destination vector may hold sinks, but not only sinks.
     */
    private static int elementBits(CompileContext c, Operand.Vector v, boolean destination) {
        int n = v.elements().size();
        if (n != 2 && n != 4) {
            throw c.error(c.insn().mnemonic() + ": a .b128 value packs or unpacks as two 64-bit or four 32-bit elements, not " + n);
        }
        int bits = 128 / n;
        boolean someRegister = false;
        for (Operand e : v.elements()) {
            if (e instanceof Operand.Sink && destination) continue;
            someRegister = true;
            if (e instanceof Operand.Reg r && r.reg().type().bits() != bits) {
                throw c.error(c.insn().mnemonic() + ": " + r.reg().name() + " is " + r.reg().type().bits()
                        + "-bit; each of " + n + " elements of a .b128 value is a " + bits + "-bit register");
            }
        }
        if (!someRegister) throw c.error(c.insn().mnemonic() + ": an unpack needs at least one register, not only sinks");
        return bits;
    }
}
