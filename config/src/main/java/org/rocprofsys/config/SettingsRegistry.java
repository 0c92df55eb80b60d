package org.rocprofsys.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The full registry of rocprof-sys settings, read from {@code settings.tsv} beside this class.
 *
 * <p>The table keeps the data (names, types, defaults, categories, choices, descriptions) apart
 * from the code; its header documents the columns.
 */
public final class SettingsRegistry {
    private static final String RESOURCE = "settings.tsv";

    private final Map<String, SettingDefinition> byEnvName;

    private SettingsRegistry(Map<String, SettingDefinition> byEnvName) {
        this.byEnvName = byEnvName;
    }

    /** The registry shipped with this build. */
    public static SettingsRegistry standard() {
        return Holder.STANDARD;
    }

    private static final class Holder {
        static final SettingsRegistry STANDARD = load();
    }

    private static SettingsRegistry load() {
        try (InputStream in = SettingsRegistry.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the table with {@code indexOf} and {@code substring} alone, no reader, regex split or
     * stream: it runs once per run, before the command line is read, still in the interpreter,
     * where the line reader, splits and streams of its first version took 40-80 ms of a 2-core
     * machine's start-up.
     */
    static SettingsRegistry parse(String text) {
        Map<String, SettingDefinition> map = new LinkedHashMap<>();
        String[] f = new String[COLUMNS];
        int lineNo = 0;
        for (int start = 0, end; start < text.length(); start = end + 1) {
            end = text.indexOf('\n', start);
            if (end < 0) {
                end = text.length();
            }
            lineNo++;
            int stop = end > start && text.charAt(end - 1) == '\r' ? end - 1 : end;
            if (blankOrComment(text, start, stop)) {
                continue;
            }
            int columns = split(text, start, stop, f);
            if (columns != COLUMNS) {
                throw new IllegalStateException(
                        RESOURCE + ":" + lineNo + ": expected 7 tab-separated columns, found " + columns);
            }
            String env = f[0];
            if (!env.startsWith(SettingDefinition.PREFIX)) {
                throw new IllegalStateException(RESOURCE + ":" + lineNo + ": name must start with ROCPROFSYS_: " + env);
            }
            boolean hidden = false;
            boolean legacy = false;
            String alias = null;
            SettingSupport support = new SettingSupport.NotYet();
            for (String flag : splitList(f[5])) {
                if (flag.equals("hidden")) {
                    hidden = true;
                } else if (flag.equals("legacy")) {
                    legacy = true;
                } else if (flag.equals("honoured")) {
                    support = new SettingSupport.Honoured();
                } else if (flag.startsWith("honoured=")) {
                    support = new SettingSupport.HonouredValues(
                            Set.of(flag.substring("honoured=".length()).split("\\|")));
                } else if (flag.startsWith("alias=")) {
                    alias = flag.substring("alias=".length());
                } else {
                    throw new IllegalStateException(RESOURCE + ":" + lineNo + ": unknown flag " + flag);
                }
            }
            SettingDefinition def = new SettingDefinition(
                    env,
                    SettingType.fromDisplayName(f[1]),
                    f[2],
                    Collections.unmodifiableSortedSet(new TreeSet<>(splitList(f[3]))),
                    List.copyOf(splitList(f[4])),
                    hidden,
                    Optional.ofNullable(alias),
                    legacy,
                    f[6],
                    support);
            if (map.put(env, def) != null) {
                throw new IllegalStateException(RESOURCE + ":" + lineNo + ": duplicate setting " + env);
            }
        }
        for (SettingDefinition d : map.values()) {
            if (d.aliasOf().isPresent() && !map.containsKey(d.aliasOf().get())) {
                throw new IllegalStateException(
                        d.envName() + " is an alias of unknown " + d.aliasOf().get());
            }
        }
        return new SettingsRegistry(Collections.unmodifiableMap(map));
    }

    private static final int COLUMNS = 7;

    /** Whether text[start, stop) is blank or starts with '#'. */
    private static boolean blankOrComment(String text, int start, int stop) {
        for (int i = start; i < stop; i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '#';
            }
        }
        return true;
    }

    /**
     * Splits text[start, stop) at its tabs into {@code fields} (as many as fit) and returns how
     * many columns the line has.
     */
    private static int split(String text, int start, int stop, String[] fields) {
        int n = 0;
        int from = start;
        while (true) {
            int tab = text.indexOf('\t', from, stop);
            int to = tab < 0 ? stop : tab;
            if (n < fields.length) {
                fields[n] = text.substring(from, to);
            }
            n++;
            if (tab < 0) {
                return n;
            }
            from = tab + 1;
        }
    }

    /** A comma-separated list, each item stripped, empty items left out. */
    private static List<String> splitList(String field) {
        List<String> out = new ArrayList<>(4);
        for (int from = 0; from <= field.length(); ) {
            int comma = field.indexOf(',', from);
            int to = comma < 0 ? field.length() : comma;
            String item = field.substring(from, to).strip();
            if (!item.isEmpty()) {
                out.add(item);
            }
            if (comma < 0) {
                break;
            }
            from = comma + 1;
        }
        return out;
    }

    /** Every definition, in table order. */
    public List<SettingDefinition> all() {
        return List.copyOf(byEnvName.values());
    }

    /** The settings rocprof-sys lists: neither legacy nor hidden. */
    public List<SettingDefinition> listed() {
        return byEnvName.values().stream()
                .filter(d -> !d.legacy() && !d.hidden())
                .toList();
    }

    /**
     * Finds a setting by its environment name ({@code ROCPROFSYS_TRACE}) or short name
     * ({@code trace}), as config files may use either.
     */
    public Optional<SettingDefinition> find(String key) {
        String k = key.strip();
        SettingDefinition d = byEnvName.get(k);
        if (d == null) {
            d = byEnvName.get(SettingDefinition.PREFIX + k.toUpperCase(Locale.ROOT));
            if (d != null && !k.equals(d.name()) && !k.toUpperCase(Locale.ROOT).equals(k)) {
                d = null;
            }
        }
        return Optional.ofNullable(d);
    }

    /** The listed setting whose name is closest to {@code key}, for "did you mean" messages. */
    public String nearest(String key) {
        String k = key.strip().toUpperCase(Locale.ROOT);
        if (!k.startsWith(SettingDefinition.PREFIX)) {
            k = SettingDefinition.PREFIX + k;
        }
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (SettingDefinition d : byEnvName.values()) {
            if (d.legacy()) {
                continue;
            }
            int dist = editDistance(k, d.envName());
            if (dist < bestDistance) {
                bestDistance = dist;
                best = d.envName();
            }
        }
        return best;
    }

    static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    /** Every category used by some listed setting. */
    public List<String> categories() {
        TreeSet<String> all = new TreeSet<>();
        listed().forEach(d -> all.addAll(d.categories()));
        return new ArrayList<>(all);
    }
}
