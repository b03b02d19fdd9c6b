package io.barrierscope.launch;

import io.barrierscope.exec.Dim3;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.ptx.Function;
import io.barrierscope.sync.TensorMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The one home of the checks a launch needs its PTX for: arguments against the kernel's
 * parameters, grid against cluster, the thread, memory and heap limits, tensor maps against
 * their buffers. {@link LaunchFileReader} turns the JSON into a {@link LaunchSpec} (everything
 * checkable without the PTX); this class turns spec plus program into a {@link Validated} launch
 * that {@link LaunchedRun} only has to place. Every size is computed exactly (long arithmetic
 * on bounded factors, or {@code Math.*Exact}), so no untrusted number can wrap past a limit.
 * Errors are located in the launch text the spec was read from.
 */
public final class LaunchValidation {
    /** Threads one launch may have (64 CTAs of 1024). */
    public static final long MAX_THREADS = 64L * 1024;
    /** Bytes of emulated state (memory and registers) one launch may use. */
    public static final long MEMORY_BUDGET = 1L << 30;

    private LaunchValidation() {}

    /**
     * What placing the launch needs beyond the spec: the cluster shape in force, and its memory
     * (without race detection or explore: what running it needs at least; see {@link MemoryEstimate}).
     */
    public record Validated(Dim3 cluster, MemoryEstimate memory) {
        public long stateBytes() { return memory.stateBytes(); }
    }

    /**
     * A mistake found in a launch only once its PTX is known, located at {@code pointer} of its
     * launch text (a trace's embedded launch included), never in a file read again from disk; a
     * launch with no text (a bare .ptx) names the file only.
     */
    static BadInputException located(LaunchSpec spec, String pointer, String msg) {
        String text = spec.sourceText();
        if (text != null) {
            int[] lc = new JsonLocations(text).lineCol(pointer);
            return new BadInputException(JsonLocations.located(spec.file(), text, lc[0], lc[1], msg));
        }
        return new BadInputException(spec.file() + ": error: " + msg);
    }

    /** Checks the launch against its program; the result is what {@link LaunchedRun} places. */
    static Validated validate(LaunchSpec spec, Program program) {
        // The limits first: a launch too large to emulate is refused as such whatever else is wrong.
        MemoryEstimate memory = limits(spec, program);
        Dim3 cluster = clusterOf(spec, program.kernel);
        params(spec, program);
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            if (a.isTensorMap()) tensorMapExtent(spec, a.tensorMap(), "/args/" + i + "/tensorMap");
        }
        return new Validated(cluster, memory);
    }

    private static void params(LaunchSpec spec, Program program) {
        String kernel = program.kernel.name();
        if (spec.args().size() != program.kernelParams.size()) {
            throw located(spec, "/args", "kernel " + kernel + " takes " + program.kernelParams.size()
                    + " parameters but the launch file gives " + spec.args().size() + " args");
        }
        for (int i = 0; i < spec.args().size(); i++) {
            ArgSpec a = spec.args().get(i);
            Program.KernelParam kp = program.kernelParams.get(i);
            if (a.isStruct()) {
                StructSpec st = a.extras().struct();
                if (st.bytes() != null ? st.bytes() != kp.size() : st.initial() != null && st.initial().length != kp.size()) {
                    throw located(spec, "/args/" + i + "/struct", "arg " + i + " is a struct of "
                            + (st.bytes() != null ? st.bytes() : st.initial().length) + " bytes but parameter " + kp.name() + " has " + kp.size() + " bytes");
                }
                for (int f = 0; f < st.fields().size(); f++) {
                    StructSpec.Field fl = st.fields().get(f);
                    if (fl.offset() + fl.size() > kp.size()) {
                        throw located(spec, "/args/" + i + "/struct/fields/" + f + "/offset", "a " + fl.size()
                                + "-byte field at offset " + fl.offset() + " does not fit parameter " + kp.name() + " (" + kp.size() + " bytes)");
                    }
                }
                continue;
            }
            if (a.isTensorMap()) {
                if (kp.size() != TensorMap.BYTES) {
                    throw located(spec, "/args/" + i, "arg " + i + " is a tensorMap (128 bytes) but parameter "
                            + kp.name() + " has " + kp.size() + " bytes");
                }
                continue;
            }
            if (a.isBuffer() && kp.size() != 8) {
                throw located(spec, "/args/" + i, "arg " + i + " is a buffer (a 64-bit address) but parameter "
                        + kp.name() + " has " + kp.size() + " bytes");
            }
            if (!a.isBuffer() && kp.size() != a.type().bytes()) {
                throw located(spec, "/args/" + i, "arg " + i + " is a ." + a.type().ptxName() + " value but parameter "
                        + kp.name() + " has " + kp.size() + " bytes");
            }
        }
    }

    private static Dim3 clusterOf(LaunchSpec spec, Function kernel) {
        Dim3 c = spec.cluster();
        int[] d = kernel.directives().reqnctapercluster() != null ? kernel.directives().reqnctapercluster()
                : kernel.directives().clusterDim();
        if (c == null) c = d != null ? new Dim3(d[0], d[1], d[2]) : Dim3.ONE;
        Dim3 g = spec.grid();
        if (g.x() % c.x() != 0 || g.y() % c.y() != 0 || g.z() % c.z() != 0) {
            throw located(spec, spec.cluster() != null ? "/cluster" : "/grid", "grid " + g + " is not a multiple of the cluster " + c);
        }
        if (c.volume() > 16) throw located(spec, "/cluster", "a cluster has at most 16 CTAs; " + c + " has " + c.volume());
        return c;
    }

    /** The thread limit, the emulated-state budget and what this Java's heap can hold; returns the launch's memory. */
    private static MemoryEstimate limits(LaunchSpec spec, Program program) {
        long ctas = spec.grid().volume();
        long threads;
        long slots;
        long bytes;
        try {
            threads = Math.multiplyExact(ctas, spec.block().volume());
            if (threads > MAX_THREADS) throw new ArithmeticException();
            slots = ctas * ((spec.block().volume() + 31) / 32) * 32;
            bytes = Math.addExact(Math.multiplyExact(slots, program.regsPerThread * 8L + program.localPerThread + program.paramPerThread + 32),
                    Math.multiplyExact(ctas, program.staticSharedBytes + (long) spec.dynamicSharedBytes()));
        } catch (ArithmeticException e) {
            throw located(spec, "/grid", "the launch has " + new java.math.BigInteger(String.valueOf(ctas)).multiply(
                    java.math.BigInteger.valueOf(spec.block().volume())) + " threads (" + ctas + " CTAs of " + spec.block().volume()
                    + "); BarrierScope emulates at most " + MAX_THREADS + " threads (64 CTAs x 1024): shrink the grid");
        }
        long buffers = 0;
        List<ArgSpec> all = new ArrayList<>(spec.args());
        all.addAll(spec.buffers());
        for (ArgSpec a : all) if (a.isBuffer()) buffers = Math.addExact(buffers, Math.multiplyExact(a.count(), (long) a.type().bytes()));
        bytes = Math.addExact(bytes, buffers);
        if (bytes > MEMORY_BUDGET) {
            throw located(spec, "/grid", "the launch needs about " + (bytes >> 20) + " MiB of emulated state; the budget is "
                    + (MEMORY_BUDGET >> 20) + " MiB");
        }
        // Shared memory of every CTA and global memory (buffers and the module's variables) are what
        // the race detector shadows; all bounded by the budget above, so no sum can wrap.
        long shadowable = buffers + program.globalTemplate.totalBytes()
                + ctas * (program.staticSharedBytes + (long) spec.dynamicSharedBytes());
        // The state is held once as the run's memory and once more while being initialised or
        // checkpointed: a launch this heap cannot hold twice is refused now, not by an OutOfMemoryError
        // later. Race detection and explore add theirs when the caller chooses them (LaunchedRun.requireMemory).
        MemoryEstimate memory = new MemoryEstimate(bytes, buffers, shadowable, false, 0);
        memory.require(spec);
        if (program.staticSharedBytes + (long) spec.dynamicSharedBytes() > ProgramBuilder.MAX_SHARED) {
            throw located(spec, "/dynamicSharedBytes", "static plus dynamic shared memory exceeds "
                    + ProgramBuilder.MAX_SHARED + " bytes per CTA");
        }
        return memory;
    }

    /** The buffer a tensor map describes (a buffer argument or one of the launch's "buffers"). */
    static ArgSpec tensorMapBuffer(LaunchSpec spec, TensorMapSpec t, String pointer) {
        for (ArgSpec x : spec.args()) if (x.isBuffer() && x.buffer().equals(t.buffer())) return x;
        for (ArgSpec x : spec.buffers()) if (x.isBuffer() && x.buffer().equals(t.buffer())) return x;
        throw located(spec, pointer + "/buffer", "tensorMap names buffer '" + t.buffer()
                + "', which is neither a buffer argument nor one of the launch's \"buffers\"");
    }

    /** Byte strides of dimensions 1.. of a tensor map (given, else packed), exactly; overflow is refused. */
    static long[] tensorMapStrides(LaunchSpec spec, TensorMapSpec t, int elementBytes, String pointer) {
        int rank = t.dims().size();
        long[] strides = new long[rank - 1];
        try {
            for (int i = 1; i < rank; i++) {
                strides[i - 1] = t.strides() != null ? t.strides().get(i - 1)
                        : Math.multiplyExact(i == 1 ? elementBytes : strides[i - 2], t.dims().get(i - 1));
            }
        } catch (ArithmeticException e) {
            throw located(spec, pointer + "/dims", "the tensorMap over '" + t.buffer() + "' has dimensions whose packed size exceeds 2^63 bytes");
        }
        return strides;
    }

    /** Checks a tensor map fits its buffer and its box fits shared memory; every product exact. */
    static void tensorMapExtent(LaunchSpec spec, TensorMapSpec t, String pointer) {
        ArgSpec buf = tensorMapBuffer(spec, t, pointer);
        int e = buf.type().bytes();
        long[] strides = tensorMapStrides(spec, t, e, pointer);
        long size = buf.count() * e;
        long extent = e;
        boolean over = false;
        try {
            for (int i = 0; i < t.dims().size(); i++) {
                extent = Math.addExact(extent, Math.multiplyExact(t.dims().get(i) - 1, i == 0 ? e : strides[i - 1]));
            }
        } catch (ArithmeticException ex) {
            over = true;
        }
        if (over || extent > size) {
            throw located(spec, pointer + "/dims", "the tensorMap over '" + t.buffer() + "' spans " + (over ? "more than 2^63" : extent)
                    + " bytes but the buffer has " + size);
        }
        long box = e;
        for (int b : t.box()) box *= b; // at most 8 * 256^5: no overflow
        if (box > ProgramBuilder.MAX_SHARED) {
            throw located(spec, pointer + "/box", "a tensorMap box of " + box + " bytes cannot fit in shared memory");
        }
    }

    /**
     * The constraints cuTensorMapEncodeTiled puts on interleave, swizzle, box and fill (CUDA driver
     * API, Tensor Map Object Management), each refused at its launch-file location: an interleaved
     * map has rank 3 or more; 32B interleave needs 32B swizzle and strides that are multiples of 32
     * bytes; without interleave the box's inner dimension spans a multiple of 16 bytes and the
     * traversal stride of dimension 0 is 1 (PTX ISA 5.5.3.2); the box spans a multiple of 16 bytes
     * (5.5.3.1); NaN fill needs a floating-point element type.
     */
    static void tensorMapModes(LaunchSpec spec, TensorMapSpec t, io.barrierscope.ptx.ScalarType type, long[] strides, String pointer) {
        int e = type.bytes();
        if (t.interleave() != 0 && t.dims().size() < 3) {
            throw located(spec, pointer + "/interleave", "an interleaved tensorMap needs 3 to 5 dimensions, not " + t.dims().size());
        }
        if (t.interleave() == 32 && t.swizzle() != 32) {
            throw located(spec, pointer + "/swizzle", "with interleave 32B the swizzle must be 32B");
        }
        if (t.interleave() == 32) {
            for (int i = 0; i < strides.length; i++) {
                if (strides[i] % 32 != 0) {
                    throw located(spec, pointer + (t.strides() == null ? "/dims" : "/strides/" + i), "with interleave 32B the byte strides must be"
                            + " multiples of 32; stride of dimension " + (i + 1) + " is " + strides[i]);
                }
            }
        }
        if (t.interleave() == 0 && ((long) t.box().get(0) * e) % 16 != 0) {
            throw located(spec, pointer + "/box/0", "without interleave the box's inner dimension must span a multiple of 16 bytes; it spans "
                    + (long) t.box().get(0) * e);
        }
        if (t.interleave() == 0 && t.elementStrides() != null && t.elementStrides().get(0) != 1) {
            throw located(spec, pointer + "/elementStrides/0", "without interleave the traversal stride of dimension 0 must be 1 (PTX ISA 5.5.3.2)");
        }
        long boxBytes = e;
        for (int b : t.box()) boxBytes *= b;
        if (boxBytes % 16 != 0) {
            throw located(spec, pointer + "/box", "a bounding box must span a multiple of 16 bytes (PTX ISA 5.5.3.1); this one spans " + boxBytes);
        }
        if (t.oobNan() && !type.isFloat()) {
            throw located(spec, pointer + "/oobFill", "NaN fill needs a floating-point buffer; '" + t.buffer() + "' is " + type.ptxName());
        }
    }
}
