package io.barrierscope.app.classroom;

import io.barrierscope.exec.ThreadStatus;

/** Short names of thread states for table cells; the engine's longer names go in tooltips. */
public final class StateNames {
    private StateNames() {}

    public static String shortName(byte status) {
        return switch (status) {
            case ThreadStatus.RUNNABLE -> "runnable";
            case ThreadStatus.BAR_GATHER -> "bar (gathering)";
            case ThreadStatus.BAR_WAIT -> "bar wait";
            case ThreadStatus.WARP_SYNC -> "warp sync";
            case ThreadStatus.SLEEPING -> "sleeping";
            case ThreadStatus.EXITED -> "exited";
            case ThreadStatus.TRAPPED -> "trapped";
            case ThreadStatus.MBAR_WAIT -> "mbarrier wait";
            case ThreadStatus.PARKED -> "parked";
            case ThreadStatus.CLUSTER_GATHER -> "cluster (gathering)";
            case ThreadStatus.CLUSTER_WAIT -> "cluster wait";
            case ThreadStatus.ASYNC_WAIT -> "async wait";
            default -> "unknown";
        };
    }

    /** The engine's sentence for a state, for a tooltip. */
    public static String longName(byte status) {
        return ThreadStatus.name(status);
    }

    /** Whether the state is a wait on other threads or on copies (not running, sleeping or gone). */
    public static boolean waiting(byte status) {
        return switch (status) {
            case ThreadStatus.RUNNABLE, ThreadStatus.SLEEPING, ThreadStatus.EXITED, ThreadStatus.TRAPPED -> false;
            default -> true;
        };
    }
}
