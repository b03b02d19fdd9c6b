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
 * half. {@code atom}/{@code red} .b128 (exch, cas) are not modelled and refused by name.
 */
final class B128Ops {
    private B128Ops() {}

    /** Refuses a .b128 register anywhere but in {@code ld.b128}, {@code ldu.b128}, {@code st.b128} and {@code mov.b128}. */
    static void checkOperands(CompileContext c, Instruction in) {
        // atom/red .b128 get their own refusal (not modelled) from MemoryOps.
        boolean allowed = (in.opcode().equals("ld") || in.opcode().equals("ldu") || in.opcode().equals("st")
                || in.opcode().equals("mov") || in.opcode().equals("atom") || in.opcode().equals("red")) && in.has(".b128");
        if (allowed) return;
        for (Operand o : in.operands()) {
            if (namesB128(o)) {
                throw c.error(in.mnemonic() + ": a .b128 register is an operand only of ld.b128, st.b128 and mov.b128 "
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
