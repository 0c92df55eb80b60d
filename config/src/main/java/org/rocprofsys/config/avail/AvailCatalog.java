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

    /** Every catalog on the class path, merged. */
    static AvailCatalog installed() {
        List<AvailableComponent> components = new ArrayList<>();
        List<HardwareCounter> counters = new ArrayList<>();
        for (AvailCatalog c : ServiceLoader.load(AvailCatalog.class)) {
            components.addAll(c.components());
            counters.addAll(c.hardwareCounters());
        }
        return of(components, counters);
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
