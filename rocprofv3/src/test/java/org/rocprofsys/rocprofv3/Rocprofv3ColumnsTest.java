package org.rocprofsys.rocprofv3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rocprofsys.rocprofv3.trace.TraceFile;

/**
 * Golden test: every file's columns, in order, are the seed's (golden/csv-headers.tsv, extracted
 * from seed 001's examples). A renamed or reordered column fails here.
 */
class Rocprofv3ColumnsTest {
    static Map<String, List<String>> seedHeaders() throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        try (InputStream in = Rocprofv3ColumnsTest.class.getResourceAsStream("/golden/csv-headers.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] parts = line.split("\t");
                out.put(parts[0], List.of(parts[1].split(",")));
            }
        }
        return out;
    }

    @Test
    void everyTraceFileHasTheSeedsColumnsInTheSeedsOrder() throws IOException {
        Map<String, List<String>> seed = seedHeaders();
        for (TraceFile f : TraceFile.values()) {
            // rccl and CUDA API files take the API trace's columns (seed 001 shows rocdecode's, the same)
            String name = f == TraceFile.RCCL_API || f == TraceFile.CUDA_API ? "hip_api_trace" : f.fileName;
            assertTrue(seed.containsKey(name), name);
            assertEquals(seed.get(name), f.columns, f.fileName);
        }
    }

    @Test
    void statsAndAgentInfoHaveTheSeedsColumns() throws IOException {
        Map<String, List<String>> seed = seedHeaders();
        assertEquals(seed.get("hip_api_stats"), TraceFile.Columns.STATS);
        assertEquals(seed.get("domain_stats"), TraceFile.Columns.STATS);
        assertEquals(seed.get("agent_info"), TraceFile.Columns.AGENT_INFO);
    }

    @Test
    void headerLineIsQuotedAsRocprofv3Writes() {
        StringBuilder sb = new StringBuilder();
        org.rocprofsys.rocprofv3.trace.Csv.header(sb, TraceFile.Columns.API);
        assertEquals(
                "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n",
                sb.toString());
    }
}
