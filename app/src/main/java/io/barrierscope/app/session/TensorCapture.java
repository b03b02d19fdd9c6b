package io.barrierscope.app.session;

import io.barrierscope.exec.Machine;
import io.barrierscope.exec.Program;
import io.barrierscope.exec.SyncEvent;
import io.barrierscope.exec.TensorFragments;
import io.barrierscope.launch.LaunchedRun;
import io.barrierscope.trace.EventCursor;
import io.barrierscope.trace.TimeTravel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Copies one operand of a tensor-core instruction out of a live run as a {@link TensorTile}. The
 * layouts come from the engine ({@link TensorFragments}), the registers and shared memory from
 * the machine as it is now; in a recorded session, an operand read through a matrix descriptor
 * comes from the state its wgmma was issued in ({@link #capture(TimeTravel, int, int, String)}).
 * Engine thread only.
 */
public final class TensorCapture {
    private TensorCapture() {}

    /**
     * As {@link #capture(LaunchedRun, int, int, String)}, but an operand read through a matrix
     * descriptor (wgmma A or B) as the warpgroup's last issue of the instruction up to now read it:
     * the registers that hold the descriptor may not hold it yet (a step before its definition) or
     * any more (a loop's next tile), so the current ones would show another matrix or none. The
     * state at that issue comes from the recording (a seek there and back; the position does not
     * change). Before any issue the cells are empty and the note says the operand is not yet
     * computed. Register operands are read as they are now; so is everything when the recording
     * holds no wgmma issues though products were formed (a trace of format 2 or older).
     */
    public static TensorTile capture(TimeTravel tt, int slot, int pc, String operand) {
        LaunchedRun run = tt.run();
        TensorTile now = capture(run, slot, pc, operand);
        if (now.pc() < 0 || !descriptor(run.program(), now.pc(), now.operand())) return now;
        long at = tt.now();
        int first = TensorFragments.warpgroupFirstWarp(run.machine(), slot >> 5);
        long issue = -1;
        int issuer = -1;
        boolean anyIssue = false;
        // the issue event's step is the warp step that issued it: the state "after issue steps" is the one it read
        EventCursor c = tt.recording().cursor(0);
        while (c.next() && c.type != EventCursor.Type.END && c.step < at) {
            if (c.type != EventCursor.Type.SYNC || c.kind != SyncEvent.WGMMA_ISSUE) continue;
            anyIssue = true;
            if (c.a == now.pc() && c.b == first) {
                issue = c.step;
                issuer = c.slot;
            }
        }
        // wgmma products formed but no issue recorded: a trace of format 2 or older, replayed without them
        if (!anyIssue && run.machine().wgmma.multiplyAdds > 0) {
            return new TensorTile(now.instructions(), now.pc(), now.operand(), now.rows(), now.cols(), now.type(), now.subject(),
                    "through the registers now (this trace does not record wgmma issues), " + now.note(), now.cells());
        }
        List<TensorTile.Cell> none = java.util.Collections.nCopies(now.rows() * now.cols(), null);
        if (issue < 0) {
            return new TensorTile(now.instructions(), now.pc(), now.operand(), now.rows(), now.cols(), now.type(), now.subject(),
                    "not yet computed at step " + at + ": this warpgroup has not issued this wgmma yet (its descriptor is read at the issue)",
                    none);
        }
        tt.seek(issue);
        try {
            TensorTile then = capture(run, issuer, now.pc(), now.operand());
            return new TensorTile(then.instructions(), then.pc(), then.operand(), then.rows(), then.cols(), then.type(), now.subject(),
                    "as issued at step " + issue + ", " + then.note(), then.cells());
        } finally {
            tt.seek(at);
        }
    }

    private static boolean descriptor(Program p, int pc, String operand) {
        TensorFragments.Instruction insn = TensorFragments.at(p, pc);
        return insn != null && insn.operands().stream().anyMatch(t -> t.name().equals(operand) && t.descriptor());
    }

    /**
     * Operand {@code operand} of the instruction at {@code pc} (-1: the first tensor-core
     * instruction; an operand it lacks: its D) as seen by thread {@code slot}'s warp, or for
     * wgmma its warpgroup.
     */
    public static TensorTile capture(LaunchedRun run, int slot, int pc, String operand) {
        Program p = run.program();
        Machine m = run.machine();
        List<TensorFragments.Instruction> all = TensorFragments.instructions(p);
        if (all.isEmpty() || slot < 0 || slot >= m.slots) return TensorTile.none();
        TensorFragments.Instruction insn = TensorFragments.at(p, pc);
        if (insn == null) insn = all.get(0);
        TensorFragments.Tile tile = insn.operands().stream().filter(t -> t.name().equals(operand)).findFirst()
                .orElse(insn.operands().get(insn.operands().size() - 1));
        int warp = slot >> 5;
        int cta = m.ctaOfSlot(slot);
        String ctaName = StateCapture.ctaName(m, cta);
        int first = insn.warpgroup() ? TensorFragments.warpgroupFirstWarp(m, warp) : warp;
        int local = first % m.warpsPerCta;
        String subject = insn.warpgroup() ? "warpgroup " + local / 4 + " (warps " + local + "-" + (local + 3) + ") of " + ctaName
                : "warp " + local + " of " + ctaName;
        TensorTile.Cell[] grid = new TensorTile.Cell[tile.rows() * tile.cols()];
        String note = "";
        boolean integral = TensorFragments.integral(p, insn.pc(), tile.name());
        long mask = tile.bits() == 64 ? -1L : (1L << tile.bits()) - 1;
        if (tile.descriptor()) {
            long desc = TensorFragments.descriptor(m, p, insn.pc(), tile.name(), slot);
            note = "descriptor 0x" + Long.toHexString(desc) + ": " + TensorFragments.describeDescriptor(desc);
            long[][] addr = TensorFragments.addresses(p, insn.pc(), tile.name(), desc);
            byte[] shared = m.memory.shared[cta];
            int bytes = Math.max(1, tile.bits() / 8); // a .b1 element is a bit of the byte addr names
            for (int r = 0; r < tile.rows(); r++) {
                for (int c = 0; c < tile.cols(); c++) {
                    long a = addr[r][c];
                    boolean inside = a >= 0 && a + bytes <= shared.length;
                    int shift = TensorFragments.shiftInByte(p, insn.pc(), tile.name(), r, c);
                    long bits = inside ? (littleEndian(shared, (int) a, bytes) >>> shift) & mask : 0;
                    String v = inside ? format(TensorFragments.value(p, insn.pc(), tile.name(), bits), integral) : "?";
                    grid[r * tile.cols() + c] = new TensorTile.Cell(r, c, -1, -1, "", a, bits, v);
                }
            }
        } else {
            for (TensorFragments.Cell f : TensorFragments.cells(p, insn.pc(), tile.name())) {
                int s = ((first + f.warp()) << 5) + f.lane();
                // a warpgroup cut short by the CTA's end (a diagnostic when it issues) holds nothing past it
                boolean held = f.register() >= 0 && (first + f.warp()) / m.warpsPerCta == cta && s < m.slots && m.exists(s);
                long bits = held ? (m.reg(s, f.register()) >>> f.shift()) & mask : 0;
                String v = held ? format(TensorFragments.value(p, insn.pc(), tile.name(), bits), integral) : "?";
                grid[f.row() * tile.cols() + f.col()] = new TensorTile.Cell(f.row(), f.col(), f.warp(), f.lane(), f.registerName(), -1, bits, v);
            }
        }
        return new TensorTile(all, insn.pc(), tile.name(), tile.rows(), tile.cols(), tile.type(), subject, note,
                java.util.Collections.unmodifiableList(new ArrayList<>(Arrays.asList(grid))));
    }

    private static long littleEndian(byte[] b, int at, int n) {
        long v = 0;
        for (int i = n - 1; i >= 0; i--) v = v << 8 | (b[at + i] & 0xFF);
        return v;
    }

    /** Integers as integers; other values in the shortest form that reads back exactly (a float, or a double when it needs one). */
    static String format(double v, boolean integral) {
        if (integral) return Long.toString((long) v);
        if (v == Math.rint(v) && Math.abs(v) < 1e15) return Long.toString((long) v);
        float f = (float) v;
        return f == v ? Float.toString(f) : Double.toString(v);
    }
}
