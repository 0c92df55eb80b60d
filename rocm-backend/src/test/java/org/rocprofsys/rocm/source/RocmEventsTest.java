package org.rocprofsys.rocm.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** ROCPROFSYS_ROCM_EVENTS in upstream's syntax. */
class RocmEventsTest {
    @Test
    void upstreamsExample() {
        List<RocmEvents.Event> e = RocmEvents.parse("GRBM_COUNT,SQ_WAVES,SQ_INSTS_VALU,TA_TA_BUSY:device=0");
        assertEquals(
                List.of(
                        new RocmEvents.Event("GRBM_COUNT", OptionalInt.empty()),
                        new RocmEvents.Event("SQ_WAVES", OptionalInt.empty()),
                        new RocmEvents.Event("SQ_INSTS_VALU", OptionalInt.empty()),
                        new RocmEvents.Event("TA_TA_BUSY", OptionalInt.of(0))),
                e);
        assertEquals("TA_TA_BUSY:device=0", e.get(3).spec());
        assertEquals(List.of(), RocmEvents.parse(""));
        assertEquals(2, RocmEvents.parse(" SQ_WAVES ; TCC_HIT[3]:device=1 ").size());
    }

    @Test
    void aMalformedEntryIsNamed() {
        IllegalArgumentException x =
                assertThrows(IllegalArgumentException.class, () -> RocmEvents.parse("SQ_WAVES,TA_TA_BUSY:device=zero"));
        assertTrue(x.getMessage().contains("'TA_TA_BUSY:device=zero'"), x.getMessage());
        assertTrue(x.getMessage().startsWith("ROCPROFSYS_ROCM_EVENTS"), x.getMessage());
    }
}
