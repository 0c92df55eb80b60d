package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CommandLineStringsTest {
    @Test
    void tagIsBasenameWithoutPyOrExe() {
        assertEquals("app", CommandLineStrings.tagOf(List.of("/usr/bin/app", "x")));
        assertEquals("script", CommandLineStrings.tagOf(List.of("./script.py")));
        assertEquals("tool", CommandLineStrings.tagOf(List.of("C:\\bin\\tool.exe")));
    }

    @Test
    void tagErasesOneCharacterMoreThanTheExtensionAsUpstream() {
        assertEquals("ax", CommandLineStrings.tagOf(List.of("a.py.x")));
        assertEquals("myhon", CommandLineStrings.tagOf(List.of("my.python")));
    }

    @Test
    void tagWithoutCommandLine() {
        assertEquals("ROCPROFSYS", CommandLineStrings.tagOf(List.of()));
    }

    @Test
    void wordsAreCleaned() {
        var c = CommandLineStrings.of(List.of("./bin/app", " ._x ", "._.y", "__z", "a/b"), "app");
        assertEquals(List.of("bin_app", "x", ".y", "z", "a_b"), c.words());
        assertEquals("bin_app_x_.y_z_a_b", c.argv());
        assertEquals("x_.y_z_a_b", c.args());
        assertEquals("appx_.y_z_a_b", c.argt());
    }

    @Test
    void doubleDashRemovedOnlyRightAfterExecutable() {
        var c = CommandLineStrings.of(List.of("app", "--", "-n", "--", "3"), "app");
        assertEquals("app_-n_--_3", c.argv());
        assertEquals(List.of("app", "-n", "--", "3"), c.words());
    }

    @Test
    void noArguments() {
        var c = CommandLineStrings.of(List.of("app"), "app");
        assertEquals("app", c.argv());
        assertEquals("", c.args());
        assertEquals("app", c.argt());
    }
}
