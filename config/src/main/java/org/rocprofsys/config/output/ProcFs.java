package org.rocprofsys.config.output;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The few facts the output keys need from Linux's {@code /proc}: process ids and siblings. */
final class ProcFs {
    static final Path ROOT = Path.of("/proc");

    /** pid, ppid, process group and session of one process, as {@code /proc/<pid>/stat} gives them. */
    record Ids(long pid, long ppid, long pgid, long sid) {}

    private ProcFs() {}

    static Optional<Ids> readStat(Path statFile) {
        try {
            return parseStat(Files.readString(statFile, StandardCharsets.ISO_8859_1));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The command name (field 2) is in parentheses and may itself hold spaces and ')', so the
     * numeric fields are taken after the last ')'.
     */
    static Optional<Ids> parseStat(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        String[] rest = stat.substring(close + 1).trim().split("\\s+");
        if (rest.length < 4) {
            return Optional.empty();
        }
        try {
            long pid = Long.parseLong(stat.substring(0, open).trim());
            // rest[0] is the state letter; then ppid, pgrp, session
            return Optional.of(new Ids(pid, Long.parseLong(rest[1]), Long.parseLong(rest[2]), Long.parseLong(rest[3])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Number of processes whose parent is {@code ppid} (the caller included when it is one of
     * them). Processes that exit during the scan are simply not counted.
     */
    static int countChildren(Path procRoot, long ppid) {
        int count = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(procRoot, ProcFs::isPidDirectory)) {
            for (Path dir : entries) {
                Optional<Ids> ids = readStat(dir.resolve("stat"));
                if (ids.isPresent() && ids.get().ppid() == ppid) {
                    count++;
                }
            }
        } catch (IOException | RuntimeException e) {
            return count;
        }
        return count;
    }

    static int countChildren(long ppid) {
        return countChildren(ROOT, ppid);
    }

    private static boolean isPidDirectory(Path p) {
        String name = p.getFileName().toString();
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
