package org.rocprofsys.instrument.report;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.plan.Exclusion;
import org.rocprofsys.instrument.plan.FunctionInfo;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;
import org.w3c.dom.Document;

class ListFilesTest {
    static final FunctionInfo OUTER =
            new FunctionInfo("/tmp/app", "outer", "outer", 0x1139, 42, 12, "global", "default");
    static final FunctionInfo TPL =
            new FunctionInfo("/tmp/app", "twice<int>", "int twice<int>(int)", 0x1200, 20, 0, "weak", "default");
    static final FunctionInfo SMALL =
            new FunctionInfo("/tmp/libx.so", "small", "small", 0x1300, 0, 0, "local", "hidden");

    static InstrumentPlan plan() {
        PlannedFunction p = new PlannedFunction(
                OUTER,
                "outer",
                8,
                new byte[] {0x55, 0x48, (byte) 0x89, (byte) 0xe5, 0x48, (byte) 0x83, (byte) 0xec, 0x10},
                List.of());
        return new InstrumentPlan(
                Path.of("/tmp/app"),
                true,
                List.of(OUTER, TPL, SMALL),
                List.of(p),
                List.of(new Exclusion(TPL, "linkage-constraint"), new Exclusion(SMALL, "min-instructions")),
                List.of(),
                0);
    }

    @Test
    void writesEveryListInEveryFormat(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("rocprofsys-out/instrumentation");
        List<Path> files = ListFiles.write(
                out,
                List.of(plan()),
                EnumSet.range(FunctionList.AVAILABLE, FunctionList.OVERLAPPING),
                EnumSet.allOf(ListFiles.Format.class));
        assertEquals(12, files.size());
        Set<String> names;
        try (var s = Files.list(out)) {
            names = s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
        for (String l : List.of("available", "instrumented", "excluded", "overlapping")) {
            for (String e : List.of("txt", "json", "xml")) assertTrue(names.contains(l + "." + e), names.toString());
        }
        assertEquals(12, names.size(), "no temporary files left: " + names);

        String txt = Files.readString(out.resolve("available.txt"));
        String[] lines = txt.split("\n");
        assertEquals(4, lines.length);
        assertTrue(
                lines[0].startsWith("  StartAddress   AddressRange  #Instructions  Ratio Linkage Visibility  Module"),
                lines[0]);
        assertTrue(lines[0].contains("Function") && lines[0].contains("FunctionSignature"));
        assertTrue(
                lines[1].startsWith("        0x1139             42             12   3.50   global    default /tmp/app"),
                lines[1]);
        assertTrue(lines[2].contains(" 0    inf     weak"), lines[2]);
        assertTrue(lines[2].contains("int twice<int>(int)"));

        JsonNode json =
                new ObjectMapper().readTree(out.resolve("instrumented.json").toFile());
        JsonNode funcs =
                json.path("rocprofsys").path("instrumented_module_functions").path("module_functions");
        assertEquals(1, funcs.size());
        assertEquals("0x1139", funcs.get(0).path("start_address").asText());
        assertEquals(42, funcs.get(0).path("address_range").asInt());
        assertEquals("outer", funcs.get(0).path("function").asText());
        JsonNode empty =
                new ObjectMapper().readTree(out.resolve("overlapping.json").toFile());
        assertEquals(
                0,
                empty.path("rocprofsys")
                        .path("overlapping_module_functions")
                        .path("module_functions")
                        .size());
        assertTrue(empty.path("rocprofsys")
                .path("overlapping_module_functions")
                .path("module_functions")
                .isArray());

        Document xml = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(out.resolve("excluded.xml").toFile());
        assertEquals("cereal", xml.getDocumentElement().getTagName());
        assertEquals(1, xml.getElementsByTagName("excluded_module_functions").getLength());
        assertEquals(
                "int twice<int>(int)",
                xml.getElementsByTagName("signature").item(0).getTextContent());
        assertEquals(2, xml.getElementsByTagName("function").getLength());

        // the excluded list says why, in each format
        assertEquals(
                "min-instructions", xml.getElementsByTagName("reason").item(1).getTextContent());
        String[] excluded = Files.readString(out.resolve("excluded.txt")).split("\n");
        assertTrue(excluded[0].endsWith(" Reason"), excluded[0]);
        assertTrue(excluded[1].endsWith(" linkage-constraint"), excluded[1]);
        assertTrue(excluded[2].endsWith(" min-instructions"), excluded[2]);
        JsonNode why = new ObjectMapper()
                .readTree(out.resolve("excluded.json").toFile())
                .path("rocprofsys")
                .path("excluded_module_functions")
                .path("module_functions");
        assertEquals("linkage-constraint", why.get(0).path("reason").asText());
        assertFalse(Files.readString(out.resolve("available.txt")).contains("Reason"), "only the excluded list");
    }

    @Test
    void coverageListOnlyInCoverageMode() {
        InstrumentPlan trace = plan();
        assertTrue(FunctionList.COVERAGE.rows(trace).isEmpty());
        InstrumentPlan coverage = new InstrumentPlan(
                trace.module(),
                true,
                trace.available(),
                trace.instrumented(),
                trace.excluded(),
                trace.overlapping(),
                2);
        assertEquals(List.of(OUTER), FunctionList.COVERAGE.rows(coverage));
        assertEquals("coverage_module_functions", FunctionList.of("coverage").label());
    }

    @Test
    void longNamesAreCutInText() {
        String longName = "n".repeat(100);
        FunctionInfo f = new FunctionInfo("/m", longName, longName, 0, 10, 5, "global", "default");
        String txt = TextList.render(List.of(f));
        assertTrue(txt.contains("n".repeat(77) + "..."));
        assertFalse(txt.contains("n".repeat(78)));
    }

    @Test
    void stdoutModes() {
        List<FunctionInfo> rows = List.of(OUTER, TPL, SMALL);
        assertEquals("""
                [available] /tmp/app:
                [available]    [outer][12]
                [available]    [twice<int>][0]
                [available] /tmp/libx.so:
                [available]    [small][0]
                """, PrintMode.of("functions").format(FunctionList.AVAILABLE, rows));
        assertTrue(
                PrintMode.of("functions+").format(FunctionList.AVAILABLE, rows).contains("[int twice<int>(int)][0]"));
        assertEquals("""
                [excluded]    [/tmp/app]
                [excluded]    [/tmp/libx.so]
                """, PrintMode.of("modules").format(FunctionList.EXCLUDED, rows));
        assertEquals(
                "[instrumented]    [/tmp/app] --> [outer][12]\n",
                PrintMode.of("pair").format(FunctionList.INSTRUMENTED, List.of(OUTER)));
        assertEquals(
                "[instrumented]    [/tmp/app] --> [int twice<int>(int)][0]\n",
                PrintMode.of("pair+").format(FunctionList.INSTRUMENTED, List.of(TPL)));
        assertThrows(IllegalArgumentException.class, () -> PrintMode.of("everything"));
    }
}
