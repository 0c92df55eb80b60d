package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatusLineTest {
    @Test
    void aShortCommandIsShownWhole() {
        assertEquals("sleep 1", RunCommand.shown(List.of("sleep", "1")));
    }

    @Test
    void aLongCommandShowsItsFirstWordsAndHowManyMore() {
        List<String> command = new ArrayList<>(List.of("true"));
        for (int i = 0; i < 30_000; i++) {
            command.add("argument-" + i);
        }
        String shown = RunCommand.shown(command);
        assertTrue(shown.startsWith("true argument-0 argument-1 "), shown);
        assertTrue(shown.endsWith(" ... (29985 more arguments)"), shown);
        assertTrue(shown.length() < 300, shown);
    }

    @Test
    void oneHugeWordIsCut() {
        String shown = RunCommand.shown(List.of("x".repeat(10_000)));
        assertEquals(243, shown.length(), shown);
        assertTrue(shown.endsWith("..."), shown);
    }
}
