package io.barrierscope.trace;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.MinimalPrettyPrinter;
import io.barrierscope.exec.Machine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * Writes Trace Event Format events for {@link ChromeExport}, streaming through a Jackson
 * generator into a bounded buffer, one event per line.
 *
 * <p>Ids: CTA c is process {@code c + 1}; the run-wide process comes after the CTAs. Threads
 * (tracks) are numbered after every process id, so no tid equals a pid (Perfetto treats a tid equal
 * to its pid as the process's main thread): warp w is tid {@code ctas + 2 + w}, the run's track the
 * one after the last warp. Process-scoped instants and counters of a CTA name its first warp's tid,
 * so every event carries a pid and tid that agree.
 *
 * <p>Time is kept in quarter warp steps ({@link ChromeExport#Q}) and written exactly as microseconds
 * ("12", "12.25", "12.5", "12.75").
 */
final class ChromeTraceWriter {
    private static final JsonFactory JSON = new JsonFactory();
    private static final String[] FRACTION = {"", ".25", ".5", ".75"};

    final JsonGenerator g;
    private final Machine m;
    final int runPid;
    final int runTid;

    private ChromeTraceWriter(JsonGenerator g, Machine m) {
        this.g = g;
        this.m = m;
        this.runPid = m.ctas + 1;
        this.runTid = m.ctas + 2 + m.warps;
    }

    /** What fills the trace, given the writer. */
    interface Body {
        void write(ChromeTraceWriter w) throws IOException;
    }

    /** Runs {@code body} against a fresh writer and returns the JSON, refusing to grow past {@code maxBytes}. */
    static byte[] produce(Machine m, long maxBytes, Body body) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(1 << 16);
        try {
            produce(m, maxBytes, buf, body);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return buf.toByteArray();
    }

    /** As above, streamed to {@code out} (left open): the JSON is never held whole. */
    static void produce(Machine m, long maxBytes, java.io.OutputStream out, Body body) throws IOException {
        try (JsonGenerator g = JSON.createGenerator(new Bounded(out, maxBytes))) {
            g.setPrettyPrinter(new OnePerLine());
            body.write(new ChromeTraceWriter(g, m));
        }
    }

    // ---- ids ----

    int pidOfCta(int cta) { return cta + 1; }
    int pidOfWarp(int warp) { return pidOfCta(m.ctaOfWarp(warp)); }
    int tidOfWarp(int warp) { return m.ctas + 2 + warp; }
    /** The tid process-wide events of a CTA are filed under: its first warp's. */
    int tidOfCta(int cta) { return tidOfWarp(m.firstWarpOfCta(cta)); }
    int pidOrRun(int warp) { return warp < 0 ? runPid : pidOfWarp(warp); }
    int tidOrRun(int warp) { return warp < 0 ? runTid : tidOfWarp(warp); }

    // ---- events ----

    /** A metadata event (process or thread name or sort index). */
    void meta(String name, int pid, int tid, String key, Object value) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        if (value instanceof String s) g.writeStringField(key, s);
        else g.writeNumberField(key, ((Number) value).longValue());
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Starts an event object with the common fields; the caller adds the rest and calls {@link #end}. */
    void begin(String name, String cat, String ph, int pid, int tid, long q) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("cat", cat);
        g.writeStringField("ph", ph);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeFieldName("ts");
        time(q);
    }

    void end() throws IOException { g.writeEndObject(); }

    /** Starts a complete (X) event and its args object; close with {@link #endWithArgs}. */
    void slice(String name, String cat, int pid, int tid, long startQ, long durQ) throws IOException {
        begin(name, cat, "X", pid, tid, startQ);
        g.writeFieldName("dur");
        time(durQ);
        g.writeObjectFieldStart("args");
    }

    /** Starts an instant event (scope t, p or g) and its args object; close with {@link #endWithArgs}. */
    void instant(String name, String cat, String scope, int pid, int tid, long q) throws IOException {
        begin(name, cat, "i", pid, tid, q);
        g.writeStringField("s", scope);
        g.writeObjectFieldStart("args");
    }

    /** Starts an async (b or e) event of operation {@code id} and its args object; close with {@link #endWithArgs}. */
    void async(String name, String ph, long id, int pid, int tid, long q) throws IOException {
        begin(name, "async", ph, pid, tid, q);
        g.writeNumberField("id", id);
        g.writeObjectFieldStart("args");
    }

    /** As {@link #async}, in category {@code cat} with a string id (kept apart from the numeric ids of copies). */
    void asyncNamed(String name, String cat, String ph, String id, int pid, int tid, long q) throws IOException {
        begin(name, cat, ph, pid, tid, q);
        g.writeStringField("id", id);
        g.writeObjectFieldStart("args");
    }

    void endWithArgs() throws IOException {
        g.writeEndObject();
        g.writeEndObject();
    }

    /** One end of a flow arrow (s or f), bound to the slice enclosing it. */
    void flow(String name, String ph, long id, int warp, long q) throws IOException {
        begin(name, "sync", ph, pidOfWarp(warp), tidOfWarp(warp), q);
        g.writeNumberField("id", id);
        g.writeStringField("bp", "e");
        g.writeEndObject();
    }

    /** A counter sample of CTA {@code cta}. */
    void counter(String name, String key, int cta, long q, long value) throws IOException {
        begin(name, "mbarrier", "C", pidOfCta(cta), tidOfCta(cta), q);
        g.writeObjectFieldStart("args");
        g.writeNumberField(key, value);
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Quarter steps as microseconds, exactly. */
    void time(long q) throws IOException {
        g.writeNumber((q / ChromeExport.Q) + FRACTION[(int) (q % ChromeExport.Q)]);
    }

    /** The last component of a path, so exports do not depend on where files were. */
    static String fileName(String path) {
        if (path == null) return "?";
        int i = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
        return path.substring(i + 1);
    }

    /** One event per line (the top-level array's elements), no other whitespace. */
    private static final class OnePerLine extends MinimalPrettyPrinter {
        private int depth;

        @Override
        public void writeStartArray(JsonGenerator g) throws IOException {
            super.writeStartArray(g);
            if (++depth == 1) g.writeRaw('\n');
        }

        @Override
        public void writeEndArray(JsonGenerator g, int n) throws IOException {
            if (depth-- == 1) g.writeRaw('\n');
            super.writeEndArray(g, n);
        }

        @Override
        public void writeArrayValueSeparator(JsonGenerator g) throws IOException {
            super.writeArrayValueSeparator(g);
            if (depth == 1) g.writeRaw('\n');
        }
    }

    /** A stream that refuses to carry more than a limit; closing it leaves the stream under it open. */
    private static final class Bounded extends java.io.FilterOutputStream {
        private final long max;
        private long count;

        Bounded(java.io.OutputStream out, long max) {
            super(out);
            this.max = max;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            check(len);
            out.write(b, off, len);
        }

        @Override
        public void write(int b) throws IOException {
            check(1);
            out.write(b);
        }

        @Override
        public void close() throws IOException { flush(); }

        private void check(int more) {
            if (count + (long) more > max) {
                // A limit of the tool, said as bad input (exit 2), not an internal failure.
                throw new io.barrierscope.launch.BadInputException("error: the Chrome trace would exceed " + (max >> 20) + " MiB; export a shorter run "
                        + "(fewer warp steps or a smaller grid)");
            }
            count += more;
        }
    }
}
