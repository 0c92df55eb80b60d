package org.rocprofsys.rocprofv3.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * agent_info.csv: the host CPU (node 0) and each GPU the process used (node index + 1), in the
 * seed's 53 columns. The event model knows a GPU's name, vendor, architecture and compute units
 * (CUDA's multiprocessors); the HSA topology fields it does not know are 0.
 */
public final class AgentInfo {
    private AgentInfo() {}

    public static String csv(List<org.rocprofsys.core.gpu.GpuDevice> devices) {
        StringBuilder out = new StringBuilder();
        Csv.header(out, TraceFile.Columns.AGENT_INFO);
        String cpu = cpuName();
        Map<String, Object> host = new HashMap<>();
        host.put("Node_Id", 0);
        host.put("Logical_Node_Id", 0);
        host.put("Agent_Type", "CPU");
        host.put("Cpu_Cores_Count", Runtime.getRuntime().availableProcessors());
        host.put("Num_Xcc", 1);
        host.put("Name", cpu);
        host.put("Vendor_Name", "CPU");
        host.put("Product_Name", cpu);
        host.put("Model_Name", "");
        Csv.line(out, row(host));
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (var d : devices) {
            if (!seen.add(d.index())) {
                continue;
            }
            Map<String, Object> gpu = new HashMap<>();
            gpu.put("Node_Id", Agents.node(d.index()));
            gpu.put("Logical_Node_Id", Agents.node(d.index()));
            gpu.put("Agent_Type", "GPU");
            gpu.put("Num_Xcc", 1);
            gpu.put("Cu_Count", d.multiprocessors());
            gpu.put("Name", d.computeCapability() == null ? d.name() : d.computeCapability());
            gpu.put("Vendor_Name", d.vendor());
            gpu.put("Product_Name", d.name());
            gpu.put("Model_Name", "");
            Csv.line(out, row(gpu));
        }
        return out.toString();
    }

    private static List<Object> row(Map<String, Object> known) {
        List<Object> values = new ArrayList<>();
        for (String c : TraceFile.Columns.AGENT_INFO) {
            values.add(known.getOrDefault(c, 0));
        }
        return values;
    }

    private static String cpuName() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (IOException e) {
            // no /proc: the name stays generic
        }
        return "CPU";
    }
}
