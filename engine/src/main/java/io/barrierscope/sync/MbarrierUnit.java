package io.barrierscope.sync;

import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/** Every mbarrier object of a launch, keyed by CTA and shared offset, in a fixed order. */
public final class MbarrierUnit {
    private final TreeMap<Long, Mbarrier> objects = new TreeMap<>();

    public static long key(int cta, int offset) { return ((long) cta << 32) | (offset & 0xFFFFFFFFL); }

    /** The object at a place (created invalid on first touch). */
    public Mbarrier at(int cta, int offset) {
        return objects.computeIfAbsent(key(cta, offset), k -> new Mbarrier(cta, offset));
    }

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
        int j = 0;
        // Both sides are in key order: one merge pass drops the objects touched after the checkpoint.
        for (Iterator<Map.Entry<Long, Mbarrier>> it = objects.entrySet().iterator(); it.hasNext(); ) {
            long k = it.next().getKey();
            while (j < saved.length && key(saved[j].cta, saved[j].offset) < k) j++;
            if (j == saved.length || key(saved[j].cta, saved[j].offset) != k) it.remove();
        }
        for (Mbarrier s : saved) {
            Mbarrier b = objects.get(key(s.cta, s.offset));
            if (b == null) objects.put(key(s.cta, s.offset), s.copy());
            else b.copyFrom(s);
        }
    }
}
