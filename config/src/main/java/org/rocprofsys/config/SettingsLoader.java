package org.rocprofsys.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.rocprofsys.config.file.ConfigFileContents;
import org.rocprofsys.config.file.ConfigFiles;

/**
 * Resolves settings from their sources with upstream's precedence: command line &gt; environment
 * &gt; config files &gt; defaults (inventory §2.5). Any bad key or value is a {@link ConfigException}
 * naming the source; nothing is half-applied.
 */
public final class SettingsLoader {
    private static final String CONFIG_FILE = "ROCPROFSYS_CONFIG_FILE";
    private static final Pattern ENV_KEY =
            Pattern.compile("%env\\{([A-Za-z_][A-Za-z0-9_]*)}%|\\$env\\{([A-Za-z_][A-Za-z0-9_]*)}");

    private final SettingsRegistry registry;
    private final Map<String, String> environment;
    private final Path workingDirectory;
    private final List<RawEntry> commandLine = new ArrayList<>();

    private final Map<String, SettingValue> values = new HashMap<>();
    /** Values given under deprecated or legacy names, applied to their target at the end. */
    private final Map<ValueSource, List<Alias>> aliases = new EnumMap<>(ValueSource.class);

    private final List<String> warnings = new ArrayList<>();
    private final Map<String, String> exported = new LinkedHashMap<>();
    private final List<Path> filesRead = new ArrayList<>();
    private final List<UnsupportedUse> unsupportedOptions = new ArrayList<>();
    private final Map<String, String> setByOption = new HashMap<>();

    private record Alias(SettingDefinition target, String value, String origin) {}

    public SettingsLoader(SettingsRegistry registry, Map<String, String> environment, Path workingDirectory) {
        this.registry = registry;
        this.environment = Map.copyOf(environment);
        this.workingDirectory = workingDirectory;
    }

    /** A value given on the command line; it beats every other source. */
    public SettingsLoader commandLine(String key, String value) {
        commandLine.add(new RawEntry(key, value, "command line"));
        return this;
    }

    /**
     * The environment variable {@code envName} was set by the tool's command-line option {@code
     * option} (rocprof-sys-run passes its options to the target as variables, as upstream does): its
     * messages name the option, not "environment".
     */
    public SettingsLoader setByOption(String envName, String option) {
        setByOption.put(envName, option);
        return this;
    }

    /**
     * A command-line option of the tool that has no effect in this build (one with no setting
     * behind it); it joins {@link Settings#unsupported()}.
     */
    public SettingsLoader unsupportedOption(String option, String value) {
        unsupportedOptions.add(new UnsupportedUse(option, value, "command line"));
        return this;
    }

    public Settings load() throws ConfigException {
        for (SettingDefinition d : registry.all()) {
            values.put(d.envName(), new SettingValue(d, d.defaultValue(), ValueSource.DEFAULT, "default"));
        }
        Defaults.applyDynamic(values, environment);

        // The sources that decide which config files to read and how strictly.
        List<RawEntry> envEntries = environmentEntries();
        Map<String, String> early = new HashMap<>();
        for (RawEntry e : envEntries) {
            early.put(e.key(), e.value());
        }
        for (RawEntry e : commandLine) {
            registry.find(e.key()).ifPresent(d -> early.put(d.envName(), e.value()));
        }
        boolean suppress = early.containsKey("ROCPROFSYS_SUPPRESS_CONFIG")
                && parseEarlyBool("ROCPROFSYS_SUPPRESS_CONFIG", early.get("ROCPROFSYS_SUPPRESS_CONFIG"));
        boolean strict = !early.containsKey("ROCPROFSYS_STRICT_CONFIG")
                || parseEarlyBool("ROCPROFSYS_STRICT_CONFIG", early.get("ROCPROFSYS_STRICT_CONFIG"));
        if (!suppress) {
            String list = early.get(CONFIG_FILE);
            boolean explicit = list != null && !list.isBlank();
            if (!explicit) {
                list = values.get(CONFIG_FILE).definition().defaultValue();
            }
            Set<Path> visited = new HashSet<>();
            for (String f : splitFileList(list)) {
                readConfigFile(
                        Path.of(f), explicit, strict, visited, explicit ? CONFIG_FILE : "default config file list");
            }
        }
        for (RawEntry e : envEntries) {
            apply(e, ValueSource.ENVIRON, true);
        }
        for (RawEntry e : commandLine) {
            apply(e, ValueSource.USER, true);
        }
        applyAliases();
        Defaults.applyCoupled(values);
        return new Settings(registry, values, warnings, exported, filesRead, unsupportedOptions);
    }

    private List<RawEntry> environmentEntries() {
        List<RawEntry> out = new ArrayList<>();
        for (SettingDefinition d : registry.all()) {
            String v = environment.get(d.envName());
            if (v != null) {
                String option = setByOption.get(d.envName());
                out.add(new RawEntry(d.envName(), v, option == null ? "environment" : "command line: " + option));
            }
        }
        // a typo in a config file is an error; the same typo in the environment cannot be (any program
        // may carry any variable), but it would otherwise be ignored without a word
        environment.keySet().stream()
                .filter(k -> k.startsWith(SettingDefinition.PREFIX))
                .filter(k -> registry.find(k).isEmpty() && !ToolVariables.known(k))
                .sorted()
                .forEach(k -> warnings.add(
                        "environment: unknown setting '" + k + "' ignored. Did you mean " + registry.nearest(k) + "?"));
        return out;
    }

    private boolean parseEarlyBool(String name, String value) throws ConfigException {
        try {
            return SettingType.parseBool(value);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("invalid value '" + value + "' for " + name + ": " + e.getMessage());
        }
    }

    private List<String> splitFileList(String list) {
        List<String> out = new ArrayList<>();
        for (String part : list.split("[;:]")) {
            String p = expandEnvKeys(part.strip());
            if (!p.isEmpty()) {
                out.add(p);
            }
        }
        return out;
    }

    private String expandEnvKeys(String s) {
        Matcher m = ENV_KEY.matcher(s);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String name = m.group(1) != null ? m.group(1) : m.group(2);
            m.appendReplacement(sb, Matcher.quoteReplacement(environment.getOrDefault(name, "")));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private void readConfigFile(Path file, boolean mustExist, boolean strict, Set<Path> visited, String listedBy)
            throws ConfigException {
        Path resolved = workingDirectory.resolve(file).normalize();
        if (!visited.add(resolved)) {
            return;
        }
        if (!Files.isRegularFile(resolved)) {
            if (mustExist) {
                throw new ConfigException("Error reading configuration file: " + file
                        + (Files.exists(resolved) ? " is not a regular file" : " does not exist")
                        + " (listed in " + listedBy + ")");
            }
            return;
        }
        ConfigFileContents contents = ConfigFiles.read(resolved, environment, this::currentValue);
        filesRead.add(resolved);
        contents.exported().forEach((k, v) -> {
            if (!environment.containsKey(k)) {
                exported.putIfAbsent(k, v);
            }
        });
        for (RawEntry e : contents.entries()) {
            Optional<SettingDefinition> def = registry.find(e.key());
            if (def.isPresent() && def.get().envName().equals(CONFIG_FILE)) {
                for (String nested : splitFileList(e.value())) {
                    Path p = Path.of(nested);
                    readConfigFile(
                            p.isAbsolute() ? p : resolved.getParent().resolve(p), true, strict, visited, e.origin());
                }
                continue;
            }
            if (def.isEmpty()) {
                unknownKey(e, strict);
                continue;
            }
            apply(e, ValueSource.CONFIG, strict);
        }
    }

    private void unknownKey(RawEntry e, boolean strict) throws ConfigException {
        if (strict) {
            throw new ConfigException(e.origin() + ": Unknown setting '" + e.key() + "' (value = '" + e.value()
                    + "'). Did you mean " + registry.nearest(e.key()) + "?");
        }
        if (e.key().startsWith(SettingDefinition.PREFIX)) {
            exported.putIfAbsent(e.key(), e.value());
            warnings.add(e.origin() + ": unknown setting '" + e.key() + "' exported to the environment as is"
                    + " (ROCPROFSYS_STRICT_CONFIG is off)");
        } else {
            warnings.add(e.origin() + ": unknown setting '" + e.key() + "' ignored (ROCPROFSYS_STRICT_CONFIG is off)");
        }
    }

    private void apply(RawEntry e, ValueSource source, boolean strict) throws ConfigException {
        Optional<SettingDefinition> found = registry.find(e.key());
        if (found.isEmpty()) {
            unknownKey(e, strict);
            return;
        }
        SettingDefinition def = found.get();
        String value = validate(def, e.value(), e.origin());
        if (def.aliasOf().isPresent()) {
            SettingDefinition target = registry.find(def.aliasOf().get()).orElseThrow();
            String kind = def.legacy() ? "is a legacy name" : "is deprecated";
            warnings.add(e.origin() + ": " + def.envName() + " " + kind + "; use " + target.envName() + " instead");
            aliases.computeIfAbsent(source, s -> new ArrayList<>())
                    .add(new Alias(target, validate(target, e.value(), e.origin()), e.origin()));
        } else if (def.legacy()) {
            warnings.add(
                    e.origin() + ": " + def.envName() + " is a legacy setting with no effect in this version; ignored");
            return;
        }
        values.put(def.envName(), new SettingValue(def, value, source, e.origin()));
    }

    /** A deprecated name sets its target only where no stronger source set the target itself. */
    private void applyAliases() {
        for (Map.Entry<ValueSource, List<Alias>> byRank : aliases.entrySet()) {
            for (Alias a : byRank.getValue()) {
                SettingValue current = values.get(a.target().envName());
                if (current.source().compareTo(byRank.getKey()) < 0) {
                    values.put(
                            a.target().envName(), new SettingValue(a.target(), a.value(), byRank.getKey(), a.origin()));
                }
            }
        }
    }

    private static String validate(SettingDefinition def, String raw, String origin) throws ConfigException {
        String value;
        try {
            value = def.type().normalize(raw);
        } catch (IllegalArgumentException ex) {
            throw new ConfigException(origin + ": invalid value '" + raw + "' for " + def.envName() + " ("
                    + def.type().displayName() + "): " + ex.getMessage());
        }
        if (!def.choices().isEmpty() && !value.isBlank()) {
            for (String token : value.split("[ ,;]+")) {
                if (!token.isEmpty() && !def.choices().contains(token)) {
                    throw new ConfigException(origin + ": invalid value '" + raw + "' for " + def.envName() + ": '"
                            + token + "' is not one of " + String.join(", ", def.choices()));
                }
            }
        }
        return value;
    }

    private Optional<String> currentValue(String name) {
        return registry.find(name).map(d -> values.get(d.envName()).value());
    }
}
