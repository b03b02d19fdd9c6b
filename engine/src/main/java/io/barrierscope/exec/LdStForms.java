package io.barrierscope.exec;

import io.barrierscope.diag.DiagnosticCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The qualifier rules of ld and st (PTX ISA 9.7.9.8 ld, 9.7.9.9 ld.global.nc, 9.7.9.11 st): which
 * memory-order qualifiers each takes and with what, so a form the ISA does not have is refused at
 * its line instead of run with a meaning of the engine's own.
 */
final class LdStForms {
    private LdStForms() {}

    private static final List<String> LD_CACHE_OPS = List.of(".ca", ".cg", ".cs", ".lu", ".cv");
    private static final List<String> ST_CACHE_OPS = List.of(".wb", ".cg", ".cs", ".wt");

    /** Checks an ld or st (not st.async, not ldu). */
    static void check(CompileContext c, boolean load) {
        String name = c.insn().mnemonic();
        String section = load ? "PTX ISA 9.7.9.8" : "PTX ISA 9.7.9.11";
        String mine = load ? ".acquire" : ".release";
        for (String bad : load ? List.of(".release", ".acq_rel", ".sc") : List.of(".acquire", ".acq_rel", ".sc")) {
            if (c.has(bad)) {
                throw c.error(name + ": " + bad + " is not a qualifier of " + (load ? "ld" : "st") + "; it takes .weak, .volatile, "
                        + ".relaxed or " + mine + " (" + section + ")");
            }
        }
        List<String> order = new ArrayList<>();
        for (String q : List.of(".weak", ".volatile", ".relaxed", mine)) if (c.has(q)) order.add(q);
        // "The .weak, .volatile, .relaxed and .acquire qualifiers are mutually exclusive."
        if (order.size() > 1) throw c.error(name + ": " + String.join(" and ", order) + " are mutually exclusive (" + section + ")");
        boolean strong = c.has(".volatile") || c.has(".relaxed") || c.has(mine);
        boolean scoped = c.has(".cta") || c.has(".cluster") || c.has(".gpu") || c.has(".sys");
        if (scoped && !c.has(".relaxed") && !c.has(mine)) {
            throw c.error(name + ": only the .relaxed and " + mine + " forms take a scope (" + section + ")");
        }
        int space = c.spaceOf();
        boolean globalOrGeneric = space == Space.GLOBAL || space == Space.GENERIC;
        // "The qualifiers .volatile, .relaxed and .acquire may be used only with .global and .shared spaces and with
        // generic addressing ... Cache operations are not permitted with these qualifiers."
        // "Stores to const memory are illegal": st's .ss has no .const.
        if (!load && space == Space.CONST) throw c.error(name + ": stores to const memory are illegal (" + section + ")");
        // "Support for .volatile qualifier with .local state space introduced in PTX ISA version 9.1."
        boolean volatileLocal = c.has(".volatile") && space == Space.LOCAL && volatileLocalAllowed(c);
        if (strong && !globalOrGeneric && space != Space.SHARED && !volatileLocal) {
            throw c.error(name + ": .volatile, .relaxed and " + mine + " may be used only with .global and .shared spaces and with "
                    + "generic addressing (" + section + "; .volatile also with .local from PTX ISA 9.1)");
        }
        if (strong) {
            for (String cop : load ? LD_CACHE_OPS : ST_CACHE_OPS) {
                if (c.has(cop)) throw c.error(name + ": cache operation " + cop + " is not permitted with .volatile, .relaxed or " + mine + " (" + section + ")");
            }
            if (c.has(".nc")) throw c.error(name + ": ld.global.nc takes no .volatile, .relaxed or .acquire (PTX ISA 9.7.9.9)");
        }
        if (c.has(".volatile")) {
            for (String m : c.insn().modifiers()) {
                if (m.startsWith(".L1::") || m.startsWith(".L2::evict") || m.equals(".L2::cache_hint") || m.equals(".unified")) {
                    throw c.error(name + ": the .volatile form takes no " + m + " (" + section + " syntax)");
                }
            }
        }
        if (c.has(".nc") && space != Space.GLOBAL) throw c.error(name + ": .nc loads name .global: ld.global{.cop}.nc (PTX ISA 9.7.9.9)");
        // ".level::cache_hint ... only supported for .global state space and for generic addressing"; the same for
        // .unified and .level::prefetch_size.
        if (!globalOrGeneric) {
            for (String m : List.of(".L2::cache_hint", ".unified", ".L2::64B", ".L2::128B", ".L2::256B")) {
                if (c.has(m)) throw c.error(name + ": " + m + " is only supported for the .global state space and generic addressing (" + section + ")");
            }
        }
        // "When the optional argument cache-policy is specified, the qualifier .level::cache_hint is required."
        if (c.operandCount() > 2 && !c.has(".L2::cache_hint")) {
            throw c.error(name + ": a cache-policy operand needs .L2::cache_hint (" + section + ")");
        }
        if (c.has(".mmio")) {
            // "Only .sys thread scope is valid for ld.mmio operation. The qualifiers .mmio and .relaxed must be specified
            // together." "The qualifier .mmio may be used only with .global space and with generic addressing".
            if (!c.has(".relaxed") || !c.has(".sys") || c.has(".cta") || c.has(".cluster") || c.has(".gpu") || !globalOrGeneric) {
                throw c.error(name + ": the .mmio form is " + (load ? "ld" : "st") + ".mmio.relaxed.sys{.global}: .mmio needs .relaxed, "
                        + "the .sys scope and global memory (" + section + ")");
            }
            for (String m : c.insn().modifiers()) {
                if (m.startsWith(".L1::") || m.startsWith(".L2::") || m.equals(".unified") || m.equals(".v2") || m.equals(".v4")
                        || m.equals(".v8") || m.equals(".b128")) {
                    throw c.error(name + ": the .mmio form takes no " + m + " (" + section + " syntax)");
                }
            }
        }
    }

    /**
     * The address of an ld or st, with the ISA's rules for generic addresses: the strong forms
     * (.volatile, .relaxed, .acquire, .release) "where the address points to .global or .shared
     * space", and .L2::cache_hint, .unified and .mmio where it points to .global. Elsewhere the
     * access is undefined: {@code memory-fault}, as for atom and red.
     */
    static Src address(CompileContext c, CompileContext.Addr addr, boolean load) {
        Src a = MemoryOps.ctaWindow(c, addr);
        if (addr.space() != Space.GENERIC) return a;
        String mine = load ? ".acquire" : ".release";
        boolean strong = c.has(".volatile") || c.has(".relaxed") || c.has(mine);
        String globalOnly = c.has(".mmio") ? ".mmio" : c.has(".L2::cache_hint") ? ".L2::cache_hint" : c.has(".unified") ? ".unified" : null;
        if (!strong && globalOnly == null) return a;
        String mn = c.insn().mnemonic();
        String sec = load ? "PTX ISA 9.7.9.8" : "PTX ISA 9.7.9.11";
        boolean volatileLocal = c.has(".volatile") && volatileLocalAllowed(c);
        return (m, t) -> {
            long g = a.get(m, t);
            int s = Space.ofGeneric(g);
            if (globalOnly != null && s != Space.GLOBAL) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, g, mn + ": generic address 0x" + Long.toHexString(g) + " points to "
                        + Space.name(s) + " memory; " + globalOnly + " may be used only where the address points to .global (" + sec + ")");
            }
            if (s != Space.GLOBAL && s != Space.SHARED && !(s == Space.LOCAL && volatileLocal)) {
                throw new MemoryFault(DiagnosticCode.MEMORY_FAULT, g, mn + ": generic address 0x" + Long.toHexString(g) + " points to "
                        + Space.name(s) + " memory; .volatile, .relaxed and " + mine + " may be used only where the address points to "
                        + ".global or .shared (" + sec + ")");
            }
            return g;
        };
    }

    /** .volatile on local memory (named or through a generic address): PTX ISA 9.1 and later. */
    private static boolean volatileLocalAllowed(CompileContext c) {
        return c.ptxVersionNumber() >= 91;
    }
}
