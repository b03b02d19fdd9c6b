package io.barrierscope.exec;

import java.util.ArrayList;
import java.util.List;

/** Where each declared variable was placed, per space, so messages can name the nearest one. */
public final class SymbolTable {
    /** One placed variable. */
    public record Placed(int space, String name, long offset, long size) {}

    private final List<Placed> placed = new ArrayList<>();

    public void add(int space, String name, long offset, long size) {
        placed.add(new Placed(space, name, offset, size));
    }

    public List<Placed> all() { return placed; }

    /** The variable containing or nearest to {@code addr} in {@code space}. */
    public String nearest(int space, long addr) {
        Placed best = null;
        long bestDist = Long.MAX_VALUE;
        for (Placed p : placed) {
            if (p.space != space) continue;
            long end = p.offset + Math.max(p.size, 1);
            long d = addr < p.offset ? p.offset - addr : (addr >= end ? addr - end + 1 : 0);
            if (d < bestDist) {
                bestDist = d;
                best = p;
            }
        }
        if (best == null) return "no " + Space.name(space) + " variable is declared";
        if (bestDist == 0) return "inside '" + best.name + "' at offset " + (addr - best.offset) + " of " + best.size + " bytes";
        return addr < best.offset
                ? "nearest is '" + best.name + "' starting " + (best.offset - addr) + " bytes above"
                : "nearest is '" + best.name + "' (" + best.size + " bytes) ending " + (addr - best.offset - best.size) + " bytes below";
    }
}
