package org.rocprofsys.unifiedmemory.kfd;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.rocprofsys.config.proc.ProcFs;

/**
 * The GPUs KFD knows ({@code /sys/class/kfd/kfd/topology/nodes/<n>/}): CPU nodes have gpu_id 0.
 * A GPU's device index in our reports is its node number, as KFD's node ids count CPUs and GPUs
 * together (seed 000's "gfx950 ... (2)").
 */
public final class KfdTopology {
    public static final Path SYSTEM = Path.of("/sys/class/kfd/kfd/topology/nodes");

    private KfdTopology() {}

    /** One GPU node. */
    public record Gpu(int node, int gpuId, String name) {}

    public static List<Gpu> gpus(Path nodes) throws IOException {
        List<Gpu> out = new ArrayList<>();
        if (!Files.isDirectory(nodes)) {
            return out;
        }
        try (Stream<Path> dirs = Files.list(nodes)) {
            for (Path dir : dirs.sorted().toList()) {
                int node;
                try {
                    node = Integer.parseInt(dir.getFileName().toString());
                } catch (NumberFormatException e) {
                    continue;
                }
                long gpuId = ProcFs.readFile(dir.resolve("gpu_id"))
                        .map(String::strip)
                        .map(Long::parseLong)
                        .orElse(0L);
                if (gpuId == 0) {
                    continue;
                }
                String name = ProcFs.readFile(dir.resolve("name"))
                        .map(String::strip)
                        .filter(s -> !s.isEmpty())
                        .orElse("GPU " + node);
                out.add(new Gpu(node, (int) gpuId, name));
            }
        }
        out.sort(java.util.Comparator.comparingInt(Gpu::node));
        return out;
    }
}
