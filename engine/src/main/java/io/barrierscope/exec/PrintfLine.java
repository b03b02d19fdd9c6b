package io.barrierscope.exec;

/** One device printf call: the step, the thread slot and its name, and the formatted text. */
public record PrintfLine(long step, int slot, String thread, String text) {}
