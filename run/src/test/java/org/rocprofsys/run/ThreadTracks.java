package org.rocprofsys.run;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.rocprofsys.tracetest.DecodedTrace;

/** The slices of a decoded trace per thread track, for the threading runtimes' end-to-end tests. */
final class ThreadTracks {
    private ThreadTracks() {}

    /** thread name -> (slice name -> count) of the slices of {@code category}. */
    static Map<String, Map<String, Long>> counts(DecodedTrace trace, String category) {
        Map<Long, String> names = trace.tracks.values().stream()
                .filter(DecodedTrace.Track::isThread)
                .collect(Collectors.toMap(
                        DecodedTrace.Track::uuid,
                        t -> t.descriptor().getThread().getThreadName()));
        Map<String, Map<String, Long>> out = new TreeMap<>();
        for (DecodedTrace.Slice s : trace.slices) {
            if (!s.instant && category.equals(s.category) && names.containsKey(s.trackUuid)) {
                out.computeIfAbsent(names.get(s.trackUuid), k -> new TreeMap<>())
                        .merge(s.name, 1L, Long::sum);
            }
        }
        return out;
    }
}
