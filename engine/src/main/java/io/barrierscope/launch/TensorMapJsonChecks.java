package io.barrierscope.launch;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The {@code "tensorMap"} argument of a launch file (a kernel's 128-byte {@code CUtensorMap}):
 * tiled and im2col maps checked as cuTensorMapEncodeTiled / cuTensorMapEncodeIm2col bound them,
 * every problem located through the {@link LaunchJsonChecks} reading the file.
 */
final class TensorMapJsonChecks {
    private final LaunchJsonChecks c;

    TensorMapJsonChecks(LaunchJsonChecks c) { this.c = c; }

    ArgSpec tensorMap(JsonNode t, String ptr) {
        if (!t.isObject()) throw c.bad(ptr, "\"tensorMap\" is an object {buffer, dims, box, strides?, swizzle?, "
                + "elementStrides?, interleave?, oobFill?, mode?} (an im2col map has lowerCorner, upperCorner, "
                + "channelsPerPixel and pixelsPerColumn instead of box)");
        boolean im2col = false;
        if (t.has("mode")) {
            String mode = c.text(t, "mode", true, ptr + "/mode");
            if (!mode.equals("tile") && !mode.equals("im2col")) throw c.bad(ptr + "/mode", "unknown tensorMap mode '" + mode + "' (expected tile or im2col)");
            im2col = mode.equals("im2col");
        }
        Set<String> keys = new java.util.TreeSet<>(Set.of("buffer", "dims", "strides", "swizzle", "elementStrides", "interleave", "oobFill", "mode"));
        keys.addAll(im2col ? Set.of("lowerCorner", "upperCorner", "channelsPerPixel", "pixelsPerColumn") : Set.of("box"));
        if (im2col && t.has("box")) {
            throw c.bad(ptr + "/box", "an im2col tensorMap has no \"box\": it gives channelsPerPixel and pixelsPerColumn (cuTensorMapEncodeIm2col)");
        }
        c.unknownKeys(t, ptr, keys);
        String buffer = c.text(t, "buffer", true, ptr + "/buffer");
        List<Long> dims = c.longs(t.get("dims"), ptr + "/dims", 1, 5, 1, 1L << 32);
        TensorMapSpec.Im2col corners = im2col ? im2colCorners(t, ptr, dims) : null;
        List<Long> box = !im2col ? c.longs(t.get("box"), ptr + "/box", dims.size(), dims.size(), 1, 256)
                : List.of(im2colCount(t, "channelsPerPixel", ptr, 256), im2colCount(t, "pixelsPerColumn", ptr, 1024));
        List<Long> strides = t.has("strides") ? c.longs(t.get("strides"), ptr + "/strides", dims.size() - 1, dims.size() - 1, 16, 1L << 40)
                : null;
        if (strides != null) {
            for (int i = 0; i < strides.size(); i++) {
                if (strides.get(i) % 16 != 0) throw c.bad(ptr + "/strides/" + i, "tensor strides must be multiples of 16 bytes (as for cuTensorMapEncodeTiled)");
            }
        }
        int swizzle = 0;
        if (t.has("swizzle")) {
            String sw = c.text(t, "swizzle", true, ptr + "/swizzle");
            swizzle = switch (sw) {
                case "none" -> 0;
                case "32B" -> 32;
                case "64B" -> 64;
                case "128B" -> 128;
                default -> throw c.bad(ptr + "/swizzle", "unknown swizzle '" + sw + "' (expected none, 32B, 64B or 128B)");
            };
        }
        // cuTensorMapEncodeTiled: each traversal stride is 1..8; interleave none, 16B or 32B; fill zero or NaN.
        List<Integer> elementStrides = t.has("elementStrides")
                ? c.longs(t.get("elementStrides"), ptr + "/elementStrides", dims.size(), dims.size(), 1, 8).stream().map(Long::intValue).toList()
                : null;
        int interleave = 0;
        if (t.has("interleave")) {
            String il = c.text(t, "interleave", true, ptr + "/interleave");
            interleave = switch (il) {
                case "none" -> 0;
                case "16B" -> 16;
                case "32B" -> 32;
                default -> throw c.bad(ptr + "/interleave", "unknown interleave '" + il + "' (expected none, 16B or 32B)");
            };
        }
        boolean oobNan = false;
        if (t.has("oobFill")) {
            String f = c.text(t, "oobFill", true, ptr + "/oobFill");
            oobNan = switch (f) {
                case "zero" -> false;
                case "nan" -> true;
                default -> throw c.bad(ptr + "/oobFill", "unknown oobFill '" + f + "' (expected zero or nan)");
            };
        }
        return new ArgSpec(buffer, null, 0, null, null, null, new TensorMapSpec(buffer, dims, strides,
                box.stream().map(Long::intValue).toList(), swizzle, elementStrides, interleave, oobNan, corners));
    }

    /** channelsPerPixel (1..256) or pixelsPerColumn (1..1024) of an im2col map, as cuTensorMapEncodeIm2col bounds them. */
    private long im2colCount(JsonNode t, String key, String ptr, long max) {
        if (!t.has(key)) throw c.bad(ptr, "an im2col tensorMap needs \"" + key + "\"");
        return c.integer(t.get(key), ptr + "/" + key, 1, max);
    }

    /**
     * The bounding box of an im2col map (PTX ISA 5.5.4.1): 3 to 5 dimensions; one lower and one
     * upper corner per spatial dimension (W first), signed, 16 bits for 3D, 8 for 4D, 5 for 5D;
     * the box not empty (its upper coordinate dims[i] - 1 + upper at least its lower one).
     */
    private TensorMapSpec.Im2col im2colCorners(JsonNode t, String ptr, List<Long> dims) {
        int rank = dims.size();
        if (rank < 3) throw c.bad(ptr + "/dims", "an im2col tensorMap has 3 to 5 dimensions (NWC, NHWC, NDHWC; PTX ISA 5.5.4), not " + rank);
        int bits = rank == 3 ? 16 : rank == 4 ? 8 : 5;
        long lim = 1L << (bits - 1);
        List<List<Integer>> both = new ArrayList<>();
        for (String key : List.of("lowerCorner", "upperCorner")) {
            if (!t.has(key)) throw c.bad(ptr, "an im2col tensorMap needs \"" + key + "\" (one value per spatial dimension, W first)");
            List<Long> v = signedLongs(t.get(key), ptr + "/" + key, rank - 2, -lim, lim - 1,
                    " (a " + rank + "-d map's corners are " + bits + "-bit signed, PTX ISA 5.5.4.1)");
            both.add(v.stream().map(Long::intValue).toList());
        }
        for (int j = 0; j < rank - 2; j++) {
            if (dims.get(j + 1) - 1 + both.get(1).get(j) < both.get(0).get(j)) {
                throw c.bad(ptr + "/upperCorner/" + j, "the bounding box of dimension " + (j + 1) + " is empty: its upper coordinate "
                        + (dims.get(j + 1) - 1 + both.get(1).get(j)) + " (dims - 1 + upperCorner) is below its lower corner " + both.get(0).get(j));
            }
        }
        return new TensorMapSpec.Im2col(both.get(0), both.get(1));
    }

    private List<Long> signedLongs(JsonNode a, String ptr, int size, long min, long max, String why) {
        if (a == null || !a.isArray() || a.size() != size) throw c.bad(ptr, "expected an array of " + size + " integers (one per spatial dimension, W first)");
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            JsonNode n = a.get(i);
            if (!n.isIntegralNumber() || n.asLong() < min || n.asLong() > max) {
                throw c.bad(ptr + "/" + i, "expected an integer from " + min + " to " + max + why);
            }
            out.add(n.asLong());
        }
        return out;
    }
}
