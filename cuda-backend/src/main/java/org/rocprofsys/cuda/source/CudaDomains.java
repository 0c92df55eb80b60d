package org.rocprofsys.cuda.source;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.rocprofsys.core.gpu.GpuDomain;
import org.rocprofsys.core.spi.SettingWords;
import org.rocprofsys.cuda.decode.CudaGpu;

/**
 * {@code ROCPROFSYS_CUDA_DOMAINS}: which CUDA domains are traced. An unknown name is an error in
 * the words upstream uses for {@code ROCPROFSYS_ROCM_DOMAINS} ("unsupported ROCPROFSYS_ROCM_DOMAINS
 * value: X"), so the setting declares no choice list of its own (the config layer would reject the
 * value first, in its own words).
 */
public final class CudaDomains {
    public static final String SETTING = "ROCPROFSYS_CUDA_DOMAINS";

    private CudaDomains() {}

    /**
     * The domains of a comma (or space, semicolon) separated list; empty for an empty list.
     *
     * @throws IllegalArgumentException naming the first unknown value
     */
    public static Set<GpuDomain> parse(String value) {
        Set<GpuDomain> domains = new HashSet<>();
        for (String token : SettingWords.of(value, "[ ,;]+")) {
            GpuDomain d = CudaGpu.DOMAINS.stream()
                    .filter(g -> g.settingName().equals(token.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unsupported " + SETTING + " value: " + token));
            domains.add(d);
        }
        return CudaGpu.inModelOrder(domains);
    }

    /** The list the injection library reads ({@code ROCPROFSYS_AGENT_CUDA_DOMAINS}), in model order. */
    public static String agentList(Set<GpuDomain> domains) {
        return CudaGpu.inModelOrder(domains).stream()
                .map(GpuDomain::settingName)
                .collect(Collectors.joining(","));
    }
}
