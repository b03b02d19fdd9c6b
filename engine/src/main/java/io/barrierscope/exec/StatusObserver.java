package io.barrierscope.exec;

/** Sees thread status changes: {@code lanes} of {@code warp} went from {@code from} to {@code to} together. */
@FunctionalInterface
public interface StatusObserver {
    void statusChanged(int warp, int lanes, byte from, byte to);
}
