package org.rocprofsys.instrument.select;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SelectionOptionsTest {
    @Test
    void minimumHeuristics() {
        SelectionOptions d = SelectionOptions.defaults();
        assertEquals(1024, d.minInstructions());
        assertEquals(4096, d.minAddressRange());
        assertEquals(1024, d.minInstructionsLoop());
        assertEquals(4096, d.minAddressRangeLoop());

        SelectionOptions i = SelectionOptions.builder().minInstructions(64).build();
        assertEquals(64, i.minInstructions());
        assertEquals(0, i.minAddressRange());
        assertEquals(64, i.minInstructionsLoop());
        assertEquals(0, i.minAddressRangeLoop());

        SelectionOptions r = SelectionOptions.builder().minAddressRange(100).build();
        assertEquals(0, r.minInstructions());
        assertEquals(100, r.minAddressRange());

        SelectionOptions loops = SelectionOptions.builder()
                .minInstructions(64)
                .minInstructionsLoop(8)
                .build();
        assertEquals(8, loops.minInstructionsLoop());
        assertEquals(64, loops.minInstructions());

        SelectionOptions env = SelectionOptions.builder()
                .defaultMinInstructions(
                        SelectionOptions.defaultMinInstructions(Map.of("ROCPROFSYS_DEFAULT_MIN_INSTRUCTIONS", "64")))
                .build();
        assertEquals(64, env.minInstructions());
        assertEquals(256, env.minAddressRange());
    }

    @Test
    void environmentRegexesAreAdded() {
        SelectionOptions o = SelectionOptions.builder()
                .functionInclude("^a")
                .build()
                .withEnvironment(Map.of(
                        "ROCPROFSYS_REGEX_INCLUDE",
                        "^b",
                        "ROCPROFSYS_REGEX_CALLER_INCLUDE",
                        "^inner",
                        "ROCPROFSYS_REGEX_MODULE_EXCLUDE",
                        "\\.c$",
                        "ROCPROFSYS_REGEX_INSTRUCTION_EXCLUDE",
                        "vzeroupper"));
        assertEquals(2, o.functionInclude().size());
        assertEquals("^inner", o.callerInclude().getFirst().pattern());
        assertEquals(1, o.moduleExclude().size());
        assertEquals(1, o.instructionExclude().size());
        assertTrue(o.functionRestrict().isEmpty());
    }

    @Test
    void rejectsUnknownLinkage() {
        assertThrows(
                IllegalArgumentException.class,
                () -> SelectionOptions.builder().linkage(Set.of("strong")).build());
        assertEquals(
                Set.of("global", "local", "unique"), SelectionOptions.defaults().linkage());
    }
}
