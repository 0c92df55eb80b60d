package org.rocprofsys.core.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterSample;
import org.rocprofsys.core.event.CounterTrack;
import org.rocprofsys.core.event.Mark;
import org.rocprofsys.core.event.RegionBegin;
import org.rocprofsys.core.event.RegionEnd;
import org.rocprofsys.core.event.RegionMetrics;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.core.event.StackSample;
import org.rocprofsys.core.event.ThreadStarted;
import org.rocprofsys.core.event.TraceEvent;

class CategoryFilterTest {
    private final List<TraceEvent> out = new ArrayList<>();

    private static RegionBegin begin(long t, String name, Category c) {
        return new RegionBegin(t, 1, 1, name, c, List.of(), RegionMetrics.NONE);
    }

    private static RegionEnd end(long t, Category c) {
        return new RegionEnd(t, 1, 1, c, List.of(), RegionMetrics.NONE, false);
    }

    private List<String> names() {
        return out.stream()
                .map(e -> switch (e) {
                    case RegionBegin b -> "+" + b.name();
                    case RegionEnd x -> "-";
                    case Mark m -> "m:" + m.name();
                    case CounterSample c -> "c:" + c.track().name();
                    case StackSample s -> "s";
                    default -> "o";
                })
                .toList();
    }

    @Test
    void disabledCategoriesReachNoOutput() {
        Consumer<TraceEvent> f = CategoryFilter.of(CategoryFilter.dropped("", "host, sampling"), out::add);
        f.accept(new ThreadStarted(0, 1, 1, 0));
        f.accept(begin(1, "user-region", Category.USER));
        f.accept(begin(2, "instrumented", Category.HOST));
        f.accept(begin(3, "nested-user", Category.USER));
        f.accept(end(4, Category.USER));
        // an end whose record names another category still closes its own begin
        f.accept(end(5, Category.USER));
        f.accept(end(6, Category.USER));
        f.accept(new Mark(7, 1, 1, "host-mark", Category.HOST));
        f.accept(new Mark(8, 1, 1, "user-mark", Category.USER));
        f.accept(new CounterSample(9, new CounterTrack("CPU Memory Usage (S)", "MB", Category.PROCESS_PAGE, 1), 1));
        f.accept(new StackSample(
                10, 1, 1, List.of(new StackFrame("main", "app", 0x1000, "", 0)), StackSample.Kind.CPU, 1000));
        assertEquals(
                List.of("o", "+user-region", "+nested-user", "-", "-", "m:user-mark", "c:CPU Memory Usage (S)"),
                names());
    }

    @Test
    void anEnableListKeepsOnlyItsCategories() {
        Consumer<TraceEvent> f = CategoryFilter.of(CategoryFilter.dropped("user,process_page_fault", ""), out::add);
        f.accept(begin(1, "user-region", Category.USER));
        f.accept(end(2, Category.USER));
        f.accept(begin(3, "instrumented", Category.HOST));
        f.accept(end(4, Category.HOST));
        f.accept(new CounterSample(5, new CounterTrack("CPU Memory Usage (S)", "MB", Category.PROCESS_PAGE, 1), 1));
        f.accept(new CounterSample(6, new CounterTrack("CPU Frequency [0] (S)", "MHz", Category.CPU_FREQ, 0), 1));
        f.accept(new StackSample(
                7, 1, 1, List.of(new StackFrame("main", "app", 0x1000, "", 0)), StackSample.Kind.WALL, 1000));
        assertEquals(List.of("+user-region", "-", "c:CPU Memory Usage (S)"), names());
    }

    @Test
    void nothingDroppedAddsNoStage() {
        Consumer<TraceEvent> next = out::add;
        assertSame(next, CategoryFilter.of(EnumSet.noneOf(Category.class), next));
    }

    @Test
    void readFromTheSettings() throws Exception {
        var settings = new SettingsLoader(
                        SettingsRegistry.standard(),
                        Map.of("ROCPROFSYS_DISABLE_CATEGORIES", "user", "ROCPROFSYS_SUPPRESS_CONFIG", "ON"),
                        java.nio.file.Path.of("."))
                .load();
        assertEquals(EnumSet.of(Category.USER), CategoryFilter.dropped(settings));
        assertTrue(settings.unsupported().isEmpty(), settings.unsupported()::toString);
    }
}
