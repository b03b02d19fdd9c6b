package io.barrierscope.exec;

/** A CUDA dim3. */
public record Dim3(int x, int y, int z) {
    public static final Dim3 ONE = new Dim3(1, 1, 1);

    public long volume() { return (long) x * y * z; }

    public int[] toArray() { return new int[] {x, y, z}; }

    /** The coordinates of linear index {@code i} (x fastest). */
    public Dim3 unflatten(int i) { return new Dim3(i % x, (i / x) % y, i / (x * y)); }

    public int get(int component) {
        return switch (component) {
            case 0 -> x;
            case 1 -> y;
            default -> z;
        };
    }

    @Override
    public String toString() { return "(" + x + "," + y + "," + z + ")"; }
}
