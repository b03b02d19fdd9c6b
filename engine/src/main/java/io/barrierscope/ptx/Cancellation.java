package io.barrierscope.ptx;

/**
 * A long piece of work someone may stop and may want to watch: opening a trace (parsing its PTX,
 * re-executing its steps). The worker calls {@link #progress} every so many units of work (tokens
 * parsed, warp steps replayed); that tells the listener and, once {@link #cancel} was called from
 * any thread, throws {@link Cancelled}. It lives in the lowest package so the parser can check it
 * too; it never changes what the work computes, only whether it goes on.
 */
public final class Cancellation {
    /** Told how far the work has come: {@code done} of {@code total} units of {@code phase} ("parse", "replay"). */
    public interface Listener {
        void progress(String phase, long done, long total);
    }

    /** The work was stopped by {@link #cancel}; nothing it was building is kept. */
    public static final class Cancelled extends RuntimeException {
        public Cancelled(String phase, long done, long total) {
            super(phase + " cancelled after " + done + " of " + total);
        }
    }

    /** Never cancelled, nobody listening: what callers that cannot stop pass. */
    public static final Cancellation NONE = new Cancellation(null);

    private final Listener listener;
    private volatile boolean cancelled;

    public Cancellation(Listener listener) { this.listener = listener; }

    /** Asks the work to stop at its next check (from any thread). */
    public void cancel() {
        if (this != NONE) cancelled = true;
    }

    public boolean isCancelled() { return cancelled; }

    /** Reports progress, then throws {@link Cancelled} if a cancel came. */
    public void progress(String phase, long done, long total) {
        if (listener != null) listener.progress(phase, done, total);
        if (cancelled) throw new Cancelled(phase, done, total);
    }
}
