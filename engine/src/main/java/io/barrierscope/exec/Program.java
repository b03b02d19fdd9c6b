package io.barrierscope.exec;

import io.barrierscope.ptx.Function;
import io.barrierscope.ptx.Module;
import java.util.List;
import java.util.Map;

/**
 * A kernel compiled for execution: the ops of the entry and every function it calls, laid out
 * at global PCs, plus where every variable lives. Immutable once built; one Program serves any
 * number of runs.
 */
public final class Program {
    /** Where one entry parameter lives in the kernel parameter buffer. */
    public record KernelParam(String name, int offset, int size, io.barrierscope.ptx.ScalarType type) {}

    /** Where a variable lives: its space ({@link Space}) and offset (or global address). */
    public record Placement(int space, long address) {}

    public final Module module;
    public final Function kernel;
    public Op[] code;
    public int entryPc;
    public int regsPerThread;
    public Map<String, Integer> functionPc;
    public Map<String, Integer> registerBase;
    public Map<Integer, Placement> placements;
    public int staticSharedBytes;
    /** Offset of the dynamic (extern) shared region. */
    public int dynamicSharedOffset;
    public int localPerThread;
    public int paramPerThread;
    public byte[] constBank;
    /** Module .global variables, mapped in a template copied into every run's global memory. */
    public GlobalMemory globalTemplate;
    public List<KernelParam> kernelParams;
    public int kernelParamBytes;
    public SymbolTable symbols;
    /** The kernel calls the device runtime's malloc or free: its launch needs a device heap ({@link DeviceHeap}). */
    public boolean usesDeviceHeap;

    /** Static analyses of this program, each made once on first need (see {@link #analysis}). */
    private final java.util.concurrent.ConcurrentHashMap<Class<?>, Object> analyses = new java.util.concurrent.ConcurrentHashMap<>();

    public Program(Module module, Function kernel) {
        this.module = module;
        this.kernel = kernel;
    }

    /**
     * The analysis of kind {@code kind} of this program, made by {@code make} on first need and then
     * shared by every run and thread (explore's jobs run copies of one program). {@code make} must
     * depend on the program alone and return an immutable value: two threads racing may both make
     * one, and the first stored wins.
     */
    public <T> T analysis(Class<T> kind, java.util.function.Function<Program, ? extends T> make) {
        Object v = analyses.get(kind);
        if (v == null) {
            T made = make.apply(this);
            Object prev = analyses.putIfAbsent(kind, made);
            v = prev == null ? made : prev;
        }
        return kind.cast(v);
    }
}
