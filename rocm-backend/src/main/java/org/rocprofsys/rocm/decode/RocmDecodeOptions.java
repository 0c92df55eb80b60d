package org.rocprofsys.rocm.decode;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.rocprofsys.core.gpu.GpuDomain;

/**
 * What the decoder shows: kernels and copies by queue instead of by HIP stream
 * ({@code ROCPROFSYS_ROCM_GROUP_BY_QUEUE}), and, per domain, upstream's operation filters
 * ({@code ROCPROFSYS_ROCM_<DOMAIN>_OPERATIONS} keeps the operations its regex finds,
 * {@code _OPERATIONS_EXCLUDE} then drops those its regex finds).
 */
public record RocmDecodeOptions(boolean groupByQueue, Map<GpuDomain, Filter> filters) {
    /** One domain's include and exclude regexes (empty: no filter). */
    public record Filter(Optional<Pattern> include, Optional<Pattern> exclude) {
        public boolean keeps(String operation) {
            return include.map(p -> p.matcher(operation).find()).orElse(true)
                    && exclude.map(p -> !p.matcher(operation).find()).orElse(true);
        }
    }

    public static final RocmDecodeOptions DEFAULT = new RocmDecodeOptions(false, Map.of());

    public RocmDecodeOptions {
        filters = Map.copyOf(filters);
    }

    /** Whether operation {@code name} of {@code domain} is kept. */
    public boolean keeps(GpuDomain domain, String name) {
        Filter f = filters.get(domain);
        return f == null || f.keeps(name);
    }
}
