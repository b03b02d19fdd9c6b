package io.barrierscope.launch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.exec.Dim3;
import io.barrierscope.ptx.ScalarType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link LaunchSpec} back as launch-file JSON (README, "Command line"), canonical and
 * self-contained, so a trace can carry its launch and {@link LaunchValidation#validateText} can
 * validate it again when the trace is opened.
 */
public final class LaunchSpecJson {
    private static final ObjectMapper JSON = new ObjectMapper();

    private LaunchSpecJson() {}

    public static String write(LaunchSpec spec, String policy, long seed, long maxSteps) {
        ObjectNode root = JSON.createObjectNode();
        Path dir = spec.file().getParent();
        root.put("ptx", dir == null ? spec.ptx().getFileName().toString() : dir.relativize(spec.ptx()).toString());
        if (spec.kernel() != null) root.put("kernel", spec.kernel());
        root.set("grid", dim(spec.grid()));
        root.set("block", dim(spec.block()));
        if (spec.cluster() != null) root.set("cluster", dim(spec.cluster()));
        if (spec.dynamicSharedBytes() > 0) root.put("dynamicSharedBytes", spec.dynamicSharedBytes());
        ArrayNode args = root.putArray("args");
        for (ArgSpec a : spec.args()) args.add(arg(a));
        if (!spec.buffers().isEmpty()) {
            ArrayNode bs = root.putArray("buffers");
            for (ArgSpec a : spec.buffers()) bs.add(arg(a));
        }
        if (spec.device() != null) {
            // A bundle's module state, inline (a trace carries no files beside its launch).
            DeviceImage d = spec.device();
            root.put("globalBase", "0x" + Long.toHexString(d.globalBase()));
            if (!d.globals().isEmpty()) namedBytes(root.putObject("globals"), d.globals());
            if (!d.constants().isEmpty()) namedBytes(root.putObject("constants"), d.constants());
        }
        if (spec.expect() != null) root.set("expect", expect(spec.expect(), spec));
        ObjectNode run = root.putObject("run");
        run.put("policy", policy);
        run.put("seed", seed);
        run.put("maxSteps", maxSteps);
        // Only when set, so traces of launches without one keep their bytes.
        if (spec.latency() != null) {
            ObjectNode lat = run.putObject("latency");
            lat.put("min", spec.latency().min());
            lat.put("max", spec.latency().max());
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ArrayNode dim(Dim3 d) {
        ArrayNode a = JSON.createArrayNode();
        a.add(d.x()).add(d.y()).add(d.z());
        return a;
    }

    private static void namedBytes(ObjectNode o, Map<String, byte[]> m) {
        for (Map.Entry<String, byte[]> e : m.entrySet()) o.putObject(e.getKey()).put("base64", java.util.Base64.getEncoder().encodeToString(e.getValue()));
    }

    private static ObjectNode struct(StructSpec st) {
        ObjectNode o = JSON.createObjectNode();
        if (st.bytes() != null) o.put("bytes", st.bytes());
        if (st.initial() != null) o.put("base64", java.util.Base64.getEncoder().encodeToString(st.initial()));
        if (!st.fields().isEmpty()) {
            ArrayNode fs = o.putArray("fields");
            for (StructSpec.Field f : st.fields()) {
                ObjectNode fo = fs.addObject();
                fo.put("offset", f.offset());
                if (f.tensorMap() != null) fo.set("tensorMap", tensorMap(f.tensorMap()));
                else if (f.pointer() != null) {
                    fo.put("pointer", f.pointer());
                    if (f.plus() != 0) fo.put("plus", f.plus());
                } else {
                    fo.put("type", f.type().ptxName());
                    number(fo, "value", f.value(), f.type());
                }
            }
        }
        return o;
    }

    private static ObjectNode tensorMap(TensorMapSpec t) {
        ObjectNode tm = JSON.createObjectNode();
        tm.put("buffer", t.buffer());
        ArrayNode dims = tm.putArray("dims");
        t.dims().forEach(dims::add);
        if (t.strides() != null) {
            ArrayNode st = tm.putArray("strides");
            t.strides().forEach(st::add);
        }
        box(tm, t);
        if (t.swizzle() != 0) tm.put("swizzle", t.swizzle() + "B");
        modes(tm, t);
        return tm;
    }

    /** The box: "box", or for an im2col map its mode, corners, channelsPerPixel and pixelsPerColumn. */
    private static void box(ObjectNode tm, TensorMapSpec t) {
        if (t.im2col() == null) {
            ArrayNode box = tm.putArray("box");
            t.box().forEach(box::add);
            return;
        }
        tm.put("mode", "im2col");
        ArrayNode lo = tm.putArray("lowerCorner");
        t.im2col().lowerCorner().forEach(lo::add);
        ArrayNode hi = tm.putArray("upperCorner");
        t.im2col().upperCorner().forEach(hi::add);
        tm.put("channelsPerPixel", t.box().get(0));
        tm.put("pixelsPerColumn", t.box().get(1));
    }

    /** The fields a map has only when they differ from the defaults (traversal strides 1, no interleave, zero fill). */
    private static void modes(ObjectNode tm, TensorMapSpec t) {
        if (t.elementStrides() != null) {
            ArrayNode es = tm.putArray("elementStrides");
            t.elementStrides().forEach(es::add);
        }
        if (t.interleave() != 0) tm.put("interleave", t.interleave() + "B");
        if (t.oobNan()) tm.put("oobFill", "nan");
    }

    private static ObjectNode arg(ArgSpec a) {
        ObjectNode o = JSON.createObjectNode();
        if (a.isStruct()) {
            o.set("struct", struct(a.extras().struct()));
            return o;
        }
        if (a.isTensorMap()) {
            TensorMapSpec t = a.tensorMap();
            ObjectNode tm = o.putObject("tensorMap");
            tm.put("buffer", t.buffer());
            ArrayNode dims = tm.putArray("dims");
            t.dims().forEach(dims::add);
            if (t.strides() != null) {
                ArrayNode st = tm.putArray("strides");
                t.strides().forEach(st::add);
            }
            box(tm, t);
            if (t.swizzle() != 0) tm.put("swizzle", t.swizzle() + "B");
            modes(tm, t);
            return o;
        }
        if (!a.isBuffer()) {
            o.put("type", a.type().ptxName());
            number(o, "value", a.value(), a.type());
            return o;
        }
        o.put("buffer", a.buffer());
        o.put("type", a.type().ptxName());
        if (a.address() != null) o.put("address", "0x" + Long.toHexString(a.address()));
        if (a.extras() != null && a.extras().bytes() != null) {
            o.put("base64", java.util.Base64.getEncoder().encodeToString(a.extras().bytes()));
            return o;
        }
        o.put("count", a.count());
        o.put("init", a.init());
        if (a.data() != null) numbers(o.putArray("data"), a.data(), a.type());
        return o;
    }

    private static ObjectNode expect(Expectation e, LaunchSpec spec) {
        ObjectNode o = JSON.createObjectNode();
        if (e.outcome() != null) o.put("outcome", e.outcome());
        if (!e.buffers().isEmpty()) {
            ObjectNode b = o.putObject("buffers");
            for (Map.Entry<String, List<Number>> en : e.buffers().entrySet()) {
                numbers(b.putArray(en.getKey()), en.getValue(), bufferType(spec, en.getKey()));
            }
        }
        if (!e.diagnostics().isEmpty()) {
            ArrayNode d = o.putArray("diagnostics");
            e.diagnostics().forEach(d::add);
        }
        return o;
    }

    private static ScalarType bufferType(LaunchSpec spec, String name) {
        for (ArgSpec a : spec.args()) if (a.isBuffer() && name.equals(a.buffer())) return a.type();
        for (ArgSpec a : spec.buffers()) if (name.equals(a.buffer())) return a.type();
        return null;
    }

    /**
     * An integer built in code is a bit pattern of its type (a u64 of -1 is 2^64-1, an f64's bits
     * passed as a u64 are a negative long): written as the value of that type a launch file
     * holds, so the launch reads back (and a trace of it reopens). Values already in range are
     * written as they are.
     */
    static Number asWritten(Number n, ScalarType t) {
        if (t == null || t.isFloat() || n instanceof Double || n instanceof Float || n instanceof java.math.BigInteger) return n;
        long v = n.longValue();
        int bits = t.bits();
        if (bits >= 64) return !t.isSigned() && v < 0 ? new java.math.BigInteger(Long.toUnsignedString(v)) : n;
        long lo = t.isSigned() ? -(1L << (bits - 1)) : 0;
        long hi = t.isSigned() ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
        if (v >= lo && v <= hi) return n;
        long low = v & ((1L << bits) - 1);
        return t.isSigned() ? (low << (64 - bits)) >> (64 - bits) : low;
    }

    private static void number(ObjectNode o, String key, Number n, ScalarType t) { o.set(key, node(asWritten(n, t))); }

    private static void numbers(ArrayNode a, List<Number> ns, ScalarType t) {
        for (Number n : ns) a.add(node(asWritten(n, t)));
    }

    private static JsonNode node(Number n) {
        if (n instanceof Double || n instanceof Float) return JSON.getNodeFactory().numberNode(n.doubleValue());
        if (n instanceof java.math.BigInteger b) return JSON.getNodeFactory().numberNode(b); // a u64 above 2^63-1
        return JSON.getNodeFactory().numberNode(n.longValue());
    }
}
