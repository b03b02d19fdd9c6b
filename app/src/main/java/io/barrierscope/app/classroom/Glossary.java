package io.barrierscope.app.classroom;

import io.barrierscope.exec.ThreadStatus;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The barrier vocabulary the window uses, each term explained in one sentence with the PTX ISA
 * section that defines it. Tooltips and the help overlay read from here, so a term is explained
 * the same way everywhere.
 */
public final class Glossary {
    private static final String DOCS = "https://docs.nvidia.com/cuda/parallel-thread-execution/index.html#";
    private static final String SYNC = "parallel-synchronization-and-communication-instructions-";

    /**
     * One term.
     *
     * @param section the PTX ISA section, e.g. "9.7.13.15.4", or "" when the term is BarrierScope's own
     * @param anchor  the section's anchor in NVIDIA's PTX documentation, or null
     */
    public record Term(String name, String sentence, String section, String anchor) {
        /** The sentence followed by where it is defined, for a tooltip. */
        public String tooltip() {
            return sentence + (section.isEmpty() ? "" : " (PTX ISA " + section + ")");
        }

        /** The documentation address of the section, or null. */
        public String url() { return anchor == null ? null : DOCS + anchor; }
    }

    public static final Term GENERATION = new Term("generation",
            "A CTA barrier is reinitialised for immediate reuse each time it completes; each use is one generation.",
            "9.7.13.1", SYNC + "bar");
    public static final Term WARP_ARRIVAL = new Term("arrival (CTA barrier)",
            "A warp arrives on a CTA barrier once all its non-exited threads have executed bar/barrier; arrivals are counted per warp.",
            "9.7.13.1", SYNC + "bar");
    public static final Term BARRIER_COUNT = new Term("thread count",
            "bar with a thread count b waits for b/32 warps; without one it waits for every warp with non-exited threads.",
            "9.7.13.1", SYNC + "bar");
    public static final Term PHASE = new Term("phase",
            "The number of times an mbarrier has completed; the current phase is incomplete and every earlier one is complete.",
            "9.7.13.15.4", SYNC + "mbarrier-phase");
    public static final Term PARITY = new Term("parity",
            "The low bit of the phase: try_wait.parity p returns true once the phase with parity p has completed.",
            "9.7.13.15.16", SYNC + "mbarrier-test-wait-try-wait");
    public static final Term PENDING = new Term("pending",
            "Arrive-on operations the current phase still needs; on completion it is reset to the expected count.",
            "9.7.13.15.2", SYNC + "mbarrier-contents");
    public static final Term EXPECTED = new Term("expected",
            "Arrivals each phase needs, set by mbarrier.init and lowered by arrive_drop.",
            "9.7.13.15.2", SYNC + "mbarrier-contents");
    public static final Term TX_COUNT = new Term("tx-count",
            "Bytes of asynchronous transactions the current phase still waits for: expect-tx raises it, complete-tx "
                    + "lowers it, and the phase completes only when it and pending are both zero.",
            "9.7.13.15.5", SYNC + "mbarrier-tracking-async-operations");
    public static final Term EXPECT_TX = new Term("expect-tx",
            "Raises the tx-count by the bytes the current phase must also wait for.",
            "9.7.13.15.5.1", SYNC + "mbarrier-expect-tx-operation");
    public static final Term COMPLETE_TX = new Term("complete-tx",
            "Lowers the tx-count when an asynchronous copy's bytes have landed, possibly completing the phase.",
            "9.7.13.15.5.2", SYNC + "mbarrier-complete-tx-operation");
    public static final Term ARRIVE_ON = new Term("arrive-on",
            "Lowers the pending count by one (or by count) and completes the phase if nothing else is pending.",
            "9.7.13.15.7", SYNC + "mbarrier-arrive-on");
    public static final Term PHASE_COMPLETION = new Term("phase completion",
            "When pending and tx-count both reach zero the mbarrier moves to the next phase and pending is reset to expected.",
            "9.7.13.15.6", SYNC + "mbarrier-phase-completion");
    public static final Term SUSPENDED = new Term("suspended",
            "mbarrier.try_wait may suspend the thread until the phase completes or a time limit passes.",
            "9.7.13.15.16", SYNC + "mbarrier-test-wait-try-wait");
    public static final Term PARKED = new Term("parked",
            "BarrierScope parks a thread that polls an mbarrier which has not changed since its last poll, with no side "
                    + "effect in between, so a spin loop that can never succeed shows up as a deadlock (semantics section 9).",
            "", null);
    public static final Term WARP_SYNC = new Term("warp sync mask",
            "bar.warp.sync and the .sync warp instructions wait until every lane named in the membermask has reached them.",
            "9.7.13.2", SYNC + "bar-warp-sync");
    public static final Term CLUSTER_BARRIER = new Term("cluster barrier",
            "barrier.cluster.wait waits until every non-exited thread of the cluster has performed barrier.cluster.arrive.",
            "9.7.13.3", SYNC + "barrier-cluster");
    public static final Term ASYNC_GROUP = new Term("async group",
            "cp.async.commit_group closes a thread's cp.async operations into a group; wait_group N waits until at most "
                    + "N of its groups are still pending.",
            "9.7.9.25.3", null);
    public static final Term MBARRIER = new Term("mbarrier",
            "An 8-byte object in shared memory that tracks a phase, pending and expected arrivals and a tx-count.",
            "9.7.13.15", SYNC + "mbarrier");

    public static final List<Term> ALL = List.of(GENERATION, WARP_ARRIVAL, BARRIER_COUNT, MBARRIER, PHASE, PARITY,
            PENDING, EXPECTED, ARRIVE_ON, TX_COUNT, EXPECT_TX, COMPLETE_TX, PHASE_COMPLETION, SUSPENDED, PARKED,
            WARP_SYNC, CLUSTER_BARRIER, ASYNC_GROUP);

    private Glossary() {}

    /** The term of that name (case-insensitive), if there is one. */
    public static Optional<Term> find(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return ALL.stream().filter(t -> t.name().equals(n)).findFirst();
    }

    /** The term that explains a thread state, if one does. */
    public static Optional<Term> forStatus(byte status) {
        return Optional.ofNullable(switch (status) {
            case ThreadStatus.BAR_GATHER, ThreadStatus.BAR_WAIT -> WARP_ARRIVAL;
            case ThreadStatus.WARP_SYNC -> WARP_SYNC;
            case ThreadStatus.MBAR_WAIT -> SUSPENDED;
            case ThreadStatus.PARKED -> PARKED;
            case ThreadStatus.CLUSTER_GATHER, ThreadStatus.CLUSTER_WAIT -> CLUSTER_BARRIER;
            case ThreadStatus.ASYNC_WAIT -> ASYNC_GROUP;
            default -> null;
        });
    }
}
