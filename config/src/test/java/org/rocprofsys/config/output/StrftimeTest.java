package org.rocprofsys.config.output;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

class StrftimeTest {
    private static final ZonedDateTime T = Contexts.LAUNCH; // Sat 2025-08-09 13:05:07 UTC

    @Test
    void defaultTimeFormat() {
        assertEquals("2025-08-09_13.05", Strftime.format("%F_%H.%M", T));
    }

    @Test
    void commonConversions() {
        assertEquals(
                "07|2025|08|09|25|13:05:07|221|Aug|Sat| 9|%", Strftime.format("%S|%Y|%m|%d|%y|%T|%j|%b|%a|%e|%%", T));
    }

    @Test
    void moreConversionsMatchGlibc() {
        assertEquals(
                "Saturday|August|01|PM|6|6|31|31|32|2025|25|20|1754744707|+0000|13| 1|08/09/25|13:05",
                Strftime.format("%A|%B|%I|%p|%u|%w|%U|%W|%V|%G|%g|%C|%s|%z|%k|%l|%D|%R", T));
        assertEquals("Sat Aug  9 13:05:07 2025", Strftime.format("%c", T));
    }

    @Test
    void earlyInYearAndMorning() {
        ZonedDateTime jan = ZonedDateTime.of(2025, 1, 5, 3, 4, 5, 0, ZoneOffset.UTC);
        assertEquals(" 5|005|01|00|01|2025|03|AM| 3| 3", Strftime.format("%e|%j|%U|%W|%V|%G|%I|%p|%l|%k", jan));
    }

    @Test
    void unknownConversionAndTrailingPercentAreCopied() {
        assertEquals("%Q-x%", Strftime.format("%Q-x%", T));
    }

    @Test
    void offsetZone() {
        ZonedDateTime t = ZonedDateTime.of(2025, 8, 9, 13, 5, 7, 0, ZoneOffset.ofHoursMinutes(-5, -30));
        assertEquals("-0530", Strftime.format("%z", t));
    }
}
