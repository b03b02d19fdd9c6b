package io.barrierscope.runtime;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.exec.Space;
import io.barrierscope.ptx.Module;
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
    final Module module;
    /** The PTX text as the program registered it (a launch bundle's kernel.ptx). */
    final String ptx;
    final long globalBase;
    /** The module-level {@code .const} variables' bytes (a launch's bank starts with them). */
    final byte[] constBank;
    final Map<String, GlobalMemory.Segment> globals = new LinkedHashMap<>();
    final Map<String, long[]> constants = new LinkedHashMap<>();
    private final Map<String, Program> programs = new LinkedHashMap<>();

    DeviceModule(int id, Module module, String ptx, GlobalMemory device) {
        this.id = id;
        this.module = module;
        this.ptx = ptx;
        this.globalBase = device.nextAddress();
        Program first = module.entries().isEmpty() ? null : program(module.entries().get(0).name());
        if (first != null) {
            for (GlobalMemory.Segment s : first.globalTemplate.segments()) {
                globals.put(s.name(), device.mapAt(s.name(), s.base(), s.data(), false));
            }
        }
        long constEnd = 0;
        if (first != null) {
            for (Variable v : module.variables()) {
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

    /** The compiled entry (compiled once; the same global addresses every time). */
    Program program(String entry) {
        Program p = programs.get(entry);
        if (p == null) {
            p = ProgramBuilder.build(module, entry, globalBase);
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
