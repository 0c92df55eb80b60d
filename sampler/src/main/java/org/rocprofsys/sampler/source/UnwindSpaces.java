package org.rocprofsys.sampler.source;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.rocprofsys.sampler.symbols.ProcessMaps;
import org.rocprofsys.sampler.unwind.AddressSpace;

/**
 * The unwinder's view of each process's executable mappings, built from the symbolizer's
 * {@link ProcessMaps} and rebuilt only after they changed (a new mapping, an exec): the samplers
 * unwind many samples per mapping change.
 */
final class UnwindSpaces {
    private final Map<Integer, AddressSpace> spaces = new ConcurrentHashMap<>();
    private final Set<Integer> changed = ConcurrentHashMap.newKeySet();

    /** The mappings of {@code pid} changed: its space is rebuilt on the next {@link #of}. */
    void changed(int pid) {
        changed.add(pid);
    }

    AddressSpace of(int pid, ProcessMaps maps) {
        AddressSpace a = spaces.get(pid);
        if (a == null || changed.remove(pid)) {
            a = new AddressSpace();
            for (ProcessMaps.Mapping m : maps.mappings(pid)) {
                if (m.executable()) {
                    a.add(new AddressSpace.Mapping(m.start(), m.end(), m.pgoff(), m.path()));
                }
            }
            spaces.put(pid, a);
        }
        return a;
    }

    void forget(int pid) {
        spaces.remove(pid);
        changed.remove(pid);
    }
}
