package io.barrierscope.runtime;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.exec.Space;
import io.barrierscope.ptx.Module;
import io.barrierscope.ptx.PtxException;
import io.barrierscope.ptx.PtxParser;
import io.barrierscope.ptx.StateSpace;
import io.barrierscope.ptx.Variable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One registered CUDA module (the PTX of one fat binary) placed in the program's device address
 * space: its {@code __device__} variables are segments of the device memory at addresses fixed
 * when it was registered, its {@code __constant__} bank lives as long as the program, and each
 * entry is compiled once, on its first launch.
 */
final class DeviceModule {
    /** Host-side addresses of constant banks: module {@code i}'s bank starts at CONST_HOST + (i << 24). */
    static final long CONST_HOST = Space.CONST_WINDOW;

    final int id;
    /** The PTX text as the program registered it. */
    final String ptx;
    final PtxSplitter split;
    /** Where the module's {@code .global} variables start in the device address space. */
    final long globalBase;
    /** The module-level {@code .const} variables' bytes (a launch's bank starts with them). */
    final byte[] constBank;
    final Map<String, GlobalMemory.Segment> globals = new LinkedHashMap<>();
    final Map<String, long[]> constants = new LinkedHashMap<>();
    private final Map<String, Program> programs = new LinkedHashMap<>();

    /**
     * Registers the module: only its first entry's part is parsed now (PtxSplitter), enough to
     * place the module's variables, which every entry's part declares alike; each other entry is
     * parsed on its first launch. An entry the engine cannot compile (an instruction it does not
     * run, such as a texture fetch) does not refuse the module: the next entry places the
     * variables, and that entry's own launches are refused, naming the instruction.
     */
    DeviceModule(int id, String ptx, GlobalMemory device) {
        this.id = id;
        this.ptx = ptx;
        this.split = new PtxSplitter(ptx);
        this.globalBase = device.nextAddress();
        Program first = firstThatCompiles();
        Module vars = first != null ? first.module : PtxParser.parse(sourceName(), ptx);
        if (first != null) {
            for (GlobalMemory.Segment s : first.globalTemplate.segments()) {
                globals.put(s.name(), device.mapAt(s.name(), s.base(), s.data(), false));
            }
        }
        long constEnd = 0;
        if (first != null) {
            for (Variable v : vars.variables()) {
                if (v.space() != StateSpace.CONST) continue;
                for (var p : first.symbols.all()) {
                    if (p.space() == Space.CONST && p.name().equals(v.name())) {
                        constants.put(v.name(), new long[] {p.offset(), p.size()});
                        constEnd = Math.max(constEnd, p.offset() + p.size());
                    }
                }
            }
        }
        constBank = first == null ? new byte[0] : java.util.Arrays.copyOf(first.constBank, (int) constEnd);
    }

    /** The first entry that compiles (null for a module without entries); when none does, the first's error. */
    private Program firstThatCompiles() {
        PtxException firstError = null;
        for (String entry : split.entries()) {
            try {
                return program(entry);
            } catch (PtxException e) {
                if (firstError == null) firstError = e;
            }
        }
        if (firstError != null) throw firstError;
        return null;
    }

    String sourceName() { return "module" + id + ".ptx"; }

    /**
     * Whether the entry is declared {@code .blocksareclusters} (CUDA C++'s {@code __block_size__}
     * with a cluster: "Blocks as Clusters"), read from its header, between {@code .entry} and its
     * body. The engine's parser accepts the directive and keeps nothing of it, so the launch applies it.
     */
    boolean blocksAreClusters(String entry) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\.entry\\s+" + java.util.regex.Pattern.quote(entry) + "\\s*\\(").matcher(ptx);
        if (!m.find()) return false;
        int body = ptx.indexOf('{', m.end());
        return body > 0 && ptx.substring(m.end(), body).contains(".blocksareclusters");
    }

    /** The part of the module's PTX one entry needs (line numbers as in the whole module). */
    String ptxOf(String entry) { return split.only(entry); }

    /** The compiled entry (parsed and compiled once; the same global addresses every time). */
    Program program(String entry) {
        Program p = programs.get(entry);
        if (p == null) {
            if (!split.entries().contains(entry)) {
                throw new IllegalArgumentException("the program's PTX (" + sourceName() + ") has no entry '" + entry + "'");
            }
            Module m = PtxParser.parse(sourceName(), split.only(entry));
            p = ProgramBuilder.build(m, entry, globalBase);
            programs.put(entry, p);
        }
        return p;
    }

    /** A launch's constant bank: the entry's own layout with the module's current constants. */
    byte[] constBankFor(Program p) {
        byte[] cb = p.constBank.clone();
        System.arraycopy(constBank, 0, cb, 0, Math.min(constBank.length, cb.length));
        return cb;
    }

    long constHostBase() { return CONST_HOST + ((long) id << 24); }
}
