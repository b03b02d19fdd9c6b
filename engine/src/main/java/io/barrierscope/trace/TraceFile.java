package io.barrierscope.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.barrierscope.Version;
import io.barrierscope.launch.AtomicFiles;
import io.barrierscope.launch.BadInputException;
import io.barrierscope.launch.LaunchValidation;
import io.barrierscope.launch.ValidatedLaunch;
import io.barrierscope.launch.LaunchSpec;
import io.barrierscope.launch.LaunchSpecJson;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.launch.MemoryEstimate;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Trace files (docs/time-travel.md): an 8-byte magic, a format version, tagged sections (a JSON
 * header, the launch as launch-file JSON, the PTX text, the deflated events) and a SHA-256 of
 * everything before it. Written atomically. Reading checks everything against limits before
 * allocating, never deserializes objects, then re-executes the launch and compares the events
 * and the state hashes, so a trace this engine cannot reproduce is refused by name.
 */
public final class TraceFile {
    /**
     * Version 2 adds the CUDA sources (tag 5); version 3 the wgmma events (issue, commit, retire)
     * in the event stream. Versions 1 and 2 are still read: their replay records no wgmma events.
     */
    public static final int FORMAT = 3;
    /** The first version whose event stream holds the wgmma events. */
    static final int FORMAT_TENSOR_CORE_EVENTS = 3;
    static final int OLDEST_FORMAT = 1;
    static final int TAG_SOURCE = 5;
    /** At most this many CUDA sources in a trace, each at most MAX_SOURCE bytes. */
    static final int MAX_SOURCES = 256;
    static final int MAX_SOURCE = 8 << 20;
    static final byte[] MAGIC = {(byte) 0x89, 'B', 'S', 'T', 'R', '\r', '\n', 0x1A};
    static final int TAG_HEADER = 1;
    static final int TAG_LAUNCH = 2;
    static final int TAG_PTX = 3;
    static final int TAG_EVENTS = 4;
    static final int TAG_END = 0;
    /** Largest trace file read. */
    public static final long MAX_FILE = 1L << 30;
    static final int MAX_HEADER = 1 << 20;
    /** Largest event stream accepted, decompressed. */
    static final long MAX_EVENTS_BYTES = Integer.MAX_VALUE - 64;
    /** The most bytes deflate can expand one compressed byte to (zlib's documented limit is 1032:1). */
    static final long MAX_DEFLATE_RATIO = 1032;
    private static final ObjectMapper JSON = new ObjectMapper();

    private TraceFile() {}

    /** Writes the session's recording (up to its frontier) to {@code out}, atomically. */
    public static void write(TimeTravel tt, Path out) throws IOException {
        LaunchedRun run = tt.run();
        Recording r = tt.recording();
        String launch = LaunchSpecJson.write(run.spec(), run.policyName(), run.seed(), tt.maxSteps());
        byte[] ptx = run.ptxText().getBytes(StandardCharsets.UTF_8);
        byte[] events = r.encoded();
        ObjectNode h = JSON.createObjectNode();
        h.put("format", FORMAT);
        h.put("engine", Version.ENGINE);
        h.put("kernel", run.program().kernel.name());
        h.put("kernelHash", sha256Hex(ptx));
        h.put("launchFile", plainName(run.spec().file()));
        h.put("policy", run.policyName());
        h.put("seed", run.seed());
        h.put("raceDetection", run.raceDetection());
        h.put("maxSteps", tt.maxSteps());
        h.put("steps", r.steps());
        h.put("events", r.events());
        h.put("eventBytes", events.length);
        h.put("outcome", r.finished() ? r.outcome().jsonName() : "running");
        ArrayNode hs = h.putArray("stateHashes");
        for (Map.Entry<Long, Long> e : tt.stateHashes().entrySet()) {
            if (e.getKey() > r.steps()) continue;
            hs.addArray().add(e.getKey()).add(Long.toHexString(e.getValue()));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(body);
        d.write(MAGIC);
        d.writeInt(FORMAT);
        section(d, TAG_HEADER, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(h));
        section(d, TAG_LAUNCH, launch.getBytes(StandardCharsets.UTF_8));
        section(d, TAG_PTX, ptx);
        section(d, TAG_EVENTS, deflate(events));
        // The .cu files the PTX names, so the trace shows its source wherever it is opened.
        for (Map.Entry<String, String> src : run.cudaSources().entrySet()) {
            byte[] name = src.getKey().getBytes(StandardCharsets.UTF_8);
            byte[] text = src.getValue().getBytes(StandardCharsets.UTF_8);
            if (text.length > MAX_SOURCE) continue;
            byte[] data = new byte[name.length + 1 + text.length];
            System.arraycopy(name, 0, data, 0, name.length);
            System.arraycopy(text, 0, data, name.length + 1, text.length);
            section(d, TAG_SOURCE, deflate(data));
        }
        d.writeByte(TAG_END);
        d.flush();
        byte[] bytes = body.toByteArray();
        AtomicFiles.write(out, bytes, sha256(bytes));
    }

    /**
     * The launch file's name as the header records it: what {@link #open} accepts (no separator,
     * no NUL, at most 255 characters), so every trace written reopens whatever the file was called.
     */
    static String plainName(Path launch) {
        String n = launch.getFileName() == null ? "launch.json" : launch.getFileName().toString();
        n = n.replaceAll("[/\\\\\\x00]", "_");
        if (n.length() > 255) n = n.substring(0, 255);
        return n.isEmpty() || n.equals(".") || n.equals("..") ? "launch.json" : n;
    }

    private static void section(DataOutputStream d, int tag, byte[] data) throws IOException {
        d.writeByte(tag);
        d.writeInt(data.length);
        d.write(data);
    }

    private static byte[] deflate(byte[] raw) {
        Deflater def = new Deflater(Deflater.BEST_SPEED);
        def.setInput(raw);
        def.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, raw.length / 4));
        byte[] buf = new byte[1 << 16];
        while (!def.finished()) out.write(buf, 0, def.deflate(buf));
        def.end();
        return out.toByteArray();
    }

    /** What a trace file holds, checked and decoded but not yet replayed. */
    public record Contents(JsonNode header, String launchJson, String ptx, byte[] events, Map<String, String> sources) {
        public long steps() { return header.path("steps").asLong(); }
        public String outcome() { return header.path("outcome").asText(); }
    }

    /** Reads and checks a trace file without replaying it. */
    public static Contents read(Path file) {
        byte[] all;
        try {
            // An empty name was read as the current folder ("the trace is a directory").
            if (file.toString().isEmpty()) throw new BadInputException("error: the trace file's name is empty; name a .bstrace file");
            if (Files.isDirectory(file)) throw bad(file, "the trace is a directory, not a file");
            if (!Files.exists(file)) throw bad(file, "no such trace file");
            if (!Files.isRegularFile(file)) throw bad(file, "the trace is not a regular file (a device or pipe is not read)");
            long size = Files.size(file);
            if (size > MAX_FILE) throw bad(file, "trace file of " + size + " bytes is larger than the " + (MAX_FILE >> 20) + " MiB limit");
            long free = MemoryEstimate.freeHeap();
            if (readNeeds(size) > free) {
                System.gc(); // garbage is no reason to refuse: collected once before deciding
                free = MemoryEstimate.freeHeap();
            }
            checkReadFits(file, size, free, Runtime.getRuntime().maxMemory());
            all = Files.readAllBytes(file);
            if (all.length != size) throw bad(file, "the trace changed while it was read (another program is writing it)");
        } catch (IOException e) {
            throw bad(file, "cannot read: " + e.getMessage());
        }
        if (all.length < MAGIC.length + 4 + 32 || !Arrays.equals(Arrays.copyOf(all, MAGIC.length), MAGIC)) {
            throw bad(file, "not a BarrierScope trace (wrong magic bytes)");
        }
        ByteBuffer b = ByteBuffer.wrap(all, 0, all.length - 32);
        b.position(MAGIC.length);
        int format = b.getInt();
        if (format < OLDEST_FORMAT || format > FORMAT) {
            throw bad(file, "trace format version " + format + "; this BarrierScope (" + Version.ENGINE + ") reads versions "
                    + OLDEST_FORMAT + " to " + FORMAT);
        }
        byte[] want = Arrays.copyOfRange(all, all.length - 32, all.length);
        if (!MessageDigest.isEqual(want, sha256(all, all.length - 32))) {
            throw bad(file, "the trace is damaged or truncated (its SHA-256 checksum does not match)");
        }
        byte[] header = null, launch = null, ptx = null, events = null;
        Map<String, String> sources = new java.util.LinkedHashMap<>();
        while (true) {
            if (!b.hasRemaining()) throw bad(file, "the trace ends without its end marker");
            int tag = b.get();
            if (tag == TAG_END) break;
            if (b.remaining() < 4) throw bad(file, "section " + tag + " is cut short");
            int len = b.getInt();
            if (len < 0 || len > b.remaining()) throw bad(file, "section " + tag + " claims " + len + " bytes but " + b.remaining() + " remain");
            byte[] data = new byte[len];
            b.get(data);
            switch (tag) {
                case TAG_HEADER -> header = data;
                case TAG_LAUNCH -> launch = data;
                case TAG_PTX -> ptx = data;
                case TAG_EVENTS -> events = data;
                case TAG_SOURCE -> {
                    if (format < 2 || sources.size() >= MAX_SOURCES) throw bad(file, "unexpected source section");
                    byte[] src = inflateAtMost(file, data, MAX_SOURCE + 4096);
                    int nul = 0;
                    while (nul < src.length && src[nul] != 0) nul++;
                    if (nul == 0 || nul >= Math.min(src.length, 4096)) throw bad(file, "a source section has no valid name");
                    sources.put(new String(src, 0, nul, StandardCharsets.UTF_8),
                            new String(src, nul + 1, src.length - nul - 1, StandardCharsets.UTF_8));
                }
                default -> throw bad(file, "unknown section " + tag);
            }
        }
        if (b.hasRemaining()) throw bad(file, b.remaining() + " stray bytes after the end marker");
        if (header == null || launch == null || ptx == null || events == null) throw bad(file, "a section is missing");
        if (header.length > MAX_HEADER) throw bad(file, "header larger than " + MAX_HEADER + " bytes");
        JsonNode h;
        try {
            h = JSON.readTree(header);
        } catch (IOException e) {
            throw bad(file, "the header is not valid JSON: " + e.getMessage());
        }
        if (h == null || !h.isObject() || h.path("format").asInt(-1) != format || !h.path("steps").canConvertToLong()) {
            throw bad(file, "the header is not a version " + format + " trace header");
        }
        long rawLen = h.path("eventBytes").asLong(-1);
        if (rawLen < 0 || rawLen > MAX_EVENTS_BYTES) throw bad(file, "the header declares " + rawLen + " event bytes");
        // Deflate expands at most ~1032:1, so a larger claim is a lie: refused before allocating anything.
        if (rawLen > MAX_DEFLATE_RATIO * (long) events.length + 64) {
            throw bad(file, "the header declares " + rawLen + " event bytes, more than " + events.length + " compressed bytes can hold");
        }
        // The events are held whole, and the replay records as much again: a quarter of the heap at most.
        long room = Math.min(MAX_EVENTS_BYTES, Runtime.getRuntime().maxMemory() / 4);
        if (rawLen > room) {
            throw bad(file, "the trace's " + rawLen + " event bytes need more memory than this Java allows (" + (room >> 20)
                    + " MiB for events: give it more with -Xmx, or open a shorter trace)");
        }
        byte[] raw = inflate(file, events, (int) rawLen);
        long steps = h.path("steps").asLong();
        long held = EventScan.warpSteps(raw);
        if (held < 0) throw bad(file, "the event stream is malformed at byte " + (-held - 1));
        if (steps != held) throw bad(file, "the header declares " + steps + " warp steps but the event stream holds " + held);
        String ptxText = new String(ptx, StandardCharsets.UTF_8);
        if (!sha256Hex(ptx).equals(h.path("kernelHash").asText())) throw bad(file, "the PTX does not match the kernel hash in the header");
        return new Contents(h, new String(launch, StandardCharsets.UTF_8), ptxText, raw, java.util.Collections.unmodifiableMap(sources));
    }

    /** Inflates data known to hold at most {@code limit} bytes; more is refused (bounded decompression). */
    private static byte[] inflateAtMost(Path file, byte[] data, int limit) {
        Inflater inf = new Inflater();
        inf.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[1 << 16];
        try {
            while (!inf.finished()) {
                int k = inf.inflate(buf);
                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) throw bad(file, "a source section is cut short");
                out.write(buf, 0, k);
                if (out.size() > limit) throw bad(file, "a source section is larger than " + limit + " bytes");
            }
        } catch (DataFormatException e) {
            throw bad(file, "a source section is corrupt: " + e.getMessage());
        } finally {
            inf.end();
        }
        return out.toByteArray();
    }

    /**
     * Inflates the event stream, which must be exactly {@code rawLen} bytes. The buffer grows with
     * the bytes actually produced, so a header that overstates the length costs no memory.
     */
    private static byte[] inflate(Path file, byte[] data, int rawLen) {
        Inflater inf = new Inflater();
        inf.setInput(data);
        byte[] out = new byte[Math.min(rawLen, 1 << 20)];
        try {
            int n = 0;
            while (n < rawLen && !inf.finished()) {
                if (n == out.length) out = Arrays.copyOf(out, (int) Math.min(rawLen, 2L * out.length));
                int k = inf.inflate(out, n, out.length - n);
                if (k == 0 && (inf.needsInput() || inf.needsDictionary())) break;
                n += k;
            }
            byte[] probe = new byte[1];
            if (n != rawLen || (!inf.finished() && inf.inflate(probe) > 0)) {
                throw bad(file, "the event stream does not decompress to the " + rawLen + " bytes the header declares");
            }
        } catch (DataFormatException e) {
            throw bad(file, "the event stream is corrupt: " + e.getMessage());
        } finally {
            inf.end();
        }
        return out;
    }

    /**
     * Opens a trace: reads it, re-executes its launch with this engine, and checks the events and
     * the state hashes. Returns the session at the trace's last step.
     */
    public static TimeTravel open(Path file) { return open(file, io.barrierscope.ptx.Cancellation.NONE); }

    /**
     * As {@link #open(Path)}, telling {@code cancel} how far it has come (the file read, the PTX
     * parsed, the steps replayed) and stopping with {@link io.barrierscope.ptx.Cancellation.Cancelled}
     * at its next check once it is cancelled (the window's Cancel while a trace opens).
     */
    public static TimeTravel open(Path file, io.barrierscope.ptx.Cancellation cancel) {
        Contents c = read(file);
        cancel.progress("read", 1, 1);
        JsonNode h = c.header();
        String name = h.path("launchFile").asText("launch.json");
        // A plain file name only: the header must not point anywhere else on disk.
        if (!name.matches("[^/\\\\\\x00]{1,255}") || name.equals(".") || name.equals("..")) {
            throw bad(file, "the header's launchFile is not a plain file name");
        }
        String policy = h.path("policy").asText("");
        if (!io.barrierscope.exec.Policy.NAMES.contains(policy)) {
            throw bad(file, "the header names policy '" + policy + "' (expected one of " + String.join(", ", io.barrierscope.exec.Policy.NAMES) + ")");
        }
        if (!h.path("seed").canConvertToLong()) throw bad(file, "the header's seed is not a 64-bit integer");
        // Traces written before the race detector existed have no such field: they ran without it.
        boolean race = h.path("raceDetection").asBoolean(false);
        ValidatedLaunch launch;
        try {
            // The embedded launch and PTX, checked and planned as any launch is, located in the launch text carried.
            launch = LaunchValidation.validateText(file.toAbsolutePath().resolveSibling(name), c.launchJson(), c.ptx(),
                    new LaunchValidation.Use(race, 0), cancel);
        } catch (BadInputException e) {
            throw bad(file, "its launch is invalid: " + e.getMessage());
        }
        LaunchSpec spec = launch.spec();
        // A run stops at its launch's step limit: a trace claiming more steps could never replay, so it is
        // refused before re-executing any of them.
        if (c.steps() > spec.maxSteps()) {
            throw bad(file, "the header declares " + c.steps() + " warp steps but its launch stops after " + spec.maxSteps());
        }
        java.util.TreeMap<Long, Long> recorded = stateHashes(file, h.path("stateHashes"), c.steps());
        LaunchedRun run = launch.start(policy, h.path("seed").asLong());
        c.sources().forEach(run::carrySource);
        TimeTravel tt = new TimeTravel(run, run.maxSteps(), replayBudget(file, c, run));
        if (h.path("format").asInt() < FORMAT_TENSOR_CORE_EVENTS) tt.omitTensorCoreEvents();
        boolean finished = !"running".equals(c.outcome());
        tt.replayTo(c.steps(), finished, cancel);
        String engine = h.path("engine").asText("?");
        String who = engine.equals(Version.ENGINE) ? "" : " (recorded by " + engine + ", this is " + Version.ENGINE + ")";
        for (Map.Entry<Long, Long> e : recorded.entrySet()) {
            long step = e.getKey();
            Long mine = step <= tt.frontier() ? tt.stateHashAt(step) : null;
            if (mine == null || mine.longValue() != e.getValue()) {
                throw bad(file, "this engine cannot reproduce the trace" + who + ": the state after " + step
                        + " warp steps differs from the recorded one");
            }
        }
        // Compared window by window: no second copy of the events is made.
        long diff = tt.recording().mismatch(c.events());
        if (diff >= 0) {
            throw bad(file, "this engine cannot reproduce the trace" + who + ": the re-executed events differ from the recorded ones"
                    + " (first difference at byte " + diff + ")");
        }
        if (tt.now() != c.steps()) {
            throw bad(file, "this engine cannot reproduce the trace" + who + ": the run ended after " + tt.now()
                    + " warp steps, the trace has " + c.steps());
        }
        return tt;
    }

    /**
     * The checkpoint budget for replaying a trace, after counting what the replay allocates besides:
     * the events recorded again (as many bytes as the file's) and at least two checkpoints of the
     * launch's state (the store keeps two whatever its budget). A trace whose replay cannot fit
     * the heap is refused now, with the numbers, rather than by an OutOfMemoryError halfway.
     */
    static long replayBudget(Path file, Contents c, LaunchedRun run) {
        MemoryEstimate est = run.memoryEstimate(0);
        long shadow = est.shadowBytes() + est.readSetBytes(); // live and in each checkpoint: cells and read sets
        long free = MemoryEstimate.freeHeap();
        if (free < c.events().length + 2 * run.stateBytes() + 2 * shadow) {
            System.gc(); // garbage is no reason to refuse: collected once before deciding
            free = MemoryEstimate.freeHeap();
        }
        return replayBudget(file, c.events().length, run.stateBytes(), shadow, c.steps(), free, Runtime.getRuntime().maxMemory());
    }

    static long replayBudget(Path file, long eventBytes, long stateBytes, long steps, long free, long max) {
        return replayBudget(file, eventBytes, stateBytes, 0, steps, free, max);
    }

    /**
     * As above with the race detector's shadow memory at its worst ({@code shadowBytes}, 0 when the
     * trace ran without it): held once by the live run and once more by every checkpoint after the
     * first (the checkpoint at step 0 holds an empty shadow: nothing has been accessed yet). Counted
     * for the first one too, a trace `run --trace` wrote at {@code -Xmx128m} did not reopen there.
     */
    static long replayBudget(Path file, long eventBytes, long stateBytes, long shadowBytes, long steps, long free, long max) {
        // The checkpoint at step 0, and a second once the replay passes the first checkpoint interval.
        long cps = steps >= TimeTravel.intervalFor(stateBytes) ? 2 : 1;
        long need = eventBytes + cps * stateBytes + cps * shadowBytes;
        if (need > free) {
            throw bad(file, "opening re-executes its " + steps + " warp steps, recording " + (eventBytes >> 20) + " MiB of events again"
                    + " and keeping " + (cps == 2 ? "at least two " : "a ") + (stateBytes >> 20) + " MiB checkpoint" + (cps == 2 ? "s" : "")
                    + (shadowBytes > 0 ? ", with the race detector's shadow of up to " + (shadowBytes >> 20) + " MiB live and in each checkpoint"
                            + " after the first" : "")
                    + ": about " + (need >> 20) + " MiB, but this Java has " + (free >> 20) + " MiB free of " + (max >> 20)
                    + " MiB (give it more with -Xmx)");
        }
        return Math.max(cps * (stateBytes + shadowBytes), Math.min(512L << 20, (free - eventBytes - shadowBytes) / 2));
    }

    /** The header's state hashes ([step, hex] pairs), checked before anything runs. */
    private static java.util.TreeMap<Long, Long> stateHashes(Path file, JsonNode list, long steps) {
        java.util.TreeMap<Long, Long> out = new java.util.TreeMap<>();
        if (list.isMissingNode()) return out;
        if (!list.isArray()) throw bad(file, "the header's stateHashes is not a list");
        for (JsonNode pair : list) {
            String hex = pair.path(1).asText("");
            if (!pair.isArray() || pair.size() != 2 || !pair.path(0).canConvertToLong() || pair.path(0).asLong() < 0
                    || !hex.matches("[0-9a-f]{1,16}")) {
                throw bad(file, "the header's stateHashes holds a malformed entry: " + pair);
            }
            // Hashes are taken at checkpoint steps (multiples of the smallest interval) and the end:
            // any other step would make opening seek and hash for nothing, so it is refused.
            long step = pair.path(0).asLong();
            if (step > steps || (step != steps && (step == 0 || step % TimeTravel.INTERVAL != 0))) {
                throw bad(file, "the header's stateHashes names step " + step + ", which is no checkpoint step nor the end");
            }
            if (out.put(step, Long.parseUnsignedLong(hex, 16)) != null) throw bad(file, "the header's stateHashes names step " + step + " twice");
        }
        return out;
    }

    private static BadInputException bad(Path file, String msg) {
        return new BadInputException(file + ": error: " + msg);
    }

    static byte[] sha256(byte[] data) { return sha256(data, data.length); }

    /** The digest of the first {@code length} bytes, without copying them. */
    static byte[] sha256(byte[] data, int length) {
        try {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            d.update(data, 0, length);
            return d.digest();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reading holds the file and its sections (about twice its size) before any other check. */
    static long readNeeds(long size) { return 2 * size + (1 << 20); }

    /** Counted before reading, so a large file is refused with the numbers, never by an OutOfMemoryError. */
    static void checkReadFits(Path file, long size, long free, long max) {
        if (readNeeds(size) <= free) return;
        throw bad(file, "the trace file is " + mib(size) + " MiB; reading it takes about " + mib(readNeeds(size))
                + " MiB but this Java has about " + mib(free) + " MiB free of " + mib(max) + " MiB: give it more with -Xmx");
    }

    private static long mib(long bytes) { return (bytes + (1 << 20) - 1) >> 20; }

    static String sha256Hex(byte[] data) { return HexFormat.of().formatHex(sha256(data)); }
}
