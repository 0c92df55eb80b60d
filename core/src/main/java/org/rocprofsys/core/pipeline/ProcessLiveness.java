package org.rocprofsys.core.pipeline;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether a process (not necessarily our child) still runs: present in /proc and not a zombie. */
final class ProcessLiveness {
    private ProcessLiveness() {}

    static boolean isAlive(int pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "stat"));
            int close = stat.lastIndexOf(')');
            char state = close >= 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
            return state != 'Z' && state != 'X';
        } catch (IOException e) {
            return false;
        }
    }
}
