package org.rocprofsys.config.avail;

import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * What a module contributes to rocprof-sys-avail's component and counter tables. Each module that
 * implements a component or a counter source registers one in
 * {@code META-INF/services/org.rocprofsys.config.avail.AvailCatalog}, so the tables list exactly
 * what the distribution contains.
 */
public interface AvailCatalog {
    List<AvailableComponent> components();

    List<HardwareCounter> hardwareCounters();

    /**
     * Every catalog on the class path, merged, each list gathered when first asked for: the counter
     * catalogs probe the machine (PAPI, perf_event_open), which only {@code -H} needs.
     */
    static AvailCatalog installed() {
        List<AvailCatalog> catalogs = new ArrayList<>();
        ServiceLoader.load(AvailCatalog.class).forEach(catalogs::add);
        return new AvailCatalog() {
            private List<AvailableComponent> components;
            private List<HardwareCounter> counters;

            @Override
            public synchronized List<AvailableComponent> components() {
                if (components == null) {
                    components = catalogs.stream()
                            .flatMap(c -> c.components().stream())
                            .toList();
                }
                return components;
            }

            @Override
            public synchronized List<HardwareCounter> hardwareCounters() {
                if (counters == null) {
                    counters = catalogs.stream()
                            .flatMap(c -> c.hardwareCounters().stream())
                            .toList();
                }
                return counters;
            }
        };
    }

    static AvailCatalog of(List<AvailableComponent> components, List<HardwareCounter> counters) {
        List<AvailableComponent> cs = List.copyOf(components);
        List<HardwareCounter> hs = List.copyOf(counters);
        return new AvailCatalog() {
            @Override
            public List<AvailableComponent> components() {
                return cs;
            }

            @Override
            public List<HardwareCounter> hardwareCounters() {
                return hs;
            }
        };
    }
}
