package org.rocprofsys.sampler.source;

import java.util.List;

import org.rocprofsys.core.event.StackFrame;

/** Trims sampled stacks the way upstream shows them: main -> leaf, without the C runtime's start frames. */
final class StackFilter {
    private StackFilter() {
    }

    /** {@code frames} (outermost first) from the outermost {@code main} on; unchanged without one. */
    static List<StackFrame> fromMain(List<StackFrame> frames) {
        for (int i = 0; i < frames.size(); i++) {
            if (frames.get(i).symbol().equals("main")) {
                return frames.subList(i, frames.size());
            }
        }
        return frames;
    }
}
