package org.rocprofsys.sampler.source;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        loadFile(procRoot.resolve(Integer.toString(pid)).resolve("maps"), pid, maps);
    }

    /** A file in the format of /proc/pid/maps (the agent's copy, {@code <pid>.<generation>.maps}). */
    static void loadFile(Path file, int pid, ProcessMaps maps) {
        try {
            for (String line : Files.readAllLines(file)) {
                ProcessMaps.Mapping m = parse(line);
                if (m != null) {
                    maps.add(pid, m);
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone already, or unreadable: the MMAP2 records that follow are all there is
        }
    }

    /** {@code start-end perms offset major:minor inode [path]}; anonymous mappings are skipped. */
    static ProcessMaps.Mapping parse(String line) {
        String[] f = line.trim().split("\\s+", 6);
        if (f.length < 6 || f[5].isEmpty() || (!f[5].startsWith("/") && !f[5].equals("[vdso]"))) {
            return null;
        }
        String[] range = f[0].split("-");
        String[] dev = f[3].split(":");
        String perms = f[1];
        int prot =
                (perms.charAt(0) == 'r' ? 1 : 0) | (perms.charAt(1) == 'w' ? 2 : 0) | (perms.charAt(2) == 'x' ? 4 : 0);
        return new ProcessMaps.Mapping(
                Long.parseUnsignedLong(range[0], 16),
                Long.parseUnsignedLong(range[1], 16),
                Long.parseUnsignedLong(f[2], 16),
                f[5],
                NO_BUILD_ID,
                Integer.parseInt(dev[0], 16),
                Integer.parseInt(dev[1], 16),
                Long.parseLong(f[4]),
                prot,
                (prot & 4) != 0);
    }
}
