package org.rocprofsys.sampler.source;

import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.config.proc.MapsEntry;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.sampler.symbols.ProcessMaps;

/**
 * The mappings a process already has when the sampler attaches to it, from /proc/pid/maps: the
 * kernel only reports mappings made after the events are open, and the launched target has its
 * executable and loader mapped by then.
 */
final class ProcMapsSeed {
    private static final byte[] NO_BUILD_ID = new byte[0];

    private ProcMapsSeed() {}

    static void load(Path procRoot, int pid, ProcessMaps maps) {
        add(new ProcFs(procRoot).maps(pid), pid, maps);
    }

    /** A file in the format of /proc/pid/maps (the agent's copy, {@code <pid>.<generation>.maps}). */
    static void loadFile(Path file, int pid, ProcessMaps maps) {
        // gone already, or unreadable: the MMAP2 records that follow are all there is
        add(ProcFs.readFile(file).map(MapsEntry::parseAll).orElse(List.of()), pid, maps);
    }

    private static void add(List<MapsEntry> entries, int pid, ProcessMaps maps) {
        for (MapsEntry e : entries) {
            ProcessMaps.Mapping m = mapping(e);
            if (m != null) {
                maps.add(pid, m);
            }
        }
    }

    /** One maps line as a mapping; null for anonymous mappings and lines not in the format. */
    static ProcessMaps.Mapping parse(String line) {
        return MapsEntry.parse(line).map(ProcMapsSeed::mapping).orElse(null);
    }

    private static ProcessMaps.Mapping mapping(MapsEntry e) {
        if (e.path().isEmpty() || (!e.path().startsWith("/") && !e.path().equals("[vdso]"))) {
            return null;
        }
        return new ProcessMaps.Mapping(
                e.start(),
                e.end(),
                e.offset(),
                e.path(),
                NO_BUILD_ID,
                e.devMajor(),
                e.devMinor(),
                e.inode(),
                e.prot(),
                e.executable());
    }
}
