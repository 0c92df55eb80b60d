package org.rocprofsys.config.output;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Fixed launch contexts so expected strings can be written out in full. */
final class Contexts {
    static final ZonedDateTime LAUNCH = ZonedDateTime.of(2025, 8, 9, 13, 5, 7, 0, ZoneOffset.UTC);

    private Contexts() {}

    static LaunchContext of(List<String> argv) {
        return of(argv, Map.of(), Map.of());
    }

    static LaunchContext of(List<String> argv, Map<String, String> env, Map<String, String> settings) {
        return new LaunchContext(
                argv,
                1234,
                1000,
                1200,
                900,
                LAUNCH,
                env,
                name -> Optional.ofNullable(settings.get(name)),
                Optional.empty());
    }

    static LaunchContext app() {
        return of(List.of("/usr/bin/app", "10", "4"));
    }
}
