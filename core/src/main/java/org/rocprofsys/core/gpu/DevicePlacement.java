package org.rocprofsys.core.gpu;

import java.util.List;

/**
 * How the trace draws one piece of device work, as its backend decides: the track, the slice's
 * category and its annotations (after the begin and end times every GPU slice may carry).
 */
public record DevicePlacement(DeviceTrack track, String category, List<GpuAnnotation> annotations) {
    public DevicePlacement {
        annotations = List.copyOf(annotations);
    }
}
