package org.rocprofsys.config.proc;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One line of {@code /proc/<pid>/maps}: {@code start-end perms offset major:minor inode [path]}.
 * The path is "" for an anonymous mapping and keeps its spaces (and a " (deleted)" suffix).
 */
public record MapsEntry(
        long start, long end, String perms, long offset, int devMajor, int devMinor, long inode, String path) {

    /** PROT_READ | PROT_WRITE | PROT_EXEC bits of the permissions. */
    public int prot() {
        return (perms.charAt(0) == 'r' ? 1 : 0) | (perms.charAt(1) == 'w' ? 2 : 0) | (perms.charAt(2) == 'x' ? 4 : 0);
    }

    public boolean executable() {
        return (prot() & 4) != 0;
    }

    /** Empty for a line not in the maps format. */
    public static Optional<MapsEntry> parse(String line) {
        String[] f = line.trim().split("\\s+", 6);
        if (f.length < 5 || f[1].length() < 3) {
            return Optional.empty();
        }
        String[] range = f[0].split("-");
        String[] dev = f[3].split(":");
        if (range.length != 2 || dev.length != 2) {
            return Optional.empty();
        }
        try {
            return Optional.of(new MapsEntry(
                    Long.parseUnsignedLong(range[0], 16),
                    Long.parseUnsignedLong(range[1], 16),
                    f[1],
                    Long.parseUnsignedLong(f[2], 16),
                    Integer.parseInt(dev[0], 16),
                    Integer.parseInt(dev[1], 16),
                    Long.parseLong(f[4]),
                    f.length == 6 ? f[5] : ""));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The entries of a whole maps text; lines not in the format are skipped. */
    public static List<MapsEntry> parseAll(String text) {
        List<MapsEntry> entries = new ArrayList<>();
        for (String line : text.split("\n")) {
            parse(line).ifPresent(entries::add);
        }
        return entries;
    }
}
