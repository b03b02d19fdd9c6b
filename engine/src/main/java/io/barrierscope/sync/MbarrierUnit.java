package io.barrierscope.sync;

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/** Every mbarrier object of a launch, keyed by CTA and shared offset, in a fixed order. */
public final class MbarrierUnit {
    private final TreeMap<Long, Mbarrier> objects = new TreeMap<>();
    /**
     * The objects looked up lately, by a hash of their place: every lane of every mbarrier
     * instruction looks its object up, nearly always one of a few, and the tree lookup boxes its
     * key. An entry is only ever the object the tree holds for its place; {@link #restore}, the
     * one thing that replaces or drops objects, empties it.
     */
    private final Mbarrier[] recent = new Mbarrier[1024];

    /** Scratch of the polls' fixpoint states, valid within one poll's execution only. */
    final PollHashes pollHashes = new PollHashes();

    /** Threads parked on any object (the sum of their {@code parked}), so a memory write with nobody parked costs nothing. */
    int parkedTotal;

    /** Whether some thread is parked on some object. */
    public boolean anyParked() { return parkedTotal > 0; }

    public static long key(int cta, int offset) { return ((long) cta << 32) | (offset & 0xFFFFFFFFL); }

    /** The object at a place (created invalid on first touch). */
    public Mbarrier at(int cta, int offset) {
        Mbarrier b = find(cta, offset);
        if (b == null) {
            b = new Mbarrier(cta, offset);
            objects.put(key(cta, offset), b);
            recent[slot(cta, offset)] = b;
        }
        return b;
    }

    /** The object at a place, or null when nothing touched it yet. */
    public Mbarrier find(int cta, int offset) {
        int h = slot(cta, offset);
        Mbarrier b = recent[h];
        if (b != null && b.offset == offset && b.cta == cta) return b;
        b = objects.get(key(cta, offset));
        if (b != null) recent[h] = b;
        return b;
    }

    /** Distinct for up to 64 objects in each CTA of a 16-CTA cluster (a cluster pipeline's 16 x 8 missed in 64 slots). */
    private int slot(int cta, int offset) { return ((offset >>> 3) + (cta << 6)) & (recent.length - 1); }

    public Mbarrier get(long key) { return objects.get(key); }

    /** All objects ever touched, by CTA then offset. */
    public Collection<Mbarrier> all() { return Collections.unmodifiableCollection(objects.values()); }

    /** Copies of all objects, in key order, for a checkpoint. */
    public Mbarrier[] save() {
        Mbarrier[] out = new Mbarrier[objects.size()];
        int i = 0;
        for (Mbarrier b : objects.values()) out[i++] = b.copy();
        return out;
    }

    /**
     * Makes the set of objects and their states those of {@code saved} (from {@link #save}).
     * Objects present in both keep their identity (a view may hold one); the saved copies are
     * never inserted themselves, so the checkpoint stays valid for further restores.
     */
    public void restore(Mbarrier[] saved) {
        java.util.Arrays.fill(recent, null);
        int j = 0;
        // Both sides are in key order: one merge pass drops the objects touched after the checkpoint.
        for (Iterator<Map.Entry<Long, Mbarrier>> it = objects.entrySet().iterator(); it.hasNext(); ) {
            long k = it.next().getKey();
            while (j < saved.length && key(saved[j].cta, saved[j].offset) < k) j++;
            if (j == saved.length || key(saved[j].cta, saved[j].offset) != k) it.remove();
        }
        parkedTotal = 0;
        for (Mbarrier s : saved) {
            Mbarrier b = objects.get(key(s.cta, s.offset));
            if (b == null) objects.put(key(s.cta, s.offset), s.copy());
            else b.copyFrom(s);
            parkedTotal += s.parked;
        }
    }
}
