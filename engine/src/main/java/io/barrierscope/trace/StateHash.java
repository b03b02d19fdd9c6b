package io.barrierscope.trace;

import io.barrierscope.exec.GlobalMemory;
import io.barrierscope.exec.Interpreter;
import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Memory;
import io.barrierscope.sync.AsyncOperation;
import io.barrierscope.sync.CtaBarrier;
import io.barrierscope.sync.CtaBarrierUnit;
import io.barrierscope.sync.ClusterBarrier;
import io.barrierscope.sync.Mbarrier;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit fingerprint of the semantic run state, to check that re-execution from a checkpoint
 * retraces the original run. Only values are hashed, in a fixed order (no identity hashes, no
 * hash-map order), so it is the same on every JVM. Caches ({@link Machine#uniform}), scratch,
 * listeners and a pending brkpt pause are not state and are left out.
 */
public final class StateHash {
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long M = 0x9E3779B97F4A7C15L;

    private long h = 0x6A09E667F3BCC909L;
    /** Explore's cached digests, or null: the word-by-word hash of traces. */
    private final Digests digests;

    private StateHash(Digests digests) { this.digests = digests; }

    /**
     * Explore's incremental hash (see docs/explore.md, "State hashes"): the same state read in the
     * same order, but the per-thread arrays enter as one cached digest per warp and each race-detector
     * vector clock as its own cached digest. A different 64-bit value from {@link #of(Interpreter)}
     * (never compared with it), telling apart the same states. Traces keep {@link #of(Interpreter)}.
     */
    public interface Digests {
        /** Feeds, warp by warp, one digest of the warp's pc, status, registers, wait fields, carry, call stacks, cluster phase and last polls. */
        void threads(Machine m, java.util.function.LongConsumer h);

        /** Feeds {@code a} (null: -1; else its length, then one digest per block), cached under {@code key}. */
        void longs(int key, long[] a, java.util.function.LongConsumer h);

        /** As {@link #longs} for bytes. */
        void bytes(int key, byte[] a, java.util.function.LongConsumer h);
    }

    // Keys of the arrays explore's hash takes by block digests.
    private static final int KEY_CP_GROUP = 0;
    private static final int KEY_BULK_GROUP = 1;
    private static final int KEY_EFFECTS = 2;
    private static final int KEY_LOCAL = 3;
    private static final int KEY_THREAD_PARAMS = 4;
    private static final int KEY_SHARED = 16; // + CTA
    private static final int KEY_GLOBAL = 1 << 20; // + segment

    private void longs(int key, long[] a) {
        if (digests != null) digests.longs(key, a, this::add);
        else add(a);
    }

    private void bytes(int key, byte[] a) {
        if (digests != null) digests.bytes(key, a, this::add);
        else add(a);
    }

    /** As {@link #of(Interpreter)} with {@code digests} standing in for the per-thread arrays and the vector clocks. */
    public static long of(Interpreter x, Digests digests) {
        if (digests == null) throw new IllegalArgumentException("digests");
        return of(new StateHash(digests), x);
    }

    /** A 64-bit hash of all semantic run state: pcs, statuses, registers, all memory (shared, local, global buffers, params), barrier objects, mbarriers, async ops in flight, cycles, steps, policy RNG state, outcome, number of diagnostics. Deterministic across JVM runs (no identityHashCode, no HashMap order). */
    public static long of(Interpreter x) { return of(new StateHash(null), x); }

    private static long of(StateHash s, Interpreter x) {
        s.interpreter(x);
        s.machine(x.machine());
        s.memory(x.machine().memory);
        if (x.machine().race != null) {
            s.tag(9);
            if (s.digests == null) x.machine().race.hashInto(s::add);
            else x.machine().race.hashInto((io.barrierscope.exec.MemoryModelHook.ClockDigests) s::add);
        }
        return fmix(s.h);
    }

    private void add(long v) { h = mix(h, v); }

    /**
     * One word into the running hash; each step is a bijection of h for a fixed input, so any one
     * differing word changes the result. Public so explore's cached digests mix exactly as traces do.
     */
    public static long mix(long h, long v) {
        long z = (h ^ v) * M;
        return z ^ (z >>> 29);
    }

    private void add(boolean b) { add(b ? 1 : 0); }

    private void tag(int section) { add(0x5EC7_0000_0000L | section); }

    private void add(byte[] a) {
        if (a == null) {
            add(-1);
            return;
        }
        add(a.length);
        int i = 0;
        for (; i + 8 <= a.length; i += 8) add((long) I64.get(a, i));
        long tail = 0;
        for (int k = 0; i < a.length; i++, k += 8) tail |= (a[i] & 0xFFL) << k;
        add(tail);
    }

    private void add(int[] a, int n) {
        add(n);
        for (int i = 0; i < n; i++) add(a[i]);
    }

    private void add(long[] a) {
        add(a.length);
        for (long v : a) add(v);
    }

    private void interpreter(Interpreter x) {
        tag(1);
        add(x.outcome().ordinal());
        add(x.nextWake());
        add(x.diagnostics().size());
        add(x.printfLines().size());
        add(x.policy().name().hashCode()); // String.hashCode is specified, so stable across JVMs
        add(x.policy().saveState());
    }

    private void machine(Machine m) {
        tag(2);
        add(m.slots);
        add(m.regsPerThread);
        if (digests != null) {
            digests.threads(m, this::add);
        } else {
            add(m.pc, m.pc.length);
            add(m.status);
            add(m.regs);
            add(m.waitArg, m.waitArg.length);
            add(m.waitArg2, m.waitArg2.length);
            add(m.wakeTime);
            add(m.waitValue);
            add(m.carry);
            for (int s = 0; s < m.slots; s++) {
                // Only the live part of a call stack is state; the rest of the row is stale.
                if (m.callDepth[s] > 0) {
                    add(s);
                    add(m.callStack[s], m.callDepth[s]);
                }
            }
        }
        add(m.runMask, m.warps);
        add(m.liveMask, m.warps);
        add(m.existMask, m.warps);
        add(m.liveWarps, m.ctas);
        add(m.liveWarpCount);
        add(m.explicitCluster);
        add(m.cycles);
        add(m.steps);
        add(m.threadInstructions);
        if (digests == null) { // else in the warps' digests
            add(m.clusterArrivedPhase);
            add(m.lastPollKey);
            add(m.lastPollVersion);
            add(m.lastPollEffects);
        }
        tag(3);
        for (CtaBarrierUnit u : m.ctaBarriers) {
            for (CtaBarrier b : u.barriers) {
                add(b.generation);
                add(b.arrivedWarps);
                add(b.count);
                add(b.firstPc, b.firstPc.length);
                for (boolean f : b.firstAligned) add(f);
                add(b.redPopc);
                add(b.redAnd);
                add(b.redOr);
            }
        }
        tag(4);
        for (int c = 0; c < m.ctas; c++) {
            ClusterBarrier b = m.clusterBarriers[c];
            add(b.firstCta); // the aliasing: which cluster's barrier each CTA sees
            if (b.firstCta != c) continue;
            add(b.phase);
            add(b.arrived);
        }
        tag(5);
        for (Mbarrier b : m.mbarriers.all()) {
            // An object only looked at (created on first touch, never changed) equals an absent one:
            // a view calling MbarrierUnit.at must not change the hash.
            if (pristine(b)) continue;
            add(b.cta);
            add(b.offset);
            add(b.valid);
            add(b.phase);
            add(b.pending);
            add(b.expected);
            add(b.tx);
            add(b.arrivals);
            add(b.txExpected);
            add(b.txCompleted);
            add(b.observedPrevious);
            add(b.version);
            add(b.initPc);
            // The incarnation: a state token names it (MbarrierSync.state), so two objects that
            // differ only there are different states. Hashed only past the first init (0 and 1
            // differ in initPc already), so traces recorded before this rule still verify.
            if (b.inits > 1) add(b.inits);
        }
        tag(6);
        add(m.async.issued());
        longs(KEY_CP_GROUP, m.async.cpGroup);
        longs(KEY_BULK_GROUP, m.async.bulkGroup);
        for (AsyncOperation o : m.async.all()) asyncOperation(o);
    }

    private static boolean pristine(Mbarrier b) {
        return !b.valid && b.version == 0 && b.phase == 0 && b.pending == 0 && b.expected == 0 && b.tx == 0 && b.arrivals == 0
                && b.txExpected == 0 && b.txCompleted == 0 && b.observedPrevious && b.initPc == -1 && b.inits == 0;
    }

    private void asyncOperation(AsyncOperation o) {
        add(o.id());
        add(o.readyAt());
        add(o.kind().ordinal());
        add(o.slot());
        add(o.pc());
        add(o.group());
        add(o.srcSpace());
        add(o.src());
        add(o.dstCtas(), o.dstCtas().length);
        add(o.dst());
        add(o.size());
        add(o.mbarrierOffset());
        add(o.value());
        add(o.redOp());
        if (o.tensor() == null) {
            add(-1);
            return;
        }
        var t = o.tensor().map();
        add(t.rank());
        add(t.base());
        add(t.elementSize());
        add(t.dims());
        add(t.strides());
        add(t.box(), t.box().length);
        add(o.tensor().coords());
        if (t.im2col() != null) { // only then: hashes of tile copies stay what they were
            add(t.im2col().lower(), t.im2col().lower().length);
            add(t.im2col().upper(), t.im2col().upper().length);
            add(o.tensor().offsets(), o.tensor().offsets().length);
        }
    }

    private void memory(Memory mem) {
        tag(7);
        for (int c = 0; c < mem.shared.length; c++) bytes(KEY_SHARED + c, mem.shared[c]);
        bytes(KEY_LOCAL, mem.local);
        bytes(KEY_THREAD_PARAMS, mem.threadParams);
        add(mem.kernelParams);
        add(mem.constBank);
        for (byte[] w : mem.mbarrierWords) add(w);
        add(mem.validMbarriers);
        longs(KEY_EFFECTS, mem.effects);
        for (boolean e : mem.ctaExited) add(e);
        tag(8);
        int k = KEY_GLOBAL;
        for (GlobalMemory.Segment s : mem.global.segments()) {
            add(s.base());
            add(s.readOnly());
            bytes(k++, s.data());
        }
    }

    /** The final avalanche of MurmurHash3, so nearby states give unrelated hashes (public for explore's digests too). */
    public static long fmix(long k) {
        k ^= k >>> 33;
        k *= 0xFF51AFD7ED558CCDL;
        k ^= k >>> 33;
        k *= 0xC4CEB93FE53A874DL;
        return k ^ (k >>> 33);
    }
}
