package org.rocprofsys.rocprofv3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.gpu.CopyKind;
import org.rocprofsys.core.gpu.DevicePlacement;
import org.rocprofsys.core.gpu.DeviceTrack;
import org.rocprofsys.core.gpu.Dim3;
import org.rocprofsys.core.gpu.GpuApiCall;
import org.rocprofsys.core.gpu.GpuDevice;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.gpu.GpuEvent;
import org.rocprofsys.core.gpu.GpuKernel;
import org.rocprofsys.core.gpu.GpuMarker;
import org.rocprofsys.core.gpu.GpuMemoryCopy;
import org.rocprofsys.core.gpu.GpuVendor;
import org.rocprofsys.rocprofv3.json.JsonDocument;
import org.rocprofsys.rocprofv3.trace.KernelNames;
import org.rocprofsys.rocprofv3.trace.TraceRows;

/**
 * Golden test of the JSON output against seed 004's schema (golden/json-schema.tsv, extracted from
 * the seed): every required property of every object present is there, with the schema's type,
 * field by field.
 */
class JsonSchemaTest {
    /** One schema property. */
    record Prop(String name, String type, boolean required, List<Prop> children) {}

    static Prop schema() throws IOException {
        Prop root = new Prop("", "object", true, new ArrayList<>());
        List<Prop> stack = new ArrayList<>(List.of(root));
        try (InputStream in = JsonSchemaTest.class.getResourceAsStream("/golden/json-schema.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                int depth = Integer.parseInt(f[0]);
                Prop p = new Prop(f[1], f[2], f[3].equals("required"), new ArrayList<>());
                while (stack.size() > depth) {
                    stack.removeLast();
                }
                stack.getLast().children().add(p);
                stack.add(p);
            }
        }
        return root;
    }

    static final GpuVendor VENDOR = new GpuVendor("ROCm", "X", "hip_api_stats", "sdk", "Stream");
    static final GpuDomain HIP = VENDOR.domain("hip_runtime_api", "rocm_hip_api");
    static final GpuDomain KERNELS = VENDOR.domain("kernel_dispatch", "rocm_kernel_dispatch");
    static final GpuDomain COPIES = VENDOR.domain("memory_copy", "rocm_memory_copy");
    static final GpuDomain MARKERS = VENDOR.domain("marker_core_api", "rocm_marker_api");

    static List<GpuEvent> events() {
        DevicePlacement place = new DevicePlacement(new DeviceTrack("t", "T"), "c", List.of());
        return List.of(
                new GpuDevice(7, 1, 0, "AMD", "MI300X", "GPU-0", 304, 1L << 30, "gfx942"),
                new GpuApiCall(7, 8, HIP, "hipLaunchKernel", 100, 200, 5, List.of()),
                new GpuKernel(
                        7,
                        0,
                        1,
                        5,
                        300,
                        400,
                        "k(int)",
                        "_Z1ki",
                        new Dim3(1024, 1, 1),
                        new Dim3(64, 1, 1),
                        0,
                        0,
                        8,
                        KERNELS,
                        place),
                new GpuMemoryCopy(7, 0, 0, 6, 500, 600, CopyKind.HOST_TO_DEVICE, 4096, -1, 0, COPIES, place),
                new GpuMarker(7, 8, "", "range", 50, 700, true, 0, false, MARKERS));
    }

    static JsonNode document() throws IOException {
        var rows = new TraceRows(new KernelNames(false, false)).rows(events());
        String text = JsonDocument.text(List.of(new JsonDocument.Process(
                7, 1, 1000, List.of((GpuDevice) events().getFirst()), rows, new KernelNames(false, false))));
        return new ObjectMapper().readTree(text);
    }

    @Test
    void everyRequiredPropertyIsThereWithItsType() throws IOException {
        JsonNode doc = document();
        List<String> problems = new ArrayList<>();
        check(schema(), doc, "", problems);
        assertEquals(List.of(), problems);
        // the records the events made are there, so the check above saw their fields
        JsonNode p = doc.get("rocprofiler-sdk-tool").get(0);
        assertEquals(1, p.get("buffer_records").get("kernel_dispatch").size());
        assertEquals(1, p.get("buffer_records").get("hip_api").size());
        assertEquals(1, p.get("buffer_records").get("memory_copy").size());
        assertEquals(1, p.get("buffer_records").get("marker_api").size());
        assertEquals(
                4096,
                p.get("buffer_records").get("memory_copy").get(0).get("bytes").asLong());
        assertEquals(
                "hipLaunchKernel",
                p.get("strings")
                        .get("buffer_records")
                        .get(p.get("buffer_records")
                                .get("hip_api")
                                .get(0)
                                .get("kind")
                                .asInt())
                        .get("operations")
                        .get(0)
                        .asText());
    }

    private static void check(Prop schema, JsonNode node, String path, List<String> problems) {
        if (!typeMatches(schema.type(), node)) {
            problems.add(path + ": expected " + schema.type() + ", found " + node.getNodeType());
            return;
        }
        for (Prop child : schema.children()) {
            if (child.name().equals("Items")) {
                for (int i = 0; i < node.size(); i++) {
                    check(child, node.get(i), path + "[" + i + "]", problems);
                }
                continue;
            }
            JsonNode value = node.get(child.name());
            if (value == null) {
                if (child.required()) {
                    problems.add(path + "." + child.name() + ": missing");
                }
                continue;
            }
            check(child, value, path + "." + child.name(), problems);
        }
    }

    private static boolean typeMatches(String type, JsonNode node) {
        return switch (type) {
            case "object" -> node.isObject();
            case "array" -> node.isArray();
            case "integer" -> node.isIntegralNumber();
            case "number" -> node.isNumber();
            case "string" -> node.isTextual();
            default -> true;
        };
    }
}
