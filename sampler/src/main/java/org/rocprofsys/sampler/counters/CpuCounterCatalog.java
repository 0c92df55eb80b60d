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
        List<HardwareCounter> perf = new ArrayList<>();
        boolean pmu = false;
        for (PerfCounter c : PerfCounter.ALL) {
            boolean opens = opens(c);
            pmu |= opens && c.hardware();
            perf.add(new HardwareCounter(c.name(), DEVICE, opens, c.description(), DEVICE));
        }
        // PAPI's presets are hardware events, and PAPI_query_event answers from the CPU model's
        // preset table (true on a VM whose CPU model has them but no PMU): a preset is available
        // only where perf can also open a hardware event here
        for (Papi.Preset p : Papi.presets().orElse(List.of())) {
            out.add(new HardwareCounter(p.name(), DEVICE, p.available() && pmu, p.description(), DEVICE));
        }
        out.addAll(perf);
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
