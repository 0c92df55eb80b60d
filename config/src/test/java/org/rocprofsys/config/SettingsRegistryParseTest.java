package org.rocprofsys.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The table's reading: lines, columns, lists, and the errors a malformed table gets. */
class SettingsRegistryParseTest {
    @Test
    void linesColumnsAndListsAreReadAsWritten() {
        SettingsRegistry r = SettingsRegistry.parse(String.join(
                "\r\n", // CRLF lines read as LF lines
                "# a comment",
                "   \t ",
                "ROCPROFSYS_A\tbool\ttrue\t backend , ,advanced,\t\thidden, honoured\tthe first",
                "ROCPROFSYS_B\tstring\t\tcustom\tx, y ,z\talias=ROCPROFSYS_A\ttabs end here",
                "ROCPROFSYS_C\tint\t0\t\t\t\t")); // the last line has no newline; empty columns stay
        SettingDefinition a = r.find("ROCPROFSYS_A").orElseThrow();
        assertEquals(SettingType.fromDisplayName("bool"), a.type());
        assertEquals("true", a.defaultValue());
        assertEquals(List.of("advanced", "backend"), List.copyOf(a.categories()));
        assertEquals(List.of(), a.choices());
        assertTrue(a.hidden());
        assertTrue(a.support() instanceof SettingSupport.Honoured);
        assertEquals("the first", a.description());
        SettingDefinition b = r.find("ROCPROFSYS_B").orElseThrow();
        assertEquals("", b.defaultValue());
        assertEquals(List.of("x", "y", "z"), b.choices());
        assertEquals(Optional.of("ROCPROFSYS_A"), b.aliasOf());
        assertEquals("tabs end here", b.description());
        SettingDefinition c = r.find("ROCPROFSYS_C").orElseThrow();
        assertEquals("", c.description());
        assertTrue(c.categories().isEmpty());
        assertEquals(
                List.of("ROCPROFSYS_A", "ROCPROFSYS_B", "ROCPROFSYS_C"),
                r.all().stream().map(SettingDefinition::envName).toList());
    }

    @Test
    void malformedTablesAreRefusedNamingTheLine() {
        IllegalStateException six = assertThrows(
                IllegalStateException.class,
                () -> SettingsRegistry.parse("# header\nROCPROFSYS_A\tbool\ttrue\tcustom\t\thonoured\n"));
        assertEquals("settings.tsv:2: expected 7 tab-separated columns, found 6", six.getMessage());
        IllegalStateException eight = assertThrows(
                IllegalStateException.class,
                () -> SettingsRegistry.parse("ROCPROFSYS_A\tbool\ttrue\tcustom\t\t\td\textra"));
        assertEquals("settings.tsv:1: expected 7 tab-separated columns, found 8", eight.getMessage());
        assertThrows(
                IllegalStateException.class,
                () -> SettingsRegistry.parse("TRACE\tbool\ttrue\tcustom\t\t\td"),
                "a name without the prefix");
        assertThrows(
                IllegalStateException.class,
                () -> SettingsRegistry.parse("ROCPROFSYS_A\tbool\ttrue\tcustom\t\tshiny\td"),
                "an unknown flag");
    }

    @Test
    void theShippedTableHasItsSettings() {
        SettingsRegistry r = SettingsRegistry.standard();
        assertTrue(r.all().size() > 300, "settings: " + r.all().size());
        SettingDefinition trace = r.find("ROCPROFSYS_TRACE").orElseThrow();
        assertTrue(trace.description().length() > 10, trace.description());
        assertTrue(r.all().stream().noneMatch(d -> d.description().contains("\t")));
    }
}
