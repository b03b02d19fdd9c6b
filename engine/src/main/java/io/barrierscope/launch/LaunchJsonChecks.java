package io.barrierscope.launch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.barrierscope.exec.AsyncLatency;
import io.barrierscope.exec.Dim3;
import io.barrierscope.ptx.ScalarType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The part of {@link LaunchValidation} that checks a launch's JSON (everything checkable without
 * its PTX: structure, kinds, keys, scalar ranges, the PTX path as text and, for a file on disk, as
 * a file) while turning it into a {@link LaunchSpec}; every problem is a {@link BadInputException}
 * naming file:line:col. Reached only through {@link LaunchValidation}'s entry points.
 */
final class LaunchJsonChecks {
    /** Launch files larger than this are refused before reading. */
    public static final long MAX_FILE_BYTES = 16L << 20;
    /** Elements one buffer may have. */
    public static final long MAX_BUFFER_ELEMENTS = 64L << 20;

    private static final Set<String> TOP = Set.of("ptx", "kernel", "grid", "block", "cluster", "args", "buffers", "expect", "run",
            "dynamicSharedBytes", "description", "name", "globalBase", "globals", "constants");
    private static final Set<String> RUN = Set.of("policy", "seed", "maxSteps", "latency");

    private final Path file;
    /** The launch text, to show the offending line in messages. */
    private String source;

    private final String givenText;
    /** What messages call the text: the file, or for a launch built in code what it was built for ({@link JsonLocations#name}). */
    private final Object shown;

    private LaunchJsonChecks(Path file, String text, Object shown) {
        this.file = file;
        this.givenText = text;
        this.shown = shown;
    }

    static LaunchSpec read(Path file) {
        Path f = file.toAbsolutePath().normalize();
        return new LaunchJsonChecks(f, null, f).read();
    }

    /**
     * Reads launch JSON held in memory (a trace carries its launch); {@code file} names it in
     * messages and anchors the PTX path, which need not exist on disk.
     */
    static LaunchSpec readText(Path file, String text) {
        Path f = file.toAbsolutePath().normalize();
        return new LaunchJsonChecks(f, text, f).read();
    }

    /** As {@link #readText(Path, String)}, messages calling the text {@code shown} (a launch built in code: {@link JsonLocations#name}). */
    static LaunchSpec readText(Path file, String text, Object shown) {
        return new LaunchJsonChecks(file.toAbsolutePath().normalize(), text, shown).read();
    }

    BadInputException bad(String pointer, String msg) { return JsonLocations.error(shown, source, pointer, msg); }

    /**
     * The JSON parser's message without its own settings: it advised "enable
     * `JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS` to allow" and printed "[Source: REDACTED
     * (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); line: 1, column: 1]", Java names a
     * user cannot act on. What JSON does not allow is said so.
     */
    static String plainJsonMessage(String msg) {
        String m = msg.replaceAll(": enable `[A-Za-z_.]+` to allow", " (JSON does not allow it)")
                .replaceAll(" \\(not recognized as one since Feature '[A-Z_]+' not enabled for parser\\)", " (JSON has no comments)")
                .replaceAll("\\[Source: [^;\\]]*?(\\([^)]*\\))?; ", "[");
        return m.replace("(start marker at [line: ", "(opened at line ").replace("(for root starting at [line: ", "(for the value opened at line ")
                .replace(", column: ", ", column ").replace("])", ")");
    }

    private LaunchSpec read() {
        String text = givenText;
        if (text != null && text.length() > MAX_FILE_BYTES) throw new BadInputException(shown + ": error: launch larger than 16 MiB");
        if (text == null) text = Utf8Text.read(file, "launch file", MAX_FILE_BYTES);
        this.source = text;
        JsonNode root;
        try {
            // Floats as decimals (integers are checked exactly as written) and nothing after the object.
            root = new ObjectMapper(JsonLocations.factory()).enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readTree(JsonLocations.floatsAsDecimals(JsonLocations.factory().createParser(text)));
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            String msg = e.getOriginalMessage();
            throw new BadInputException(JsonLocations.located(shown, text, loc == null ? 1 : loc.getLineNr(), loc == null ? 1 : loc.getColumnNr(),
                    "invalid JSON: " + plainJsonMessage(msg.lines().findFirst().orElse(msg))));
        } catch (IOException e) {
            throw new BadInputException(file + ": error: cannot read: " + e.getMessage());
        }
        if (root == null || !root.isObject()) throw bad("", "a launch file is a JSON object");
        unknownKeys(root, "", TOP);
        Path ptx = ptxPath(text(root, "ptx", true));
        if (givenText == null) {
            if (Files.isDirectory(ptx)) throw bad("/ptx", "PTX path " + ptx + " is a directory, not a file");
            if (!Files.exists(ptx)) throw bad("/ptx", "PTX file " + ptx + " does not exist");
            if (!Files.isRegularFile(ptx)) throw bad("/ptx", "PTX path " + ptx + " is not a regular file (a device or pipe is not read)");
        }
        String kernel = text(root, "kernel", false);
        Dim3 grid = dim(root, "grid", Dim3.ONE);
        Dim3 block = dim(root, "block", new Dim3(32, 1, 1));
        Dim3 cluster = root.has("cluster") ? dim(root, "cluster", Dim3.ONE) : null;
        List<ArgSpec> args = new ArrayList<>();
        JsonNode a = root.get("args");
        if (a != null) {
            if (!a.isArray()) throw bad("/args", "\"args\" must be an array");
            for (int i = 0; i < a.size(); i++) args.add(arg(a.get(i), "/args/" + i));
        }
        List<ArgSpec> extra = new ArrayList<>();
        JsonNode bs = root.get("buffers");
        if (bs != null) {
            if (!bs.isArray()) throw bad("/buffers", "\"buffers\" must be an array of buffers");
            for (int i = 0; i < bs.size(); i++) {
                ArgSpec b = arg(bs.get(i), "/buffers/" + i);
                if (!b.isBuffer()) throw bad("/buffers/" + i, "\"buffers\" holds buffers only");
                extra.add(b);
            }
        }
        int dyn = root.has("dynamicSharedBytes") ? (int) integer(root.get("dynamicSharedBytes"), "/dynamicSharedBytes", 0, 227 * 1024) : 0;
        Map<String, ScalarType> bufferTypes = new LinkedHashMap<>();
        Set<String> bufferNames = new java.util.LinkedHashSet<>();
        for (List<ArgSpec> l : List.of(args, extra)) {
            for (ArgSpec b : l) {
                if (b.isBuffer()) bufferNames.add(b.buffer());
                if (b.isBuffer() && b.type() != null) bufferTypes.putIfAbsent(b.buffer(), b.type());
            }
        }
        Expectation expect = root.has("expect") ? expect(root.get("expect"), bufferTypes, bufferNames) : null;
        String policy = "round-robin";
        long seed = 0;
        long maxSteps = LaunchSpec.DEFAULT_MAX_STEPS;
        AsyncLatency latency = null;
        JsonNode run = root.get("run");
        if (run != null) {
            if (!run.isObject()) throw bad("/run", "\"run\" must be an object");
            unknownKeys(run, "/run", RUN);
            if (run.has("policy")) policy = text(run, "policy", true, "/run/policy");
            if (!io.barrierscope.exec.Policy.NAMES.contains(policy)) {
                throw bad("/run/policy", "unknown policy '" + policy + "' (expected round-robin, random or adversarial)");
            }
            if (run.has("seed")) seed = integer(run.get("seed"), "/run/seed", Long.MIN_VALUE, Long.MAX_VALUE);
            if (run.has("maxSteps")) maxSteps = integer(run.get("maxSteps"), "/run/maxSteps", 1, Long.MAX_VALUE);
            if (run.has("latency")) latency = latency(run.get("latency"));
        }
        DeviceImage device = root.has("globalBase") || root.has("globals") || root.has("constants") ? deviceImage(root) : null;
        return new LaunchSpec(file, ptx, kernel, grid, block, cluster, args, dyn, expect, policy, seed, maxSteps, List.of(), extra, latency,
                source, device);
    }

    /** A launch bundle's module state: {@code "globalBase": "0x..."}, {@code "globals"}/{@code "constants"}: name to bytes. */
    private DeviceImage deviceImage(JsonNode root) {
        long base = io.barrierscope.exec.Space.GLOBAL_BASE;
        if (root.has("globalBase")) {
            base = address(root.get("globalBase"), "/globalBase");
            if (base % 4096 != 0) throw bad("/globalBase", "\"globalBase\" must be a multiple of 4096");
            // Checked here, at its place: the memory's own check was reported at "kernel" as "bad global base".
            if (base < io.barrierscope.exec.Space.GLOBAL_BASE || base >= io.barrierscope.exec.Space.SHARED_WINDOW) {
                throw bad("/globalBase", "\"globalBase\" must lie in device global memory, 0x"
                        + Long.toHexString(io.barrierscope.exec.Space.GLOBAL_BASE) + " to below 0x"
                        + Long.toHexString(io.barrierscope.exec.Space.SHARED_WINDOW) + " (lower addresses stay unmapped, higher ones are other spaces)");
            }
        }
        return new DeviceImage(base, namedBytes(root, "globals"), namedBytes(root, "constants"));
    }

    private Map<String, byte[]> namedBytes(JsonNode root, String key) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        JsonNode n = root.get(key);
        if (n == null) return out;
        if (!n.isObject()) throw bad("/" + key, "\"" + key + "\" maps variable names to {\"file\": F} or {\"base64\": B}");
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            String ptr = "/" + key + "/" + name;
            if (!n.get(name).isObject()) throw bad(ptr, "expected {\"file\": F} or {\"base64\": B}");
            unknownKeys(n.get(name), ptr, Set.of("file", "base64"));
            out.put(name, bytes(n.get(name), ptr));
        }
        return out;
    }

    /** A device address: a non-negative integer or a "0x..." string (64-bit addresses do not fit JSON numbers everywhere). */
    private long address(JsonNode n, String ptr) {
        if (n.isIntegralNumber()) return integer(n, ptr, 0, Long.MAX_VALUE);
        if (n.isTextual() && n.asText().matches("0[xX][0-9a-fA-F]{1,16}")) {
            try {
                long v = Long.parseUnsignedLong(n.asText().substring(2), 16);
                if (v >= 0) return v;
            } catch (NumberFormatException e) {
                // falls through to the message
            }
        }
        throw bad(ptr, "expected an address: a non-negative integer or a \"0x...\" string");
    }

    private static long mib(long bytes) { return (bytes + (1 << 20) - 1) >> 20; }

    /** Why a buffer's file of {@code size} bytes cannot be held with {@code free} bytes of heap, or null when it can. */
    static String tooLargeToHold(Path f, long size, long free, long max) {
        if (2 * size <= free) return null;
        return f + " is " + mib(size) + " MiB; holding it and its copy in the emulated memory takes about " + mib(2 * size)
                + " MiB but this Java has about " + mib(free) + " MiB free of " + mib(max) + " MiB: give it more with -Xmx";
    }

    /** Exact bytes: {@code "file"} (beside the launch file, at most 1 GiB) or {@code "base64"}. */
    private byte[] bytes(JsonNode n, String ptr) {
        if (n.has("file") == n.has("base64")) throw bad(ptr, "give the bytes as either \"file\" or \"base64\"");
        if (n.has("base64")) {
            try {
                return java.util.Base64.getDecoder().decode(text(n, "base64", true, ptr + "/base64"));
            } catch (IllegalArgumentException e) {
                throw bad(ptr + "/base64", "not base64: " + e.getMessage());
            }
        }
        String name = text(n, "file", true, ptr + "/file");
        Path f;
        try {
            f = file.getParent().resolve(name).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw bad(ptr + "/file", "not a file name: " + name);
        }
        try {
            if (Files.isDirectory(f)) throw bad(ptr + "/file", f + " is a directory, not a file");
            if (!Files.exists(f)) throw bad(ptr + "/file", "no such file " + f);
            if (!Files.isRegularFile(f)) throw bad(ptr + "/file", f + " is not a regular file (a device or pipe is not read)");
            long size = Files.size(f);
            if (size > (1L << 30)) throw bad(ptr + "/file", f + " is larger than 1 GiB");
            // Read before the launch's memory is counted, so counted here: two such files of 150 MB
            // ran a 256 MB heap out of memory. The bytes are held and copied into the emulated memory.
            long free = MemoryEstimate.freeHeap();
            if (2 * size > free) {
                System.gc(); // garbage is no reason to refuse: collected once before deciding
                free = MemoryEstimate.freeHeap();
            }
            String tooLarge = tooLargeToHold(f, size, free, Runtime.getRuntime().maxMemory());
            if (tooLarge != null) throw bad(ptr + "/file", tooLarge);
            byte[] b = Files.readAllBytes(f);
            if (b.length != size) throw bad(ptr + "/file", f + " changed while it was read (another program is writing it)");
            return b;
        } catch (IOException e) {
            throw bad(ptr + "/file", "cannot read " + f + ": " + e.getMessage());
        }
    }

    /**
     * {@code {"struct": {"bytes": N, "base64"|"file": ..., "fields": [...]}}}: a by-value struct
     * parameter, its bytes (zeros unless given) with fields written over them at byte offsets.
     */
    private ArgSpec struct(JsonNode n, String ptr) {
        if (!n.isObject()) throw bad(ptr, "\"struct\" is an object {bytes?, base64?|file?, fields?}");
        unknownKeys(n, ptr, Set.of("bytes", "base64", "file", "fields"));
        Integer size = n.has("bytes") ? (int) integer(n.get("bytes"), ptr + "/bytes", 1, 32764) : null;
        byte[] initial = n.has("base64") || n.has("file") ? bytes(n, ptr) : null;
        if (initial != null && size != null && initial.length != size) {
            throw bad(ptr, "the struct's bytes are " + initial.length + " long but \"bytes\" says " + size);
        }
        int len = size != null ? size : initial != null ? initial.length : -1;
        List<StructSpec.Field> fields = new ArrayList<>();
        JsonNode fs = n.get("fields");
        if (fs != null) {
            if (!fs.isArray()) throw bad(ptr + "/fields", "\"fields\" must be an array");
            for (int i = 0; i < fs.size(); i++) {
                String fp = ptr + "/fields/" + i;
                JsonNode f = fs.get(i);
                if (!f.isObject()) throw bad(fp, "a field is an object {offset, type+value | pointer+plus? | tensorMap}");
                long off = integer(f.get("offset"), fp + "/offset", 0, 32763);
                StructSpec.Field field;
                if (f.has("tensorMap")) {
                    unknownKeys(f, fp, Set.of("offset", "tensorMap"));
                    field = new StructSpec.Field(off, null, null, null, 0, new TensorMapJsonChecks(this).tensorMap(f.get("tensorMap"), fp + "/tensorMap").tensorMap());
                } else if (f.has("pointer")) {
                    unknownKeys(f, fp, Set.of("offset", "pointer", "plus"));
                    long plus = f.has("plus") ? integer(f.get("plus"), fp + "/plus", Long.MIN_VALUE, Long.MAX_VALUE) : 0;
                    field = new StructSpec.Field(off, null, null, text(f, "pointer", true, fp + "/pointer"), plus, null);
                } else {
                    unknownKeys(f, fp, Set.of("offset", "type", "value"));
                    ScalarType t = type(f, fp);
                    JsonNode v = f.get("value");
                    if (v == null || !v.isNumber()) throw bad(fp + "/value", "a scalar field needs a numeric \"value\"");
                    field = new StructSpec.Field(off, t, scalar(v, t, fp + "/value"), null, 0, null);
                }
                if (len >= 0 && off + field.size() > len) {
                    throw bad(fp + "/offset", "a " + field.size() + "-byte field at offset " + off + " does not fit the " + len + "-byte struct");
                }
                fields.add(field);
            }
        }
        return new ArgSpec(null, null, 0, null, null, null, null, new ArgSpec.Extras(null, null, new StructSpec(size, initial, fields)));
    }

    /**
     * The PTX path a launch names, resolved beside the launch file. It comes from an untrusted file
     * (a trace's embedded launch included), so it is checked as text before it becomes a path: no
     * control characters (a NUL ends the path for the OS), not empty, and a path this OS accepts.
     */
    private Path ptxPath(String name) {
        if (name.isEmpty()) throw bad("/ptx", "\"ptx\" is empty; it names the PTX file, relative to the launch file");
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                throw bad("/ptx", "\"ptx\" holds control character U+" + String.format("%04X", (int) c) + " at character " + (i + 1)
                        + "; a file name cannot");
            }
        }
        try {
            return file.getParent().resolve(name).normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw bad("/ptx", "\"ptx\" is not a valid path on this system: " + e.getReason());
        }
    }

    /**
     * A launch-file number as a value of type {@code t}: integers must be integral and within the
     * type's range (u64 up to 2^64-1, kept as a BigInteger above 2^63-1), floats finite and, for
     * f32, within f32's range. Nothing is truncated or wrapped silently.
     */
    private Number scalar(JsonNode v, ScalarType t, String ptr) {
        if (!v.isNumber()) throw bad(ptr, "expected a number");
        if (t.isFloat()) {
            double d = v.asDouble();
            if (!Double.isFinite(d)) throw bad(ptr, "the number is beyond the range of .f64 (it would read as infinity); a ." + t.ptxName() + " value must be finite");
            if (t == ScalarType.F32 && Float.isInfinite((float) d)) {
                throw bad(ptr, "the number " + v.asText() + " is outside the range of .f32 (about 3.4e38)");
            }
            return d;
        }
        java.math.BigInteger b;
        if (v.isIntegralNumber()) {
            b = v.bigIntegerValue();
        } else {
            // Exactly as written (floats are read as decimals): 1e-99999 or 1.0000000000000001 is no
            // integer, though a double would round it to one. The digits left of the point are
            // counted before any conversion, so 1e999999999 never becomes a billion-digit number.
            java.math.BigDecimal d = v.decimalValue().stripTrailingZeros();
            if (d.scale() > 0) throw bad(ptr, "." + t.ptxName() + " takes integers; " + v.asText() + " is not one");
            if (d.precision() - d.scale() > 40) {
                throw bad(ptr, "value " + v.asText() + " is outside the range of ." + t.ptxName());
            }
            b = d.toBigIntegerExact();
        }
        java.math.BigInteger min = minOf(t);
        java.math.BigInteger max = maxOf(t);
        if (b.compareTo(min) < 0 || b.compareTo(max) > 0) {
            throw bad(ptr, "value " + b + " is outside the range of ." + t.ptxName() + " (" + min + ".." + max + ")");
        }
        return b.bitLength() < 64 ? (Number) b.longValue() : b;
    }

    /** The least value of integer type {@code t}. */
    private static java.math.BigInteger minOf(ScalarType t) {
        return t.isSigned() ? java.math.BigInteger.ONE.shiftLeft(t.bits() - 1).negate() : java.math.BigInteger.ZERO;
    }

    /** The greatest value of integer type {@code t}. */
    private static java.math.BigInteger maxOf(ScalarType t) {
        return java.math.BigInteger.ONE.shiftLeft(t.isSigned() ? t.bits() - 1 : t.bits()).subtract(java.math.BigInteger.ONE);
    }

    /** {@code "latency": N} (cycles, every copy) or {@code {"min": A, "max": B}} (a range the seeded policies draw from). */
    private AsyncLatency latency(JsonNode n) {
        if (n.isIntegralNumber()) {
            long v = integer(n, "/run/latency", 1, AsyncLatency.LIMIT);
            return new AsyncLatency(v, v);
        }
        if (!n.isObject()) throw bad("/run/latency", "\"latency\" is a number of cycles or {\"min\": A, \"max\": B}");
        unknownKeys(n, "/run/latency", Set.of("min", "max"));
        if (!n.has("min") || !n.has("max")) throw bad("/run/latency", "a latency range needs both \"min\" and \"max\"");
        long min = integer(n.get("min"), "/run/latency/min", 1, AsyncLatency.LIMIT);
        long max = integer(n.get("max"), "/run/latency/max", 1, AsyncLatency.LIMIT);
        if (max < min) throw bad("/run/latency/max", "max " + max + " is below min " + min);
        return new AsyncLatency(min, max);
    }

    void unknownKeys(JsonNode obj, String at, Set<String> known) {
        for (Iterator<String> it = obj.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!known.contains(k)) throw bad(at + "/" + k, "unknown key \"" + k + "\" (known: " + String.join(", ", known.stream().sorted().toList()) + ")");
        }
    }

    private String text(JsonNode obj, String key, boolean required) { return text(obj, key, required, "/" + key); }

    String text(JsonNode obj, String key, boolean required, String ptr) {
        JsonNode n = obj.get(key);
        if (n == null) {
            // located at the object that lacks it (an arg's line, not the file's first)
            if (required) throw bad(ptr.substring(0, Math.max(0, ptr.lastIndexOf('/'))), "missing \"" + key + "\"");
            return null;
        }
        if (!n.isTextual()) throw bad(ptr, "\"" + key + "\" must be a string");
        return n.asText();
    }

    long integer(JsonNode n, String ptr, long min, long max) {
        if (n == null || !n.isIntegralNumber()) throw bad(ptr, "expected an integer");
        if (!n.canConvertToLong()) throw bad(ptr, "integer out of range");
        long v = n.asLong();
        if (v < min || v > max) throw bad(ptr, "value " + v + " is outside " + min + ".." + max);
        return v;
    }

    private Dim3 dim(JsonNode root, String key, Dim3 dflt) {
        JsonNode n = root.get(key);
        String ptr = "/" + key;
        if (n == null) return dflt;
        if (n.isIntegralNumber()) return new Dim3((int) integer(n, ptr, 1, 1 << 20), 1, 1);
        if (!n.isArray() || n.size() < 1 || n.size() > 3) throw bad(ptr, "\"" + key + "\" must be [x, y, z] of positive integers");
        int[] v = {1, 1, 1};
        for (int i = 0; i < n.size(); i++) v[i] = (int) integer(n.get(i), ptr + "/" + i, 1, 1 << 20);
        return new Dim3(v[0], v[1], v[2]);
    }

    private ScalarType type(JsonNode obj, String ptr) {
        String t = text(obj, "type", true, ptr + "/type");
        ScalarType st = ScalarType.fromName(t);
        Set<String> ok = Set.of("u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64", "f32", "f64");
        if (st == null || !ok.contains(t)) {
            throw bad(ptr + "/type", "unknown type '" + t + "' (expected one of u8/s8/u16/s16/u32/s32/u64/s64/f32/f64)");
        }
        return st;
    }

    private ArgSpec arg(JsonNode n, String ptr) {
        if (!n.isObject()) throw bad(ptr, "each argument is an object with \"buffer\", \"value\", \"tensorMap\" or \"struct\"");
        if (n.has("struct")) {
            unknownKeys(n, ptr, Set.of("struct"));
            return struct(n.get("struct"), ptr + "/struct");
        }
        if (n.has("tensorMap")) {
            unknownKeys(n, ptr, Set.of("tensorMap"));
            return new TensorMapJsonChecks(this).tensorMap(n.get("tensorMap"), ptr + "/tensorMap");
        }
        unknownKeys(n, ptr, Set.of("buffer", "type", "count", "init", "data", "value", "address", "file", "base64"));
        ScalarType t = type(n, ptr);
        if (n.has("value")) {
            if (n.has("buffer")) throw bad(ptr, "an argument is either a buffer or a value, not both");
            JsonNode v = n.get("value");
            if (!v.isNumber()) throw bad(ptr + "/value", "\"value\" must be a number");
            Number num = scalar(v, t, ptr + "/value");
            return new ArgSpec(null, t, 0, null, null, num);
        }
        String name = text(n, "buffer", true, ptr + "/buffer");
        Long address = n.has("address") ? address(n.get("address"), ptr + "/address") : null;
        if (n.has("file") || n.has("base64") || "bytes".equals(n.path("init").asText(null))) {
            // Exact bytes (a launch bundle's): the count follows from them.
            if (n.has("data") || n.has("count")) throw bad(ptr, "a buffer with exact bytes (\"file\" or \"base64\") has no \"data\" or \"count\"");
            byte[] raw = bytes(n, ptr);
            if (raw.length == 0 || raw.length % t.bytes() != 0) {
                throw bad(ptr, "buffer '" + name + "' has " + raw.length + " bytes, not a whole number of ." + t.ptxName() + " elements");
            }
            return new ArgSpec(name, t, raw.length / t.bytes(), "bytes", null, null, null, new ArgSpec.Extras(address, raw, null));
        }
        List<Number> data = null;
        if (n.has("data")) {
            JsonNode d = n.get("data");
            if (!d.isArray()) throw bad(ptr + "/data", "\"data\" must be an array of numbers");
            if (d.size() > MAX_BUFFER_ELEMENTS) throw bad(ptr + "/data", "too many elements");
            data = new ArrayList<>();
            for (int i = 0; i < d.size(); i++) data.add(scalar(d.get(i), t, ptr + "/data/" + i));
        }
        long count = n.has("count") ? integer(n.get("count"), ptr + "/count", 1, MAX_BUFFER_ELEMENTS)
                : data != null ? Math.max(1, data.size()) : -1;
        if (count < 0) throw bad(ptr, "buffer '" + name + "' needs a \"count\" (or \"data\")");
        if (data != null && data.size() > count) throw bad(ptr + "/data", "\"data\" has " + data.size() + " values but count is " + count);
        String init = n.has("init") ? text(n, "init", true, ptr + "/init") : (data != null ? "data" : "zero");
        if (!(init.equals("zero") || init.equals("iota") || init.equals("data") || init.matches("random:-?\\d{1,19}"))) {
            throw bad(ptr + "/init", "unknown init '" + init + "' (expected zero, iota, random:SEED or data)");
        }
        if (init.startsWith("random:")) {
            try {
                Long.parseLong(init.substring(7));
            } catch (NumberFormatException e) {
                throw bad(ptr + "/init", "the seed of '" + init + "' is not a 64-bit signed integer");
            }
        }
        if (init.equals("data") && data == null) throw bad(ptr + "/init", "init \"data\" needs a \"data\" array");
        return new ArgSpec(name, t, count, init, data, null, null, address == null ? null : new ArgSpec.Extras(address, null, null));
    }

    List<Long> longs(JsonNode a, String ptr, int minSize, int maxSize, long min, long max) {
        if (a == null || !a.isArray() || a.size() < minSize || a.size() > maxSize) {
            throw bad(ptr, "expected an array of " + (minSize == maxSize ? String.valueOf(minSize) : minSize + " to " + maxSize) + " integers");
        }
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) out.add(integer(a.get(i), ptr + "/" + i, min, max));
        return out;
    }

    /**
     * An expected element of an integer buffer must be a value of the buffer's type (integral,
     * within its range), else no run could ever meet it: refused here, where the file can point at
     * it, rather than reported as "not met" after the run. Float buffers take any finite number
     * (in exact mode one beyond .f32's range is the infinity it rounds to).
     */
    private void expectedOfType(JsonNode v, ScalarType t, String buffer, String ptr) {
        if (t == null || t.isFloat()) return;
        java.math.BigInteger min = minOf(t);
        java.math.BigInteger max = maxOf(t);
        java.math.BigInteger b = null;
        if (v.isIntegralNumber()) {
            b = v.bigIntegerValue();
        } else if (Double.isFinite(v.asDouble()) || v.isBigDecimal()) {
            // As written (floats are read as decimals): 2.0 is the integer 2, 1e-400 is no integer.
            java.math.BigDecimal d = v.decimalValue().stripTrailingZeros();
            if (d.scale() <= 0 && d.precision() - d.scale() <= 40) b = d.toBigIntegerExact();
        }
        if (b == null || b.compareTo(min) < 0 || b.compareTo(max) > 0) {
            throw bad(ptr, "expected value " + v.asText() + " can never be read from buffer '" + buffer + "': ." + t.ptxName()
                    + " holds the integers " + min + ".." + max);
        }
    }

    private Expectation expect(JsonNode e, Map<String, ScalarType> bufferTypes, Set<String> bufferNames) {
        if (!e.isObject()) throw bad("/expect", "\"expect\" must be an object");
        unknownKeys(e, "/expect", Set.of("outcome", "buffers", "diagnostics", "exact"));
        String outcome = null;
        if (e.has("outcome")) {
            outcome = text(e, "outcome", true, "/expect/outcome");
            io.barrierscope.exec.Outcome o = io.barrierscope.exec.Outcome.byJsonName(outcome);
            // "running" and "error" are no ending a run can be expected to have.
            if (o == null || o == io.barrierscope.exec.Outcome.RUNNING || o == io.barrierscope.exec.Outcome.ERROR) {
                throw bad("/expect/outcome", "unknown outcome '" + outcome + "' (expected completed, deadlock, diagnosed, step-limit)");
            }
        }
        Map<String, List<Number>> buffers = new LinkedHashMap<>();
        if (e.has("buffers")) {
            JsonNode b = e.get("buffers");
            if (!b.isObject()) throw bad("/expect/buffers", "\"buffers\" must map buffer names to arrays");
            for (Iterator<String> it = b.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                JsonNode arr = b.get(k);
                // A misspelt name could never be met: refused here, as a misspelt diagnostic code is, not "NOT met" after the run.
                if (!bufferNames.contains(k)) {
                    throw bad("/expect/buffers/" + k, "the launch has no buffer named '" + k + "' (its buffers: "
                            + (bufferNames.isEmpty() ? "none" : String.join(", ", bufferNames)) + ")");
                }
                if (!arr.isArray()) throw bad("/expect/buffers/" + k, "expected an array of numbers");
                List<Number> vals = new ArrayList<>();
                for (int i = 0; i < arr.size(); i++) {
                    if (!arr.get(i).isNumber()) throw bad("/expect/buffers/" + k + "/" + i, "expected a number");
                    expectedOfType(arr.get(i), bufferTypes.get(k), k, "/expect/buffers/" + k + "/" + i);
                    if (!Double.isFinite(arr.get(i).asDouble())) {
                        throw bad("/expect/buffers/" + k + "/" + i, "the number is beyond the range of .f64 (it would read as infinity)");
                    }
                    if (arr.get(i).isIntegralNumber() && (arr.get(i).bigIntegerValue().bitLength() > 64
                            || arr.get(i).bigIntegerValue().compareTo(java.math.BigInteger.valueOf(Long.MIN_VALUE)) < 0)) {
                        throw bad("/expect/buffers/" + k + "/" + i, "value " + arr.get(i).asText() + " does not fit 64 bits");
                    }
                    vals.add(arr.get(i).isIntegralNumber() ? (Number) arr.get(i).bigIntegerValue().longValue() : (Number) arr.get(i).asDouble());
                }
                buffers.put(k, vals);
            }
        }
        List<String> diags = new ArrayList<>();
        if (e.has("diagnostics")) {
            JsonNode d = e.get("diagnostics");
            if (!d.isArray()) throw bad("/expect/diagnostics", "\"diagnostics\" must be an array of codes");
            for (int i = 0; i < d.size(); i++) {
                if (!d.get(i).isTextual()) throw bad("/expect/diagnostics/" + i, "expected a diagnostic code");
                // A misspelt code could never be reported: refused here rather than failing the check.
                if (io.barrierscope.diag.DiagnosticCode.byCode(d.get(i).asText()) == null) {
                    throw bad("/expect/diagnostics/" + i, "unknown diagnostic code '" + d.get(i).asText() + "' (docs/semantics.md lists them)");
                }
                diags.add(d.get(i).asText());
            }
        }
        boolean exact = false;
        if (e.has("exact")) {
            if (!e.get("exact").isBoolean()) throw bad("/expect/exact", "\"exact\" must be true or false");
            exact = e.get("exact").booleanValue();
        }
        return new Expectation(outcome, buffers, diags, exact);
    }
}
