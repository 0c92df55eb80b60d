package org.rocprofsys.core.metadata;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingValue;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.UnsupportedUse;
import org.rocprofsys.config.Version;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.file.ConfigEntry;
import org.rocprofsys.config.file.JsonConfigReader;
import org.rocprofsys.config.file.JsonConfigWriter;
import org.rocprofsys.core.output.UnwrittenFile;

/**
 * {@code metadata.json} (inventory §3.2): machine and run facts, every setting (in the layout a
 * config file uses, so the file reads back as a config), the files written, and the environment.
 */
public final class MetadataWriter {
    private MetadataWriter() {}

    /**
     * @param outputs files written, by kind ({@code json}, {@code text}, {@code protobuf}) then by
     *                key ({@code wall_clock}, {@code perfetto}, ...)
     * @param facts the outputs' own entries ({@code gpu}: devices and kernel counts), after {@code output}
     * @param unwritten the files the run could not write, listed under {@code not_written}
     */
    public static void write(
            Path file,
            Settings settings,
            List<String> commandLine,
            ZonedDateTime launch,
            Map<String, Map<String, List<Path>>> outputs,
            Map<String, String> environment,
            Map<String, Long> drops,
            Map<String, JsonNode> facts,
            List<UnwrittenFile> unwritten)
            throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        AtomicFile.write(file, tmp -> {
            try (OutputStream os = Files.newOutputStream(tmp);
                    // jackson-core alone: databind's first ObjectMapper costs a run tens of
                    // milliseconds of class initialisation (the facts' trees are written by writeNode)
                    JsonGenerator g = new JsonFactory().createGenerator(os)) {
                g.useDefaultPrettyPrinter();
                g.writeStartObject();
                g.writeObjectFieldStart(JsonConfigReader.ROOT);
                g.writeObjectFieldStart("metadata");
                writeInfo(g, commandLine, launch, drops);
                g.writeFieldName("settings");
                JsonConfigWriter.writeSettings(g, settingsEntries(settings), true);
                writeUnsupported(g, settings.unsupported());
                writeOutputs(g, outputs);
                writeUnwritten(g, unwritten);
                for (Map.Entry<String, JsonNode> f : facts.entrySet()) {
                    g.writeFieldName(f.getKey());
                    writeNode(g, f.getValue());
                }
                writeEnvironment(g, environment);
                g.writeEndObject();
                g.writeEndObject();
                g.writeEndObject();
            } catch (IOException e) {
                throw new FileWriteException(file, AtomicFile.reason(e), e);
            }
            return null;
        });
    }

    private static void writeOutputs(JsonGenerator g, Map<String, Map<String, List<Path>>> outputs) throws IOException {
        g.writeObjectFieldStart("output");
        for (Map.Entry<String, Map<String, List<Path>>> kind : outputs.entrySet()) {
            writeObjects(g, kind.getKey(), kind.getValue().entrySet(), e -> {
                g.writeStringField("key", e.getKey());
                g.writeArrayFieldStart("value");
                for (Path p : e.getValue()) {
                    g.writeString(p.toString());
                }
                g.writeEndArray();
            });
        }
        g.writeEndObject();
    }

    /** The files the run could not write, and why (a full disk): said, never lost without a word. */
    private static void writeUnwritten(JsonGenerator g, List<UnwrittenFile> unwritten) throws IOException {
        writeObjects(g, "not_written", unwritten, u -> {
            if (u.file().isPresent()) {
                g.writeStringField("file", u.file().get().toString());
            }
            g.writeStringField("reason", u.reason());
        });
    }

    private static void writeEnvironment(JsonGenerator g, Map<String, String> environment) throws IOException {
        List<Map.Entry<String, String>> shown = new TreeMap<>(environment)
                .entrySet().stream()
                        .filter(e -> e.getKey().startsWith("ROCPROFSYS_")
                                || e.getKey().equals("LD_PRELOAD")
                                || e.getKey().startsWith("OMP_")
                                || e.getKey().startsWith("HIP_")
                                || e.getKey().startsWith("CUDA_"))
                        .toList();
        writeObjects(g, "environment", shown, e -> {
            g.writeStringField("key", e.getKey());
            g.writeStringField("value", e.getValue());
        });
    }

    /** What the run asked for that this build does not act on: the same list the run warned about. */
    private static void writeUnsupported(JsonGenerator g, List<UnsupportedUse> unsupported) throws IOException {
        writeObjects(g, "not_supported", unsupported, u -> {
            g.writeStringField("key", u.name());
            g.writeStringField("value", u.value());
            g.writeStringField("origin", u.origin());
            g.writeStringField("message", u.message());
        });
    }

    /** Writes the fields of one object of an array. */
    private interface Fields<T> {
        void write(T item) throws IOException;
    }

    /** {@code "name": [{...}, ...]}: an object per item, its fields written by {@code fields}. */
    private static <T> void writeObjects(JsonGenerator g, String name, Iterable<T> items, Fields<T> fields)
            throws IOException {
        g.writeArrayFieldStart(name);
        for (T item : items) {
            g.writeStartObject();
            fields.write(item);
            g.writeEndObject();
        }
        g.writeEndArray();
    }

    private static List<ConfigEntry> settingsEntries(Settings settings) {
        List<ConfigEntry> entries = new ArrayList<>();
        for (SettingValue v : settings.all()) {
            SettingDefinition d = v.definition();
            if (d.hidden() || d.legacy() || d.deprecated()) {
                continue;
            }
            // the file must read back as a config without pulling other files in
            entries.add(new ConfigEntry(v, d.envName().equals("ROCPROFSYS_CONFIG_FILE") ? "" : v.value()));
        }
        return entries;
    }

    /** A tree made with JsonNodeFactory, as ObjectMapper would write it (no codec needed). */
    private static void writeNode(JsonGenerator g, JsonNode n) throws IOException {
        switch (n.getNodeType()) {
            case OBJECT -> {
                g.writeStartObject();
                for (Map.Entry<String, JsonNode> e : n.properties()) {
                    g.writeFieldName(e.getKey());
                    writeNode(g, e.getValue());
                }
                g.writeEndObject();
            }
            case ARRAY -> {
                g.writeStartArray();
                for (JsonNode e : n) {
                    writeNode(g, e);
                }
                g.writeEndArray();
            }
            case STRING -> g.writeString(n.textValue());
            case BOOLEAN -> g.writeBoolean(n.booleanValue());
            case NULL, MISSING -> g.writeNull();
            case NUMBER -> {
                if (n.isIntegralNumber()) {
                    g.writeNumber(n.bigIntegerValue());
                } else {
                    g.writeNumber(n.doubleValue());
                }
            }
            case BINARY, POJO -> throw new IllegalArgumentException("metadata facts hold plain JSON values, not " + n);
        }
    }

    private static void writeInfo(
            JsonGenerator g, List<String> commandLine, ZonedDateTime launch, Map<String, Long> drops)
            throws IOException {
        MachineInfo m = MachineInfo.read();
        g.writeObjectFieldStart("info");
        g.writeStringField("CPU_MODEL", m.cpuModel());
        g.writeStringField("CPU_VENDOR", m.cpuVendor());
        g.writeNumberField("CPU_FREQUENCY", m.cpuMhz());
        g.writeStringField("CPU_FEATURES", m.cpuFeatures());
        g.writeNumberField("HW_CONCURRENCY", Runtime.getRuntime().availableProcessors());
        g.writeNumberField("HW_PHYSICAL_CPU", m.physicalCores());
        g.writeNumberField("HW_L1_CACHE_SIZE", m.cacheBytes(1));
        g.writeNumberField("HW_L2_CACHE_SIZE", m.cacheBytes(2));
        g.writeNumberField("HW_L3_CACHE_SIZE", m.cacheBytes(3));
        g.writeStringField("LAUNCH_DATE", launch.format(DateTimeFormatter.ofPattern("MM/dd/yy")));
        g.writeStringField("LAUNCH_TIME", launch.format(DateTimeFormatter.ofPattern("HH:mm")));
        g.writeStringField("ROCPROFSYS_VERSION", Version.STRING);
        String[] v = Version.STRING.split("\\.");
        for (int i = 0; i < 3 && i < v.length; i++) {
            g.writeStringField("ROCPROFSYS_VERSION_" + new String[] {"MAJOR", "MINOR", "PATCH"}[i], v[i]);
        }
        g.writeStringField("ROCPROFSYS_SYSTEM_NAME", System.getProperty("os.name"));
        g.writeStringField("ROCPROFSYS_SYSTEM_PROCESSOR", System.getProperty("os.arch"));
        g.writeStringField("ROCPROFSYS_SYSTEM_VERSION", System.getProperty("os.version"));
        g.writeStringField("ROCPROFSYS_COLLECTOR_RUNTIME", "Java " + Runtime.version());
        g.writeArrayFieldStart("command_line");
        for (String a : commandLine) {
            g.writeString(a);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("dropped_records");
        for (Map.Entry<String, Long> e : drops.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
        g.writeEndObject();
    }
}
