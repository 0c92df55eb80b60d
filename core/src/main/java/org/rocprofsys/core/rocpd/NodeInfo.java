package org.rocprofsys.core.rocpd;

import java.nio.file.Path;
import java.util.List;
import org.rocprofsys.config.proc.CpuInfo;
import org.rocprofsys.config.proc.ProcFs;

/**
 * The machine a run profiled (rocpd_info_node) and its CPUs (the CPU agents of each process).
 *
 * @param hash      a number naming the machine: a hash of its machine id
 * @param cpuModels the model name of each logical CPU, in CPU order
 */
record NodeInfo(
        long hash,
        String machineId,
        String systemName,
        String hostname,
        String release,
        String version,
        String hardwareName,
        String domainName,
        String cpuVendor,
        List<String> cpuModels) {

    /** This machine, as /proc and /etc/machine-id describe it (what is unreadable is empty). */
    static NodeInfo ofThisMachine() {
        ProcFs proc = ProcFs.system();
        String hostname = proc.sysctl("kernel/hostname").orElse("").strip();
        String machineId = ProcFs.readFile(Path.of("/etc/machine-id"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .orElse(hostname);
        CpuInfo cpus = proc.cpuInfo().orElse(new CpuInfo(List.of()));
        List<String> models = cpus.processors().stream()
                .map(p -> p.get("model name").orElse("CPU"))
                .toList();
        if (models.isEmpty()) {
            models = java.util.Collections.nCopies(Runtime.getRuntime().availableProcessors(), "CPU");
        }
        return new NodeInfo(
                machineId.hashCode() & 0x7fffffffL,
                machineId,
                proc.sysctl("kernel/ostype").orElse("Linux").strip(),
                hostname,
                proc.sysctl("kernel/osrelease").orElse("").strip(),
                proc.sysctl("kernel/version").orElse("").strip(),
                System.getProperty("os.arch"),
                proc.sysctl("kernel/domainname").orElse("").strip(),
                cpus.first("vendor_id").orElse(""),
                models);
    }
}
