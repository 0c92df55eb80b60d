package org.rocprofsys.instrument.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.instrument.plan.Exclusion;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.select.SelectionOptions;

class ExclusionHintTest {
    private static InstrumentPlan nothingInstrumented(String module, String... reasons) {
        List<Exclusion> excluded = new java.util.ArrayList<>();
        for (int i = 0; i < reasons.length; i++) {
            excluded.add(new Exclusion(
                    new FunctionInfo(module, "f" + i, "f" + i, 0x1000 + i * 16L, 16, 4, "global", "default"),
                    reasons[i]));
        }
        return new InstrumentPlan(Path.of(module), true, List.of(), List.of(), excluded, List.of(), 0);
    }

    @Test
    void namesTheMostFrequentReasonAndItsOption() {
        var plan = nothingInstrumented(
                "/usr/lib/x86_64-linux-gnu/liblzma.so.5.4.1", "internal library", "internal library", "critical");
        ExclusionHint h = ExclusionHint.of(plan, SelectionOptions.defaults()).orElseThrow();
        assertEquals(
                "none of the 3 functions of liblzma.so.5.4.1 is instrumented: 2 are excluded as 'internal library'",
                h.summary());
        assertTrue(h.advice().contains("--internal-library-remove liblzma "), h.advice());

        var small = nothingInstrumented("/opt/app/bin/app", "min-instructions", "min-address-range");
        assertTrue(
                ExclusionHint.of(small, SelectionOptions.defaults())
                        .orElseThrow()
                        .advice()
                        .contains("-i/--min-instructions 1024 and -r/--min-address-range 4096"),
                "the minimums in force are named");
    }

    @Test
    void noHintWhereSomethingIsInstrumentedOrNothingIsListed() {
        var empty = nothingInstrumented("/opt/app/bin/app");
        assertTrue(ExclusionHint.of(empty, SelectionOptions.defaults()).isEmpty());
    }
}
