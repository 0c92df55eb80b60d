package org.rocprofsys.core.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.file.JsonConfigReader;

/**
 * The outputs' facts (trees made with JsonNodeFactory) are written without databind's
 * ObjectMapper: they must read back as the same trees, every kind of value included.
 */
class MetadataWriterTest {
    @TempDir
    Path dir;

    @Test
    void factsReadBackAsTheTreesGiven() throws Exception {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode gpu = json.objectNode();
        gpu.putArray("devices")
                .addObject()
                .put("index", 0)
                .put("name", "NVIDIA H100 \"80GB\" \u00e9")
                .put("memory", 85_899_345_920L)
                .put("clock", 1.98e9)
                .put("fraction", 0.25)
                .put("big", new BigInteger("18446744073709551615"))
                .put("managed", true)
                .putNull("uuid");
        gpu.putArray("empty");
        gpu.putObject("nested").putArray("counts").add(1).add(-2).add(3.5);
        ObjectNode buffer = json.objectNode().put("buffer_size_kb", 1_048_576).put("fill_policy", "discard");
        Map<String, JsonNode> facts = Map.of("gpu", gpu, "perfetto_buffer", buffer);

        Settings settings = new SettingsLoader(SettingsRegistry.standard(), Map.of("HOME", dir.toString()), dir).load();
        Path file = dir.resolve("metadata.json");
        MetadataWriter.write(
                file,
                settings,
                List.of("prog", "arg"),
                ZonedDateTime.parse("2026-11-24T12:00:00Z"),
                Map.of(),
                Map.of(),
                Map.of(),
                facts,
                List.of());

        JsonNode root = new ObjectMapper()
                .readTree(file.toFile())
                .get(JsonConfigReader.ROOT)
                .get("metadata");
        assertEquals(gpu, root.get("gpu"));
        assertEquals(buffer, root.get("perfetto_buffer"));
    }
}
