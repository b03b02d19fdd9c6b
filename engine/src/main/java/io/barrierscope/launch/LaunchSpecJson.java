package io.barrierscope.launch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.exec.Dim3;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link LaunchSpec} back as launch-file JSON (interfaces.md), canonical and
 * self-contained, so a trace can carry its launch and {@link LaunchFileReader#readText} can
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
        if (spec.expect() != null) root.set("expect", expect(spec.expect()));
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

    private static ObjectNode arg(ArgSpec a) {
        ObjectNode o = JSON.createObjectNode();
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
            ArrayNode box = tm.putArray("box");
            t.box().forEach(box::add);
            return o;
        }
        if (!a.isBuffer()) {
            o.put("type", a.type().ptxName());
            number(o, "value", a.value());
            return o;
        }
        o.put("buffer", a.buffer());
        o.put("type", a.type().ptxName());
        o.put("count", a.count());
        o.put("init", a.init());
        if (a.data() != null) numbers(o.putArray("data"), a.data());
        return o;
    }

    private static ObjectNode expect(Expectation e) {
        ObjectNode o = JSON.createObjectNode();
        if (e.outcome() != null) o.put("outcome", e.outcome());
        if (!e.buffers().isEmpty()) {
            ObjectNode b = o.putObject("buffers");
            for (Map.Entry<String, List<Number>> en : e.buffers().entrySet()) numbers(b.putArray(en.getKey()), en.getValue());
        }
        if (!e.diagnostics().isEmpty()) {
            ArrayNode d = o.putArray("diagnostics");
            e.diagnostics().forEach(d::add);
        }
        return o;
    }

    private static void number(ObjectNode o, String key, Number n) {
        if (n instanceof Double || n instanceof Float) o.put(key, n.doubleValue());
        else if (n instanceof java.math.BigInteger b) o.put(key, b); // a u64 above 2^63-1, written as read
        else o.put(key, n.longValue());
    }

    private static void numbers(ArrayNode a, List<Number> ns) {
        for (Number n : ns) {
            if (n instanceof Double || n instanceof Float) a.add(n.doubleValue());
            else if (n instanceof java.math.BigInteger b) a.add(b);
            else a.add(n.longValue());
        }
    }
}
