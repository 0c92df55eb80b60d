package org.rocprofsys.config.avail;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingValue;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.Version;
import org.rocprofsys.config.atomicfile.AtomicFile;
import org.rocprofsys.config.atomicfile.FileWriteException;
import org.rocprofsys.config.file.ConfigEntry;
import org.rocprofsys.config.file.ConfigFileFormat;
import org.rocprofsys.config.file.JsonConfigWriter;
import org.rocprofsys.config.file.TextConfigWriter;
import org.rocprofsys.config.file.XmlConfigWriter;
import org.rocprofsys.config.output.LaunchContext;
import org.rocprofsys.config.output.OutputKeys;

/** {@code rocprof-sys-avail -G}: writes the current settings as config files (inventory §2.4). */
final class ConfigGeneration {
    /** Upstream's ordering: these prefixes first, in this order, then the rest by name. */
    private static final List<String> PRIORITY = List.of(
            "ROCPROFSYS_CONFIG",
            "ROCPROFSYS_MODE",
            "ROCPROFSYS_TRACE",
            "ROCPROFSYS_PROFILE",
            "ROCPROFSYS_USE_SAMPLING",
            "ROCPROFSYS_USE_PROCESS_SAMPLING",
            "ROCPROFSYS_USE_ROCM",
            "ROCPROFSYS_USE_AMD_SMI",
            "ROCPROFSYS_USE_KOKKOSP",
            "ROCPROFSYS_USE_OMPT",
            "ROCPROFSYS_USE",
            "ROCPROFSYS_OUTPUT");

    private static final List<String> LAST = List.of("ROCPROFSYS_SUPPRESS_PARSING", "ROCPROFSYS_SUPPRESS_CONFIG");

    private final PrintStream out;
    private final PrintStream err;
    private final Path workingDirectory;
    private final boolean interactive;

    ConfigGeneration(PrintStream out, PrintStream err, Path workingDirectory, boolean interactive) {
        this.out = out;
        this.err = err;
        this.workingDirectory = workingDirectory;
        this.interactive = interactive;
    }

    void generate(Settings settings, AvailOptions o, LaunchContext context) throws ConfigException {
        List<ConfigEntry> entries = select(settings, o);
        String base = new OutputKeys().expand(o.generateConfig(), context);
        String textExtension = ".cfg";
        String lower = base.toLowerCase(Locale.ROOT);
        for (String ext : new String[] {".cfg", ".txt", ".json", ".xml"}) {
            if (lower.endsWith(ext)) {
                if (ext.equals(".txt")) {
                    textExtension = ".txt";
                }
                base = base.substring(0, base.length() - ext.length());
                break;
            }
        }
        boolean annotate = o.all() || o.description() || o.showCategories() || o.value();
        // Everything is rendered and every target checked before the first file is written.
        Map<Path, String> files = new LinkedHashMap<>();
        Map<Path, ConfigFileFormat> kinds = new LinkedHashMap<>();
        for (ConfigFileFormat f : o.configFormats()) {
            String ext = f == ConfigFileFormat.TEXT ? textExtension : f.extension();
            Path path = workingDirectory.resolve(base + ext).normalize();
            String content = switch (f) {
                case JSON -> JsonConfigWriter.write(entries, o.all());
                case XML -> XmlConfigWriter.write(entries, o.all());
                case TEXT -> TextConfigWriter.write(entries, Version.STRING, LocalDateTime.now(), annotate);
            };
            files.put(path, content);
            kinds.put(path, f);
        }
        for (Path p : files.keySet()) {
            if (Files.exists(p) && !o.force() && !confirmOverwrite(p)) {
                throw new ConfigException("'" + p + "' exists; use --force to overwrite it");
            }
        }
        for (Map.Entry<Path, String> e : files.entrySet()) {
            out.println("[" + AvailCommand.TOOL + "] Outputting "
                    + kinds.get(e.getKey()).label() + " configuration file '" + e.getKey() + "'...");
            try {
                Files.createDirectories(e.getKey().toAbsolutePath().getParent());
                AtomicFile.writeString(e.getKey(), e.getValue());
            } catch (FileWriteException ex) {
                throw new ConfigException(ex.getMessage());
            } catch (IOException ex) {
                throw new ConfigException("cannot write '" + e.getKey() + "': " + ex.getMessage());
            }
        }
    }

    private boolean confirmOverwrite(Path p) {
        if (!interactive) {
            return false;
        }
        err.print("[" + AvailCommand.TOOL + "] '" + p + "' exists. Overwrite? [y/N] ");
        err.flush();
        try {
            String answer = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
            return answer != null && answer.strip().toLowerCase(Locale.ROOT).startsWith("y");
        } catch (IOException e) {
            return false;
        }
    }

    static List<ConfigEntry> select(Settings settings, AvailOptions o) {
        List<ConfigEntry> entries = new ArrayList<>();
        for (SettingValue v : settings.all()) {
            SettingDefinition d = v.definition();
            boolean wanted =
                    !d.hidden() && !d.legacy() && !d.deprecated() && (!d.advanced() || o.advanced() || o.all());
            // a setting the user set explicitly is always kept, as upstream
            boolean explicit = v.isSet() && !d.legacy() && d.aliasOf().isEmpty();
            if (!(wanted || explicit)) {
                continue;
            }
            if (!o.categories().accepts(CategorySelection.SETTINGS, d.categories())
                    || !o.nameFilter().matches(d.envName())
                    || !o.categoryFilter().matchesAny(d.categories())) {
                continue;
            }
            String value = d.envName().equals("ROCPROFSYS_CONFIG_FILE") ? "" : v.value();
            entries.add(new ConfigEntry(v, value));
        }
        entries.sort(Comparator.comparing(
                        (ConfigEntry e) -> !e.setting().definition().inCategory("rocprofsys"))
                .thenComparing(e -> LAST.contains(e.setting().definition().envName()))
                .thenComparing(e -> priority(e.setting().definition().envName()))
                .thenComparing(e -> e.setting().definition().envName()));
        return entries;
    }

    private static int priority(String name) {
        for (int i = 0; i < PRIORITY.size(); i++) {
            if (name.startsWith(PRIORITY.get(i))) {
                return i;
            }
        }
        return PRIORITY.size();
    }
}
