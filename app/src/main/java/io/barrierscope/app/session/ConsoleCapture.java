package io.barrierscope.app.session;

import io.barrierscope.exec.Op;
import io.barrierscope.exec.PrintfLine;
import io.barrierscope.trace.Recording;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.List;

/**
 * Copies the recording's device printf lines out for the console, each with the PTX line of the
 * call that printed it (the op its warp step executed). Engine thread only.
 */
final class ConsoleCapture {
    private ConsoleCapture() {}

    /** The recording's printf lines from index {@code from} on; empty when there are none new. */
    static List<ConsoleLine> since(TimeTravel tt, int from) {
        Recording rec = tt.recording();
        List<PrintfLine> all = rec.printf();
        if (from >= all.size()) return List.of();
        Op[] code = tt.run().program().code;
        List<ConsoleLine> out = new ArrayList<>(all.size() - from);
        for (int i = from; i < all.size(); i++) {
            PrintfLine p = all.get(i);
            int pc = p.step() < rec.steps() ? rec.pcOf(p.step()) : -1;
            int line = pc >= 0 && pc < code.length ? code[pc].insn.pos().line() : 0;
            out.add(new ConsoleLine(p.step(), p.slot(), p.thread(), p.text(), line));
        }
        return List.copyOf(out);
    }
}
