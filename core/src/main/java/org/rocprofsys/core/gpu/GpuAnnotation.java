package org.rocprofsys.core.gpu;

import java.util.ArrayList;
import java.util.List;

/**
 * A typed annotation the backend puts on a piece of device work in the trace (a kernel's grid
 * size, a dispatch id), in the order it gives them.
 *
 * @param number the value of an {@link Kind#UINT} or {@link Kind#INT} annotation
 * @param text   the value of a {@link Kind#STRING} one
 */
public record GpuAnnotation(String name, Kind kind, long number, String text) {
    /** The annotation's type in the trace. */
    public enum Kind {
        UINT,
        INT,
        STRING
    }

    public static GpuAnnotation uint(String name, long value) {
        return new GpuAnnotation(name, Kind.UINT, value, null);
    }

    public static GpuAnnotation integer(String name, long value) {
        return new GpuAnnotation(name, Kind.INT, value, null);
    }

    public static GpuAnnotation string(String name, String value) {
        return new GpuAnnotation(name, Kind.STRING, 0, value);
    }

    /** Builds a list of annotations in order. */
    public static final class Builder {
        private final List<GpuAnnotation> list = new ArrayList<>(10);

        public Builder uint(String name, long value) {
            list.add(GpuAnnotation.uint(name, value));
            return this;
        }

        public Builder integer(String name, long value) {
            list.add(GpuAnnotation.integer(name, value));
            return this;
        }

        public Builder string(String name, String value) {
            list.add(GpuAnnotation.string(name, value));
            return this;
        }

        public List<GpuAnnotation> build() {
            return List.copyOf(list);
        }
    }

    public static Builder builder() {
        return new Builder();
    }
}
