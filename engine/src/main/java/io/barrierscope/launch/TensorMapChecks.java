package io.barrierscope.launch;

import io.barrierscope.exec.ProgramBuilder;
import io.barrierscope.sync.TensorMap;

/**
 * The checks of a launch's tensor maps (part of {@link LaunchValidation}): the buffer named, the
 * extent within it and the box within shared memory (every product exact), and the modes
 * cuTensorMapEncodeTiled allows; then the map itself at its buffer's planned address.
 */
final class TensorMapChecks {
    private TensorMapChecks() {}

    /** The checked map over {@code t} at buffer address {@code base}; errors located at {@code pointer}. */
    static TensorMap build(LaunchSpec spec, TensorMapSpec t, long base, String pointer) {
        ArgSpec buf = tensorMapBuffer(spec, t, pointer);
        int e = buf.type().bytes();
        long[] dims = t.dims().stream().mapToLong(Long::longValue).toArray();
        long[] strides = tensorMapStrides(spec, t, e, pointer);
        int[] box = new int[dims.length];
        java.util.Arrays.fill(box, 1);
        for (int i = 0; i < t.box().size(); i++) box[i] = t.box().get(i); // im2col: channelsPerPixel, pixelsPerColumn
        if (t.swizzle() != 0 && (long) box[0] * e > t.swizzle()) {
            throw JsonLocations.error(spec, pointer + boxPointer(t, 0), "with swizzle " + t.swizzle() + "B the box's inner"
                    + " dimension may span at most " + t.swizzle() + " bytes; it spans " + (long) box[0] * e);
        }
        tensorMapModes(spec, t, buf.type(), strides, pointer);
        int[] es = new int[dims.length];
        for (int i = 0; i < es.length; i++) es[i] = t.elementStrides() == null ? 1 : t.elementStrides().get(i);
        TensorMap.Im2col corners = t.im2col() == null ? null : new TensorMap.Im2col(
                t.im2col().lowerCorner().stream().mapToInt(Integer::intValue).toArray(),
                t.im2col().upperCorner().stream().mapToInt(Integer::intValue).toArray());
        TensorMap tm = new TensorMap(dims.length, base, e, dims, strides, box, t.swizzle(), es, t.interleave(), t.oobNan(), null, corners);
        if (tm.boxBytes() > ProgramBuilder.MAX_SHARED) {
            throw JsonLocations.error(spec, pointer + boxPointer(t, -1), "a tensorMap box of " + tm.boxBytes() + " bytes cannot fit in shared memory");
        }
        return tm;
    }

    /** The buffer a tensor map describes (a buffer argument or one of the launch's "buffers"). */
    static ArgSpec tensorMapBuffer(LaunchSpec spec, TensorMapSpec t, String pointer) {
        for (ArgSpec x : spec.args()) if (x.isBuffer() && x.buffer().equals(t.buffer())) return x;
        for (ArgSpec x : spec.buffers()) if (x.isBuffer() && x.buffer().equals(t.buffer())) return x;
        throw JsonLocations.error(spec, pointer + "/buffer", "tensorMap names buffer '" + t.buffer()
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
            throw JsonLocations.error(spec, pointer + "/dims", "the tensorMap over '" + t.buffer() + "' has dimensions whose packed size exceeds 2^63 bytes");
        }
        if (t.strides() != null) {
            // cuTensorMapEncodeTiled/Im2col: "each following dimension specified includes previous dimension
            // stride" (globalStrides[0] = globalDim[0] * elementSize + padding[0], and so on): rows never overlap.
            for (int i = 1; i < rank; i++) {
                long inner = i == 1 ? (long) elementBytes * t.dims().get(0) : multiplySaturated(strides[i - 2], t.dims().get(i - 1));
                if (strides[i - 1] < inner) {
                    throw JsonLocations.error(spec, pointer + "/strides/" + (i - 1), "stride " + strides[i - 1] + " of dimension " + i
                            + " is smaller than the " + inner + " bytes of dimension " + (i - 1) + " it must include (" + t.dims().get(i - 1)
                            + " x " + (i == 1 ? elementBytes + "-byte elements" : "stride " + strides[i - 2])
                            + "): cuTensorMapEncodeTiled requires each stride to include the previous dimension's, so rows never overlap");
                }
            }
        }
        return strides;
    }

    private static long multiplySaturated(long a, long b) {
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
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
            throw JsonLocations.error(spec, pointer + "/dims", "the tensorMap over '" + t.buffer() + "' spans " + (over ? "more than 2^63" : extent)
                    + " bytes but the buffer has " + size);
        }
        long box = e;
        for (int b : t.box()) box *= b; // at most 8 * 256^5: no overflow
        if (box > ProgramBuilder.MAX_SHARED) {
            throw JsonLocations.error(spec, pointer + boxPointer(t, -1), "a tensorMap box of " + box + " bytes cannot fit in shared memory");
        }
    }

    /**
     * The constraints cuTensorMapEncodeTiled puts on interleave, swizzle, box and fill (CUDA driver
     * API, Tensor Map Object Management), each refused at its launch-file location: an interleaved
     * map has rank 3 or more; 32B interleave needs 32B swizzle and strides that are multiples of 32
     * bytes; without interleave the box's inner dimension spans a multiple of 16 bytes and the
     * traversal stride of dimension 0 is 1 (PTX ISA 5.5.3.2); the box spans a multiple of 16 bytes
     * (5.5.3.1); NaN fill needs a floating-point element type. An interleaved im2col map that
     * passes the driver's rules is refused as not modelled.
     */
    static void tensorMapModes(LaunchSpec spec, TensorMapSpec t, io.barrierscope.ptx.ScalarType type, long[] strides, String pointer) {
        int e = type.bytes();
        if (t.interleave() != 0 && t.dims().size() < 3) {
            throw JsonLocations.error(spec, pointer + "/interleave", "an interleaved tensorMap needs 3 to 5 dimensions, not " + t.dims().size());
        }
        if (t.interleave() == 32 && t.swizzle() != 32) {
            throw JsonLocations.error(spec, pointer + "/swizzle", "with interleave 32B the swizzle must be 32B");
        }
        if (t.interleave() == 32) {
            for (int i = 0; i < strides.length; i++) {
                if (strides[i] % 32 != 0) {
                    throw JsonLocations.error(spec, pointer + (t.strides() == null ? "/dims" : "/strides/" + i), "with interleave 32B the byte strides must be"
                            + " multiples of 32; stride of dimension " + (i + 1) + " is " + strides[i]);
                }
            }
        }
        if (t.interleave() == 0 && ((long) t.box().get(0) * e) % 16 != 0) {
            throw JsonLocations.error(spec, pointer + boxPointer(t, 0), "without interleave the box's inner dimension must span a multiple of 16 bytes; it spans "
                    + (long) t.box().get(0) * e);
        }
        if (t.interleave() == 0 && t.elementStrides() != null && t.elementStrides().get(0) != 1) {
            throw JsonLocations.error(spec, pointer + "/elementStrides/0", "without interleave the traversal stride of dimension 0 must be 1 (PTX ISA 5.5.3.2)");
        }
        long boxBytes = e;
        for (int b : t.box()) boxBytes *= b;
        if (boxBytes % 16 != 0) {
            throw JsonLocations.error(spec, pointer + boxPointer(t, -1), "a bounding box must span a multiple of 16 bytes (PTX ISA 5.5.3.1); this one spans " + boxBytes);
        }
        if (t.oobNan() && !type.isFloat()) {
            throw JsonLocations.error(spec, pointer + "/oobFill", "NaN fill needs a floating-point buffer; '" + t.buffer() + "' is " + type.ptxName());
        }
        // cuTensorMapEncodeIm2col accepts an interleave, but neither it nor the ISA says how the
        // interleaved chunk dimension maps onto im2col's channels and pixels: refused once the
        // driver's own rules (above and the others) have passed, so a map the driver refuses gets its reason.
        if (t.im2col() != null && t.interleave() != 0) {
            throw JsonLocations.error(spec, pointer + "/interleave", "interleaved im2col tensorMaps are not modelled (im2col with interleave none"
                    + " is): neither the PTX ISA (5.5.4) nor cuTensorMapEncodeIm2col says how the interleaved chunk dimension maps onto"
                    + " im2col's channels and pixels");
        }
    }

    /**
     * Where the launch file gives the box: {@code /box/i} ({@code /box} for i = -1); an im2col map's
     * box is channelsPerPixel (inner dimension) by pixelsPerColumn.
     */
    static String boxPointer(TensorMapSpec t, int i) {
        if (t.im2col() != null) return i == 0 ? "/channelsPerPixel" : "/pixelsPerColumn";
        return i < 0 ? "/box" : "/box/" + i;
    }
}
