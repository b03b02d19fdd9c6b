package io.barrierscope.bench;

import io.barrierscope.runtime.DeviceSession;
import io.barrierscope.runtime.LaunchOptions;
import io.barrierscope.runtime.RuntimeProtocol;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * `barrierscope exec`'s engine side: what one launch of a trivial kernel (vector add, 2 CTAs of
 * 64 threads) costs after the first, with and without the race detector, and what registering a
 * module costs. Requests go straight to {@link DeviceSession}, as the socket hands them over; the
 * socket round trip and the C library are not in these numbers. See docs/performance.md.
 *
 * <p>{@code java -jar benchmarks/target/benchmarks.jar ExecLaunchBenchmark -f 1}
 */
@Fork(value = 1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class ExecLaunchBenchmark {
    static String ptx(String name) {
        try (InputStream in = ExecLaunchBenchmark.class.getResourceAsStream("/kernels/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RuntimeProtocol.Request request(int op, byte[] payload) {
        return new RuntimeProtocol.Request(op, ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN));
    }

    static DeviceSession.Reply ok(DeviceSession s, int op, byte[] payload) {
        DeviceSession.Reply r = s.handle(request(op, payload));
        if (r.status() != 0) throw new IllegalStateException("request " + op + " failed: " + r.status());
        return r;
    }

    static final PrintWriter SINK = new PrintWriter(Writer.nullWriter());

    /** A session with the module registered, three 128-float buffers and the launch request ready. */
    @State(Scope.Thread)
    public static class Session {
        DeviceSession session;
        byte[] launch;

        void open(boolean race) {
            LaunchOptions d = LaunchOptions.defaults();
            session = new DeviceSession(new LaunchOptions(d.policy(), d.seed(), d.maxSteps(), race, null, false, null, LaunchOptions.OnFailure.CONTINUE), SINK, SINK);
            ok(session, RuntimeProtocol.MODULE, new RuntimeProtocol.Payload().string(ptx("exec_vector_add.ptx")).toArray());
            long[] buf = new long[3];
            for (int i = 0; i < 3; i++) {
                buf[i] = ByteBuffer.wrap(ok(session, RuntimeProtocol.MALLOC, new RuntimeProtocol.Payload().u64(512).toArray()).payload())
                        .order(ByteOrder.LITTLE_ENDIAN).getLong();
            }
            RuntimeProtocol.Payload p = new RuntimeProtocol.Payload().u32(0).string("_Z10vector_addPKfS0_Pfi");
            for (int v : new int[] {2, 1, 1, 64, 1, 1, 0, 0, 0, 0}) p.u32(v);
            p.u64(buf[0]).u64(buf[1]).u64(buf[2]).u32(128);
            launch = p.toArray();
            ok(session, RuntimeProtocol.LAUNCH, launch); // the first launch compiles the entry
        }

        @Setup(Level.Trial)
        public void setup() { open(true); }
    }

    @State(Scope.Thread)
    public static class SessionNoRace extends Session {
        @Override
        @Setup(Level.Trial)
        public void setup() { open(false); }
    }

    /** One launch after the first (race detection on, the default). */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public DeviceSession.Reply launch(Session s) { return ok(s.session, RuntimeProtocol.LAUNCH, s.launch); }

    /** The same with --no-race. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public DeviceSession.Reply launchNoRace(SessionNoRace s) { return ok(s.session, RuntimeProtocol.LAUNCH, s.launch); }

    /**
     * A module of 600 entries (the vector add and the barrier_loop kernel, each renamed 300 times):
     * about what a library's test binary embeds.
     */
    @State(Scope.Benchmark)
    public static class BigModule {
        String ptx;

        @Setup(Level.Trial)
        public void make() {
            String small = ptx("exec_vector_add.ptx");
            String filler = ptx("barrier_loop.ptx");
            int s = small.indexOf(".visible .entry");
            int f = filler.indexOf(".visible .entry");
            StringBuilder b = new StringBuilder(small.substring(0, s));
            for (int i = 0; i < 300; i++) {
                b.append(small.substring(s).replace("_Z10vector_addPKfS0_Pfi", "_Z10vector_addPKfS0_Pfi_" + i)).append('\n');
                b.append(filler, f, filler.indexOf("\n}\n", f) + 3).append('\n'); // the entry's body only (one debug section per module, as nvcc makes)
                b.setLength(b.length() - 1);
                int at = b.lastIndexOf(".visible .entry barrier_loop(");
                b.replace(at, at + ".visible .entry barrier_loop(".length(), ".visible .entry barrier_loop_" + i + "(");
                b.append('\n');
            }
            ptx = b.toString();
        }
    }

    /** Registering the 600-entry module and asking for one entry in its middle (parse what that launch needs). */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 0)
    @Measurement(iterations = 5)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public DeviceSession.Reply registerBigModuleAndLaunchOneEntry(BigModule big) {
        DeviceSession s = new DeviceSession(LaunchOptions.defaults().withBundles(null, false), SINK, SINK);
        ok(s, RuntimeProtocol.MODULE, new RuntimeProtocol.Payload().string(big.ptx).toArray());
        return ok(s, RuntimeProtocol.PARAMS, new RuntimeProtocol.Payload().u32(0).string("_Z10vector_addPKfS0_Pfi_150").toArray());
    }

    /** Registering the module (parse, place its variables, compile its first entry). */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public DeviceSession.Reply registerModule() {
        DeviceSession s = new DeviceSession(LaunchOptions.defaults(), SINK, SINK);
        return ok(s, RuntimeProtocol.MODULE, new RuntimeProtocol.Payload().string(ptx("exec_vector_add.ptx")).toArray());
    }
}
