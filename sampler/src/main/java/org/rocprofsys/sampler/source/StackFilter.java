package org.rocprofsys.sampler.source;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.event.StackFrame;

/**
 * Trims sampled stacks the way upstream shows them (inventory §5): main -> leaf, without the C
 * runtime's start frames; unless SAMPLING_KEEP_INTERNAL, without the profiler's own frames (the
 * agent library's, e.g. its main wrapper), and where a program has no frame named main (its main
 * tail-called on), from the frame the agent's main wrapper called.
 */
final class StackFilter {
    /** The file name of the in-process agent, whose frames are the profiler's own. */
    static final String AGENT_LIBRARY = "librocprof-sys.so";
    /** The agent's wrapper of main (agent_wrap.c): a stack without main starts at what it called. */
    static final String MAIN_WRAPPER = "rsys_main_wrapper";

    private StackFilter() {}

    /** {@code frames} (outermost first) from the outermost {@code main} on; unchanged without one. */
    static List<StackFrame> fromMain(List<StackFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).symbol().equals("main")) {
                return frames.subList(i, frames.size());
            }
        }
        return frames;
    }

    /**
     * {@link #fromMain}, then (unless {@code keepInternal}) without the agent's frames. With
     * {@code keepInternal} the agent's frames just above main (its main wrapper) stay too.
     */
    static List<StackFrame> trim(List<StackFrame> frames, boolean keepInternal) {
        if (keepInternal) {
            List<StackFrame> fromMain = fromMain(frames);
            int start = frames.size() - fromMain.size();
            while (start > 0 && isAgent(frames.get(start - 1))) {
                start--;
            }
            return frames.subList(start, frames.size());
        }
        int start = -1;
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).symbol().equals("main")) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            // only the main wrapper: other agent frames are wrappers of calls the program makes
            // (pthread_join) in the middle of a thread's stack
            for (int i = frames.size() - 1; i >= 0; i--) {
                if (isAgent(frames.get(i)) && frames.get(i).symbol().equals(MAIN_WRAPPER)) {
                    start = i + 1;
                    break;
                }
            }
        }
        List<StackFrame> out = new ArrayList<>(frames.size());
        for (int i = Math.max(start, 0); i < frames.size(); i++) {
            if (!isAgent(frames.get(i))) {
                out.add(frames.get(i));
            }
        }
        return out;
    }

    private static boolean isAgent(StackFrame f) {
        String m = f.module();
        return m != null && (m.endsWith("/" + AGENT_LIBRARY) || m.equals(AGENT_LIBRARY));
    }
}
