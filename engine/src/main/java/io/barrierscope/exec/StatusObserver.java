package io.barrierscope.exec;

/** Sees each thread status change as it happens (the interpreter forwards them to its listeners). */
@FunctionalInterface
public interface StatusObserver {
    void statusChanged(int slot, byte from, byte to);
}
