package io.barrierscope.trace;

/**
 * A structural check of a trace file's event stream (the merged format {@link Recording#encoded}
 * writes) before anything is replayed: every record must be whole and of a known type. It counts
 * the warp steps, so a header cannot make a replay run longer than the events it carries.
 */
final class EventScan {
    private final byte[] b;
    private int p;

    private EventScan(byte[] b) { this.b = b; }

    /** The warp-step records in {@code events}, or {@code -(offset + 1)} of the first malformed record. */
    static long warpSteps(byte[] events) {
        EventScan s = new EventScan(events);
        long steps = 0;
        int start = 0;
        try {
            while (s.p < events.length) {
                start = s.p;
                int h = events[s.p++] & 0xFF;
                if (h >>> 4 == 15) s.uvarint();
                switch (h & 0x0F) {
                    case Recording.T_STEP_FULL, Recording.T_STEP, Recording.T_STEP_GUARD -> {
                        s.uvarint();
                        s.uvarint();
                        int t = h & 0x0F;
                        if (t != Recording.T_STEP_FULL) s.skip(4);
                        if (t == Recording.T_STEP_GUARD) s.skip(4);
                        steps++;
                    }
                    case Recording.T_SYNC -> {
                        s.skip(1);
                        for (int i = 0; i < 4; i++) s.uvarint();
                    }
                    case Recording.T_STATUS -> {
                        s.uvarint();
                        s.skip(2);
                    }
                    case Recording.T_STATUS_LANES -> {
                        s.uvarint();
                        s.skip(6);
                    }
                    case Recording.T_JUMP, Recording.T_DIAG, Recording.T_PRINTF -> s.uvarint();
                    case Recording.T_END -> s.skip(1);
                    default -> throw new IllegalStateException();
                }
            }
        } catch (IllegalStateException e) {
            return -(start + 1L);
        }
        return steps;
    }

    private void skip(int n) {
        if (n > b.length - p) throw new IllegalStateException();
        p += n;
    }

    /** A varint of at most ten bytes, wholly inside the stream. */
    private void uvarint() {
        for (int i = 0; i < 10; i++) {
            if (p >= b.length) throw new IllegalStateException();
            if ((b[p++] & 0x80) == 0) return;
        }
        throw new IllegalStateException();
    }
}
