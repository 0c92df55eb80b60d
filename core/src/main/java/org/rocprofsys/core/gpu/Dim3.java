package org.rocprofsys.core.gpu;

/** A launch dimension (grid or block / workgroup sizes). */
public record Dim3(int x, int y, int z) {
    /** {@code (x,y,z)}, the way upstream's annotations show sizes. */
    @Override
    public String toString() {
        return "(" + x + "," + y + "," + z + ")";
    }

    public long total() {
        return (long) x * y * z;
    }
}
