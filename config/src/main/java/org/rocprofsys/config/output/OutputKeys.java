package org.rocprofsys.config.output;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongToIntFunction;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.config.proc.ProcFs;

/**
 * The {@code %key%} placeholders of output paths, config file names and causal scopes (timemory
 * {@code settings::output_keys} / {@code settings::format}).
 *
 * <p>Expansion follows upstream's order because the keys overlap: the full keys are replaced
 * first, in the order {@link #list} gives, then the shorthands ({@code %p} would otherwise eat
 * the start of {@code %pid%}), then the {@code _hash} keys, then {@code %env{}%},
 * {@code $env{}}, {@code %cfg{}%}, {@code $cfg{}}, and last any {@code %arg<N>%} left over
 * (N beyond the command line) is dropped together with the '-', '/', '_' right after it, so
 * "out-%arg3%-x" reads "out-x" for a shorter command line. Text that is no key stays as it is.
 *
 * <p>Two deliberate differences from upstream: {@code $env{}} / {@code $cfg{}} are expanded even
 * when the text holds no '%' (upstream returns early and leaves them), and a substituted value
 * is never scanned again (upstream re-searches the whole string and can loop forever on a value
 * that contains its own key).
 */
public final class OutputKeys {
    public static final String DEFAULT_TIME_FORMAT = "%F_%H.%M";
    static final String TIME_FORMAT_SETTING = "ROCPROFSYS_TIME_FORMAT";

    private static final Pattern ENV_PERCENT = Pattern.compile("%(?:env|ENV)\\{([A-Z0-9_]+)}%");
    private static final Pattern ENV_DOLLAR = Pattern.compile("\\$(?:env|ENV)\\{([A-Z0-9_]+)}");
    private static final Pattern CFG_PERCENT = Pattern.compile("%(?:cfg|CFG)\\{([A-Z0-9_]+)}%");
    private static final Pattern CFG_DOLLAR = Pattern.compile("\\$(?:cfg|CFG)\\{([A-Z0-9_]+)}");
    private static final Pattern UNUSED_ARG = Pattern.compile("%arg[0-9]+(?:_hash)?%[-/_]*");

    private final LongToIntFunction siblingCounter;

    /** Keys whose {@code %psize%} counts the children of ppid in /proc. */
    public OutputKeys() {
        this(ProcFs.system()::countChildren);
    }

    /** @param siblingCounter number of processes whose parent is the given pid */
    public OutputKeys(LongToIntFunction siblingCounter) {
        this.siblingCounter = siblingCounter;
    }

    /** Every key in upstream's order with its value for {@code ctx}, for {@code --list-keys}. */
    public List<OutputKey> list(LaunchContext ctx) {
        return entries(ctx).stream()
                .map(e -> new OutputKey(e.key(), e.value().get(), e.description()))
                .toList();
    }

    public String expand(String template, LaunchContext ctx) {
        String s = canonical(template);
        if (s.indexOf('%') >= 0) {
            for (Entry e : entries(ctx)) {
                // values are computed only for keys present: %psize% scans /proc
                if (s.contains(e.key())) {
                    s = s.replace(e.key(), e.value().get());
                }
            }
        }
        s = substitute(s, ENV_PERCENT, name -> ctx.environment().getOrDefault(name, ""));
        s = substitute(s, ENV_DOLLAR, name -> ctx.environment().getOrDefault(name, ""));
        s = substitute(s, CFG_PERCENT, name -> setting(ctx, name));
        s = substitute(s, CFG_DOLLAR, name -> setting(ctx, name));
        return dropUnusedArgs(s);
    }

    /** As timemory's {@code filepath::canonical}: '\' becomes '/' and runs of '/' collapse. */
    static String canonical(String path) {
        String s = path.replace('\\', '/');
        while (s.contains("//")) {
            s = s.replace("//", "/");
        }
        return s;
    }

    private record Entry(String key, String description, Supplier<String> value) {}

    private List<Entry> entries(LaunchContext ctx) {
        String tag = ctx.tag();
        CommandLineStrings cmd = CommandLineStrings.of(ctx.argv(), tag);
        Supplier<String> argtHash = memo(() -> Md5.hex(cmd.argt()));

        List<Entry> hashable = new ArrayList<>();
        hashable.add(new Entry("%argv%", "Entire command-line condensed into a single string", cmd::argv));
        hashable.add(
                new Entry("%argt%", "Similar to `%argv%` except basename of first command line argument", cmd::argt));
        hashable.add(new Entry("%args%", "All command line arguments condensed into a single string", cmd::args));
        hashable.add(new Entry("%tag%", "Basename of first command line argument", () -> tag));
        for (int i = 0; i < cmd.words().size(); i++) {
            String word = cmd.words().get(i);
            hashable.add(new Entry("%arg" + i + "%", "Argument #" + i, () -> word));
        }

        List<Entry> all = new ArrayList<>(hashable);
        all.add(new Entry("%pid%", "Process identifier", () -> Long.toString(ctx.pid())));
        all.add(new Entry("%ppid%", "Parent process identifier", () -> Long.toString(ctx.ppid())));
        all.add(new Entry("%pgid%", "Process group identifier", () -> Long.toString(ctx.pgid())));
        all.add(new Entry("%psid%", "Process session identifier", () -> Long.toString(ctx.sid())));
        all.add(new Entry(
                "%psize%",
                "Number of sibling process", memo(() -> Integer.toString(siblingCounter.applyAsInt(ctx.ppid())))));
        all.add(new Entry("%job%", "SLURM_JOB_ID env variable", () -> job(ctx)));
        all.add(new Entry("%rank%", "MPI/UPC++ rank", () -> rank(ctx)));
        all.add(new Entry("%size%", "MPI/UPC++ size", () -> size(ctx)));
        all.add(new Entry("%nid%", "%rank% if possible, otherwise %pid%", () -> nid(ctx)));
        all.add(new Entry(
                "%launch_time%",
                "Data and/or time of run according to time format",
                () -> Strftime.format(timeFormat(ctx), ctx.launchTime())));

        // descriptions are upstream's, typos included, since --list-keys prints them
        all.add(new Entry("%m", "Shorthand for %argt_hash%", argtHash));
        all.add(new Entry("%p", "Shorthand for %pid%", () -> Long.toString(ctx.pid())));
        all.add(new Entry("%j", "Shorthand for %job%", () -> job(ctx)));
        all.add(new Entry("%r", "Shorthand for %rank%", () -> rank(ctx)));
        all.add(new Entry("%s", "Shorthand for %size", () -> size(ctx)));

        for (Entry e : hashable) {
            String key = e.key().substring(0, e.key().length() - 1) + "_hash%";
            Supplier<String> hash = e.key().equals("%argt%")
                    ? argtHash
                    : () -> Md5.hex(e.value().get());
            all.add(new Entry(key, "MD5 sum of " + e.key(), hash));
        }
        return all;
    }

    /** ROCPROFSYS_TIME_FORMAT from the settings, else timemory's default. */
    static String timeFormat(LaunchContext ctx) {
        return ctx.settings().apply(TIME_FORMAT_SETTING).orElse(DEFAULT_TIME_FORMAT);
    }

    private static String job(LaunchContext ctx) {
        return ctx.env("SLURM_JOB_ID").orElse("0");
    }

    /** The rank an MPI launcher hands its processes before MPI_Init runs. */
    private static Optional<String> mpiRank(LaunchContext ctx) {
        return ctx.env("OMPI_COMM_WORLD_RANK").or(() -> ctx.env("PMIX_RANK")).or(() -> ctx.env("PMI_RANK"));
    }

    private static String rank(LaunchContext ctx) {
        return ctx.env("SLURM_PROCID").or(() -> mpiRank(ctx)).orElse("0");
    }

    private static String size(LaunchContext ctx) {
        return ctx.env("OMPI_COMM_WORLD_SIZE").or(() -> ctx.env("PMI_SIZE")).orElse("1");
    }

    /** Upstream only trusts SLURM_PROCID when it is a number >= 0. */
    private static String nid(LaunchContext ctx) {
        Optional<String> slurm = ctx.env("SLURM_PROCID");
        if (slurm.isPresent() && nonNegativeInt(slurm.get())) {
            return slurm.get();
        }
        return mpiRank(ctx).orElse(Long.toString(ctx.pid()));
    }

    private static boolean nonNegativeInt(String s) {
        try {
            return Integer.parseInt(s.trim()) >= 0;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static String setting(LaunchContext ctx, String name) {
        return ctx.settings().apply(name).map(v -> v.replace(',', '-')).orElse("");
    }

    /** An unset variable or unknown setting expands to nothing, as upstream. */
    private static String substitute(String s, Pattern p, Function<String, String> lookup) {
        if (s.indexOf('{') < 0) {
            return s;
        }
        return p.matcher(s).replaceAll(m -> Matcher.quoteReplacement(lookup.apply(m.group(1))));
    }

    /** Repeated because removing one occurrence can join text into another. */
    private static String dropUnusedArgs(String s) {
        String prev;
        do {
            prev = s;
            s = UNUSED_ARG.matcher(s).replaceAll("");
        } while (!s.equals(prev));
        return s;
    }

    private static <T> Supplier<T> memo(Supplier<T> compute) {
        return new Supplier<>() {
            private T value;

            @Override
            public T get() {
                if (value == null) {
                    value = compute.get();
                }
                return value;
            }
        };
    }
}
