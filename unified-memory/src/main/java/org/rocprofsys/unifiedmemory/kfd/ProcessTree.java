package org.rocprofsys.unifiedmemory.kfd;

import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;
import org.rocprofsys.config.proc.ProcFs;
import org.rocprofsys.config.proc.ProcStat;

/**
 * Whether a pid is the target or one of its descendants, by its parent chain in /proc; each answer
 * is kept, so a process that has ended since its first event keeps its answer.
 */
final class ProcessTree implements IntPredicate {
    private final int root;
    private final ProcFs proc;
    private final Map<Integer, Boolean> known = new HashMap<>();

    ProcessTree(int root, ProcFs proc) {
        this.root = root;
        this.proc = proc;
    }

    @Override
    public boolean test(int pid) {
        Boolean answer = known.get(pid);
        if (answer == null) {
            answer = descends(pid);
            known.put(pid, answer);
        }
        return answer;
    }

    private boolean descends(int pid) {
        int p = pid;
        for (int depth = 0; depth < 64 && p > 1; depth++) {
            if (p == root) {
                return true;
            }
            Boolean seen = known.get(p);
            if (seen != null) {
                return seen;
            }
            p = (int) proc.stat(p).map(ProcStat::ppid).orElse(0L).longValue();
        }
        return false;
    }
}
