package org.rocprofsys.config.proc;

import java.util.Optional;

/**
 * The fields of {@code /proc/<pid>/stat} that the profiler uses: ids, the state letter, page faults
 * and CPU time (in USER_HZ ticks). Counters a short line lacks read as 0.
 */
public record ProcStat(
        long pid,
        String comm,
        char state,
        long ppid,
        long pgrp,
        long session,
        long minorFaults,
        long majorFaults,
        long userTicks,
        long systemTicks) {

    /**
     * The command name (field 2) is in parentheses and may itself hold spaces and ')', so the other
     * fields are taken after the last ')'. Empty when the ids are missing or not numbers.
     */
    public static Optional<ProcStat> parse(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        // rest[0] is field 3 (state), rest[i] is field i + 3
        String[] rest = stat.substring(close + 1).trim().split("\\s+");
        if (rest.length < 4 || rest[0].isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ProcStat(
                    Long.parseLong(stat.substring(0, open).trim()),
                    stat.substring(open + 1, close),
                    rest[0].charAt(0),
                    Long.parseLong(rest[1]),
                    Long.parseLong(rest[2]),
                    Long.parseLong(rest[3]),
                    counter(rest, 10),
                    counter(rest, 12),
                    counter(rest, 14),
                    counter(rest, 15)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The state letter of a stat text, {@code '?'} when there is none: cheaper than a full parse,
     * for the loops that poll a process's state.
     */
    public static char state(String stat) {
        int close = stat.lastIndexOf(')');
        return close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
    }

    /** Whether the state is that of a process that has ended (zombie or dead). */
    public boolean ended() {
        return state == 'Z' || state == 'X';
    }

    private static long counter(String[] rest, int field) {
        int i = field - 3;
        if (i >= rest.length) {
            return 0;
        }
        try {
            return Long.parseLong(rest[i]);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
