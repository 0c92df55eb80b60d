package org.rocprofsys.sampler.counters;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.config.avail.AvailCatalog;
import org.rocprofsys.config.avail.AvailableComponent;
import org.rocprofsys.config.avail.HardwareCounter;
import org.rocprofsys.sampler.perf.PerfEvents;
import org.rocprofsys.sampler.perf.PerfException;

/**
 * The CPU counters rocprof-sys-avail -H lists (device {@code CPU}, category {@code CPU}): PAPI's
 * presets with PAPI's own availability where libpapi is installed, and the perf events by their
 * PAPI names, each available when perf_event_open accepts it for this process (on a VM without a
 * PMU the hardware events are not).
 */
public final class CpuCounterCatalog implements AvailCatalog {
    static final String DEVICE = "CPU";

    @Override
    public List<AvailableComponent> components() {
        return List.of();
    }

    @Override
    public List<HardwareCounter> hardwareCounters() {
        List<HardwareCounter> out = new ArrayList<>();
        Papi.presets()
                .ifPresent(presets -> presets.forEach(
                        p -> out.add(new HardwareCounter(p.name(), DEVICE, p.available(), p.description(), DEVICE))));
        for (PerfCounter c : PerfCounter.ALL) {
            out.add(new HardwareCounter(c.name(), DEVICE, opens(c), c.description(), DEVICE));
        }
        return out;
    }

    /** Whether this process may count the event (opened disabled, then closed). */
    static boolean opens(PerfCounter c) {
        try {
            PerfEvents.probe(c.attr());
            return true;
        } catch (PerfException e) {
            return false;
        }
    }
}
