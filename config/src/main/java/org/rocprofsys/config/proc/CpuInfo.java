package org.rocprofsys.config.proc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** {@code /proc/cpuinfo}: one block of {@code key : value} lines per logical CPU, in file order. */
public record CpuInfo(List<Processor> processors) {
    public CpuInfo {
        processors = List.copyOf(processors);
    }

    /** One CPU's block; {@link #number} is its "processor" line, -1 when it has none. */
    public record Processor(Map<String, String> fields) {
        public Processor {
            fields = Map.copyOf(fields);
        }

        public Optional<String> get(String key) {
            return Optional.ofNullable(fields.get(key));
        }

        public int number() {
            try {
                return Integer.parseInt(fields.getOrDefault("processor", "-1"));
            } catch (NumberFormatException e) {
                return -1;
            }
        }
    }

    /** A new block starts at each "processor" line (and at the first line, for kernels without one). */
    public static CpuInfo parse(String text) {
        List<Processor> processors = new ArrayList<>();
        Map<String, String> block = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (key.equals("processor") && !block.isEmpty()) {
                processors.add(new Processor(block));
                block = new LinkedHashMap<>();
            }
            block.putIfAbsent(key, value);
        }
        if (!block.isEmpty()) {
            processors.add(new Processor(block));
        }
        return new CpuInfo(processors);
    }

    /** The first CPU's value of {@code key}. */
    public Optional<String> first(String key) {
        return processors.stream()
                .map(p -> p.get(key))
                .flatMap(Optional::stream)
                .findFirst();
    }
}
