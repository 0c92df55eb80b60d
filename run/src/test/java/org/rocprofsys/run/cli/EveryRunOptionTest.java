package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.ConfigException;
import org.rocprofsys.config.Settings;
import org.rocprofsys.config.SettingsLoader;
import org.rocprofsys.config.SettingsRegistry;
import org.rocprofsys.config.UnsupportedUse;

/**
 * Every rocprof-sys-run option, explicit and generated, given a value: whatever it sets must be
 * something this build reads or warns about (issue 11, "no silent no-ops"). A ROCPROFSYS_*
 * variable must be a registered setting, whose value the settings then either honour or name in
 * one "not supported yet" warning ({@code SettingsSupportTest} checks that rule for every
 * setting), or a variable rocprof-sys-run itself names as unsupported; any other variable must be
 * one of the few the target's loader or runtime reads. A new option that sets a variable nothing
 * reads fails here.
 */
class EveryRunOptionTest {
    /** Variables outside ROCPROFSYS_* that options set for the target's runtime, as upstream's do. */
    private static final Set<String> RUNTIME_VARIABLES = Set.of(
            "MONOCHROME",
            "LD_PRELOAD",
            "LD_LIBRARY_PATH",
            "OMP_TOOL_LIBRARIES",
            "KOKKOS_TOOLS_LIBS",
            "HSA_ENABLE_INTERRUPT");
    /** Values tried in turn where an option has no choices of its own: the first it accepts is used. */
    private static final List<String> CANDIDATES = List.of("3", "true", "sampling", "host", "system", "x");

    private final RunOptions table = RunOptions.standard();
    private final SettingsRegistry registry = SettingsRegistry.standard();

    @TempDir
    Path dir;

    @Test
    void everyOptionSetsOnlyWhatIsReadOrWarnedAbout() throws Exception {
        List<String> problems = new ArrayList<>();
        int checked = 0;
        Path config = java.nio.file.Files.writeString(dir.resolve("empty.cfg"), "");
        for (OptionDef o : table.options) {
            RunInvocation inv = null;
            List<String> args = List.of();
            String refusal = null;
            for (String candidate : o.dtype().equals("filepath") ? List.of(config.toString()) : CANDIDATES) {
                args = commandLine(o, candidate);
                try {
                    inv = RunArguments.parse(args.toArray(String[]::new), Map.of());
                    break;
                } catch (RunUsageException e) {
                    refusal = e.getMessage();
                }
            }
            if (inv == null) {
                problems.add(o.label() + " " + args + ": refused every value tried: " + refusal);
                continue;
            }
            checked++;
            Map<String, String> env = inv.environment();
            Settings settings;
            try {
                SettingsLoader loader = new SettingsLoader(registry, env, dir);
                inv.variablesSetByOptions().forEach(loader::setByOption);
                inv.unsupportedOptions().forEach(u -> loader.unsupportedOption(u.option(), u.value()));
                settings = loader.load();
            } catch (ConfigException e) {
                problems.add(o.label() + " " + args + ": its settings do not load: " + e.getMessage());
                continue;
            }
            // the option itself named in a warning: what it sets is known to have no effect
            boolean optionWarned =
                    settings.unsupported().stream().map(UnsupportedUse::name).anyMatch(o.names()::contains);
            for (Map.Entry<String, String> v : setVariables(inv, env).entrySet()) {
                String name = v.getKey();
                boolean read = name.startsWith("ROCPROFSYS_")
                        ? registry.find(name).isPresent()
                        : RUNTIME_VARIABLES.contains(name);
                if (!read && !optionWarned) {
                    problems.add(o.label() + " sets " + name + "=" + v.getValue() + ", which nothing reads");
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " options:\n" + String.join("\n", problems));
        }
        assertTrue(checked >= 100, checked + " options checked");
    }

    @Test
    void anOptionWhoseVariableNothingReadsIsWarnedAboutByName() throws Exception {
        OptionDef wait = table.byKey.get("process-wait");
        RunInvocation inv = RunArguments.parse(commandLine(wait, "3").toArray(String[]::new), Map.of());
        assertEquals(
                List.of("--process-wait"),
                inv.unsupportedOptions().stream()
                        .map(RunInvocation.UnsupportedOption::option)
                        .toList());
    }

    /**
     * The option's longest name with its values (the last of its choices, else {@code candidate}),
     * after one option it requires.
     */
    private List<String> commandLine(OptionDef o, String candidate) {
        List<String> args = new ArrayList<>();
        for (String required : o.requires()) {
            OptionDef r = table.byKey.get(required);
            if (r != null && !r.conflicts().contains(o.keys().getFirst())) {
                args.addAll(nameAndValues(r, "true"));
                break; // one of them satisfies upstream's "requires"
            }
        }
        args.addAll(nameAndValues(o, candidate));
        args.add("--");
        args.add("app");
        return args;
    }

    private static List<String> nameAndValues(OptionDef o, String candidate) {
        List<String> args = new ArrayList<>();
        args.add(o.names().getLast());
        int n = o.count() > 0 ? o.count() : Math.max(1, o.min());
        if (o.max() == 0) {
            return args;
        }
        for (int i = 0; i < n; i++) {
            args.add(o.choices().isEmpty() ? candidate : o.choices().getLast());
        }
        return args;
    }

    /** The variables the command gets that the empty inherited environment did not have. */
    private static Map<String, String> setVariables(RunInvocation inv, Map<String, String> env) {
        Map<String, String> out = new LinkedHashMap<>(env);
        inv.inheritedEnvironment().keySet().forEach(out::remove);
        return out;
    }
}
