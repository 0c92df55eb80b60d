package org.rocprofsys.rocprofv3.trace;

/**
 * rocprofv3's agent numbering: node 0 is the host CPU, GPU {@code d} (the runtime's device index)
 * is node {@code d + 1}; its files name them {@code Agent <node>}.
 */
public final class Agents {
    private Agents() {}

    /** The node of a device index, -1 (host memory) being the CPU's. */
    public static int node(int device) {
        return device < 0 ? 0 : device + 1;
    }

    public static String name(int device) {
        return "Agent " + node(device);
    }
}
