package org.rocprofsys.core.event;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The Java categories and the public C header the agent and user programs compile against must agree. */
class CategoryTest {
    @Test
    void numberingMatchesCategoriesHeader() throws Exception {
        String header = Files.readString(Path.of("../agent/src/main/include/rocprofiler-systems/categories.h"));
        String block = header.substring(
                header.indexOf("typedef enum ROCPROFSYS_CATEGORIES"), header.indexOf("rocprofsys_category_t;"));
        List<String> names = new ArrayList<>();
        Matcher m = Pattern.compile("ROCPROFSYS_CATEGORY_([A-Z0-9_]+)").matcher(block);
        while (m.find()) {
            if (!m.group(1).equals("LAST")) {
                names.add(m.group(1));
            }
        }
        assertEquals(
                names,
                java.util.Arrays.stream(Category.values()).map(Enum::name).toList());
        for (Category c : Category.values()) {
            assertEquals(c, Category.fromCode(c.code()));
            assertEquals(c.ordinal(), c.code());
        }
        assertEquals("host", Category.HOST.label());
        assertEquals("device_busy_gfx", Category.AMD_SMI_BUSY_GFX.label());
    }
}
