package org.rocprofsys.rocprofv3.filter;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.rocprofsys.config.NumberRange;
import org.rocprofsys.config.Settings;
import org.rocprofsys.core.event.GpuActivity;
import org.rocprofsys.core.event.TraceEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.spi.InterceptStage;

/**
 * rocprofv3's kernel selection, as a stage in front of every output: a kernel dispatch is kept when
 * its name matches the include expression (if any), does not match the exclude one (if any), and
 * its iteration (per name, from 1) is inside the iteration range (if any). Dropped here, it is in
 * no output: not the CSV, the trace, rocpd nor the stats.
 */
public final class KernelFilter implements InterceptStage {
    private final Pattern include;
    private final Pattern exclude;
    private final List<long[]> ranges;
    private final Map<String, Long> iterations = new HashMap<>();

    KernelFilter(Pattern include, Pattern exclude, List<long[]> ranges) {
        this.include = include;
        this.exclude = exclude;
        this.ranges = ranges;
    }

    /** The filter the settings ask for, empty when they ask for none. */
    public static Optional<KernelFilter> of(Settings settings) {
        String in = settings.get("ROCPROFSYS_ROCPROFV3_KERNEL_INCLUDE_REGEX");
        String ex = settings.get("ROCPROFSYS_ROCPROFV3_KERNEL_EXCLUDE_REGEX");
        String range = settings.get("ROCPROFSYS_ROCPROFV3_KERNEL_ITERATION_RANGE");
        if (blank(in) && blank(ex) && blank(range)) {
            return Optional.empty();
        }
        return Optional.of(new KernelFilter(
                pattern("--kernel-include-regex", in), pattern("--kernel-exclude-regex", ex), ranges(range)));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static Pattern pattern(String option, String regex) {
        if (blank(regex)) {
            return null;
        }
        try {
            return Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException(
                    option + ": invalid regular expression '" + regex + "': " + e.getDescription());
        }
    }

    /** {@code [1-3],[5]} (or {@code 1-3,5}): inclusive ranges of iterations counted from 1. */
    public static List<long[]> ranges(String text) {
        List<long[]> out = new ArrayList<>();
        if (blank(text)) {
            return out;
        }
        for (String part : text.split("[\\[\\],\\s]+")) {
            if (part.isEmpty()) {
                continue;
            }
            try {
                NumberRange range = NumberRange.parse(part, Long.MAX_VALUE);
                out.add(new long[] {range.lo(), range.hi()});
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "--kernel-iteration-range: invalid range '" + part + "' in '" + text + "'");
            }
        }
        return out;
    }

    /** Whether the next dispatch of {@code name} is kept (counts the dispatch). */
    public boolean keep(String name) {
        if (include != null && !include.matcher(name).find()) {
            return false;
        }
        if (exclude != null && exclude.matcher(name).find()) {
            return false;
        }
        if (ranges.isEmpty()) {
            return true;
        }
        long n = iterations.merge(name, 1L, Long::sum);
        for (long[] r : ranges) {
            if (n >= r[0] && n <= r[1]) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Consumer<TraceEvent> intercept(Consumer<TraceEvent> downstream) {
        return event -> {
            if (event instanceof GpuActivity g && g.event() instanceof GpuKernel k && !keep(k.name())) {
                return;
            }
            downstream.accept(event);
        };
    }
}
