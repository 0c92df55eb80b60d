package org.rocprofsys.unifiedmemory.kfd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Lines exactly as kfd_smi_events.c writes them: "%x " + the KFD_EVENT_FMT_* payload. */
class KfdEventParserTest {
    /** Each line and the event it parses to. */
    static Stream<Arguments> events() {
        return Stream.of(
                Arguments.of(
                        "5 1234567890 -4242 @7f1234000(200) 0->8e2a 0:8e2a 1",
                        new KfdEvent.MigrateStart(1234567890L, 4242, 0x7f1234000L, 0x200, 0, 0x8e2a, 0, 0x8e2a, 1)),
                // migration ends with and without an error code
                Arguments.of(
                        "6 1234600000 -4242 @7f1234000(200) 0->8e2a 1 0",
                        new KfdEvent.MigrateEnd(1234600000L, 4242, 0x7f1234000L, 0x200, 0, 0x8e2a, 1, 0)),
                Arguments.of(
                        "6 1234600000 -4242 @7f1234000(200) 8e2a->0 2 -14",
                        new KfdEvent.MigrateEnd(1234600000L, 4242, 0x7f1234000L, 0x200, 0x8e2a, 0, 2, -14)),
                // kernels before the error code was added stop after the trigger
                Arguments.of(
                        "6 1234600000 -4242 @7f1234000(200) 0->8e2a 1\n",
                        new KfdEvent.MigrateEnd(1234600000L, 4242, 0x7f1234000L, 0x200, 0, 0x8e2a, 1, 0)),
                // page faults
                Arguments.of(
                        "7 1234500000 -77 @7f1234(8e2a) W",
                        new KfdEvent.PageFaultStart(1234500000L, 77, 0x7f1234L, 0x8e2a, true)),
                Arguments.of(
                        "7 1234500000 -77 @7f1234(8e2a) R",
                        new KfdEvent.PageFaultStart(1234500000L, 77, 0x7f1234L, 0x8e2a, false)),
                Arguments.of(
                        "8 1234700000 -77 @7f1234(8e2a) M",
                        new KfdEvent.PageFaultEnd(1234700000L, 77, 0x7f1234L, 0x8e2a, true)),
                Arguments.of(
                        "8 1234700000 -77 @7f1234(8e2a) U",
                        new KfdEvent.PageFaultEnd(1234700000L, 77, 0x7f1234L, 0x8e2a, false)),
                // queues, unmaps and drops
                Arguments.of("9 99 -5 8e2a 2", new KfdEvent.QueueEviction(99, 5, 0x8e2a, 2)),
                Arguments.of("a 99 -5 8e2a R", new KfdEvent.QueueRestore(99, 5, 0x8e2a, true)),
                Arguments.of("a 99 -5 8e2a 0", new KfdEvent.QueueRestore(99, 5, 0x8e2a, false)),
                Arguments.of(
                        "b 99 -5 @7f1234000(10) 8e2a 2",
                        new KfdEvent.UnmapFromGpu(99, 5, 0x7f1234000L, 0x10, 0x8e2a, 2)),
                Arguments.of("e 99 -5 17", new KfdEvent.Dropped(99, 5, 17)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("events")
    void parses(String line, KfdEvent expected) {
        assertEquals(expected, KfdEventParser.parse(line).orElseThrow());
    }

    @Test
    void eventsTheReportDoesNotUseAreSkipped() {
        assertTrue(KfdEventParser.parse("c 99 -5 8e2a myapp").isEmpty()); // process start
        assertTrue(KfdEventParser.parse("2 1a:2").isEmpty()); // thermal throttling
    }

    @Test
    void linesInNoFormatAreErrorsNamingTheLine() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> KfdEventParser.parse("5 123 4242 @7f1234000(200) 0->8e2a 0:0 1"));
        assertTrue(e.getMessage().contains("'5 123 4242"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> KfdEventParser.parse("7 1 -2 @10(1) X"));
        assertThrows(IllegalArgumentException.class, () -> KfdEventParser.parse("6 1 -2 @10(1) 0->1 1 0 extra"));
        assertThrows(IllegalArgumentException.class, () -> KfdEventParser.parse("5 1 -2 @10(1) 0->1"));
        assertThrows(IllegalArgumentException.class, () -> KfdEventParser.parse("zz 1 -2"));
    }
}
