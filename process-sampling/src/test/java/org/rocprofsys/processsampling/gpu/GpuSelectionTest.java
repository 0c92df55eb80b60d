package org.rocprofsys.processsampling.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rocprofsys.core.event.Category;
import org.rocprofsys.core.event.CounterTrack;

/** ROCPROFSYS_AMD_SMI_METRICS, ROCPROFSYS_SAMPLING_GPUS and the track names of inventory §4.3. */
class GpuSelectionTest {

    /** metric | device | track name | unit | category (engine 0). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            BUSY_GFX     | 0 | GPU GFX Busy [0] (S)          | %         | AMD_SMI_BUSY_GFX
            TEMPERATURE  | 0 | GPU Temperature [0] (S)       | deg C     | AMD_SMI_TEMP
            POWER        | 3 | GPU Current Power [3] (S)     | watts     | AMD_SMI_POWER
            MEMORY_USAGE | 0 | GPU Memory Usage [0] (S)      | megabytes | AMD_SMI_MEMORY_USAGE
            VCN_ACTIVITY | 0 | GPU [0] VCN Activity [00] (S) | %         | AMD_SMI_VCN_ACTIVITY
            """)
    void tracksAreUpstreams(GpuMetric metric, int device, String name, String unit, Category category) {
        assertEquals(new CounterTrack(name, unit, category, 0), metric.track(device, 0));
    }

    @Test
    void trackNamesUnitsAndCategoriesAreUpstreams() {
        assertEquals("GPU UMC Busy [1] (S)", GpuMetric.BUSY_UMC.trackName(1));
        assertEquals("GPU MM Busy [2] (S)", GpuMetric.BUSY_MM.trackName(2));
        assertEquals("GPU [1] VCN Activity [03] (S)", GpuMetric.VCN_ACTIVITY.trackName(1, 3));
        assertEquals("GPU [2] JPEG Activity [12] (S)", GpuMetric.JPEG_ACTIVITY.trackName(2, 12));
        assertEquals(Category.AMD_SMI_JPEG_ACTIVITY, GpuMetric.JPEG_ACTIVITY.category());
        List<String> labels = new java.util.ArrayList<>();
        for (GpuMetric m : GpuMetric.values()) {
            labels.add(m.category().label());
        }
        assertEquals(
                List.of(
                        "device_busy_gfx",
                        "device_busy_umc",
                        "device_busy_mm",
                        "device_temp",
                        "device_power",
                        "device_memory_usage",
                        "device_vcn_activity",
                        "device_jpeg_activity"),
                labels);
    }

    @Test
    void metricsDefaultAllNoneAndLists() {
        assertEquals(
                EnumSet.of(
                        GpuMetric.BUSY_GFX,
                        GpuMetric.BUSY_UMC,
                        GpuMetric.BUSY_MM,
                        GpuMetric.TEMPERATURE,
                        GpuMetric.POWER,
                        GpuMetric.MEMORY_USAGE),
                GpuMetric.parse(GpuMetric.DEFAULT_SPEC));
        assertEquals(EnumSet.allOf(GpuMetric.class), GpuMetric.parse(""));
        assertEquals(EnumSet.allOf(GpuMetric.class), GpuMetric.parse("all"));
        assertEquals(Set.of(), GpuMetric.parse("none"));
        assertEquals(
                EnumSet.of(GpuMetric.TEMPERATURE, GpuMetric.VCN_ACTIVITY, GpuMetric.JPEG_ACTIVITY),
                GpuMetric.parse("temp;vcn_activity:jpeg_activity"));
        assertEquals(EnumSet.of(GpuMetric.POWER, GpuMetric.MEMORY_USAGE), GpuMetric.parse(" power\tmem_usage,"));
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> GpuMetric.parse("busy, temperature"));
        assertTrue(e.getMessage().startsWith("unsupported amd-smi metric: temperature"), e.getMessage());
    }

    @Test
    void devicesAllNoneNumbersAndRanges() {
        assertTrue(GpuDeviceSelection.parse("all").all());
        assertTrue(GpuDeviceSelection.parse("").all());
        assertTrue(GpuDeviceSelection.parse("ON").all());
        assertTrue(GpuDeviceSelection.parse("none").none());
        assertTrue(GpuDeviceSelection.parse("off").none());

        GpuDeviceSelection s = GpuDeviceSelection.parse("0,2-3");
        assertFalse(s.all());
        assertEquals(List.of(0, 2, 3), List.copyOf(s.indices()));
        assertTrue(s.includes(2) && s.includes(3) && !s.includes(1) && !s.includes(4));
        assertEquals(
                List.of(1, 4, 5, 6),
                List.copyOf(GpuDeviceSelection.parse(" 4-6; 1 ").indices()));
        assertEquals(List.of(7), List.copyOf(GpuDeviceSelection.parse("7-7").indices()));
    }

    @Test
    void aBadDeviceListIsAClearError() {
        for (String bad : List.of("gpu0", "1,x", "-1", "2-", "1-2-3", "0.5")) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> GpuDeviceSelection.parse(bad), bad);
            assertTrue(e.getMessage().contains("ROCPROFSYS_SAMPLING_GPUS"), e.getMessage());
        }
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> GpuDeviceSelection.parse("3-1"));
        assertTrue(e.getMessage().contains("'3-1'"), e.getMessage());
    }
}
