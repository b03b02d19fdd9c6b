package io.barrierscope.sync;

import java.util.Collection;
import java.util.Collections;
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
}
