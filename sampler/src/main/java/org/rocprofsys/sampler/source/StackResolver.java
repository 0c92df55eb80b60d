package org.rocprofsys.sampler.source;

import java.util.ArrayList;
import java.util.List;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.sampler.symbols.Frame;
import org.rocprofsys.sampler.symbols.Symbolizer;

/**
 * Turns an unwound stack (pcs, leaf first) into the frames a sample shows, the same way for perf's
 * and the agent's samples: symbolized with file and line, with the functions inlined at each pc
 * when SAMPLING_INCLUDE_INLINES asks, outermost first, trimmed by {@link StackFilter}.
 */
final class StackResolver {
    private final Symbolizer symbolizer;
    private final boolean inlines;
    private final boolean keepInternal;

    StackResolver(Symbolizer symbolizer, boolean inlines, boolean keepInternal) {
        this.symbolizer = symbolizer;
        this.inlines = inlines;
        this.keepInternal = keepInternal;
    }

    /** A symbolizer with what the samples show: line info always, inlined frames when asked. */
    static Symbolizer symbolizer(boolean inlines) {
        return new Symbolizer(new Symbolizer.Options(
                true, inlines, Symbolizer.Options.defaults().perfMapDir()));
    }

    /**
     * The frames of {@code pcs} (leaf first), outermost first and trimmed; null (unless {@code
     * force}) when a frame lies in anonymous executable memory that no perf map names yet.
     */
    List<StackFrame> resolve(int pid, List<Long> pcs, boolean force) {
        List<StackFrame> frames = new ArrayList<>(pcs.size());
        for (int i = pcs.size() - 1; i >= 0; i--) {
            long pc = pcs.get(i);
            List<Frame> at = inlines
                    ? symbolizer.symbolizeInlined(pid, pc, i > 0)
                    : List.of(symbolizer.symbolize(pid, pc, i > 0));
            // innermost first: the out-of-line function, then the functions inlined into it, go outermost first
            for (int k = at.size() - 1; k >= 0; k--) {
                Frame f = at.get(k);
                if (!force && !f.known() && f.module().equals("//anon")) {
                    return null;
                }
                frames.add(new StackFrame(f.symbol(), f.module(), f.pc(), f.file(), f.line()));
            }
        }
        return StackFilter.trim(frames, keepInternal);
    }
}
