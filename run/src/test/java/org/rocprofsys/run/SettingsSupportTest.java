package org.rocprofsys.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.config.SettingDefinition;
import org.rocprofsys.config.SettingSupport;
import org.rocprofsys.config.SettingType;
import org.rocprofsys.config.SettingsRegistry;

/**
 * Issue 11 item 5: every setting, set to a non-default value, is either honoured or named by one
 * "not supported yet" warning of rocprof-sys-run's warning stage. A setting the registry marks
 * honoured must have code that reads it outside the option tables.
 */
class SettingsSupportTest {
    private static final Path REPO = Path.of(System.getProperty("rocprofsys.repo", ".."))
            .toAbsolutePath()
            .normalize();

    private static final SettingsRegistry REGISTRY = SettingsRegistry.standard();
    /** Files that only map options or write configs: naming a setting there is not honouring it. */
    private static final List<String> NOT_READERS = List.of(
            "run/cli/RunOptions.java",
            "config/avail/",
            "config/SettingsRegistry.java",
            "config/SettingDefinition.java",
            "config/file/",
            "benchmarks/");

    private static String mainSources;

    @TempDir
    Path cwd;

    @BeforeAll
    static void readMainSources() throws IOException {
        Path repo = REPO;
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.walk(repo)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")
                            && p.toString().contains("/src/main/java/")
                            && !p.toString().contains("/target/"))
                    .toList()) {
                String rel = f.toString().replace('\\', '/');
                if (NOT_READERS.stream().noneMatch(rel::contains)) {
                    sb.append(Files.readString(f)).append('\n');
                }
            }
        }
        mainSources = sb.toString();
    }

    /** A valid value other than the default: another choice, the other boolean, a number one higher, a word. */
    private Optional<String> nonDefault(SettingDefinition d, boolean honoured) {
        String def = d.defaultValue().strip();
        if (d.envName().equals("ROCPROFSYS_CONFIG_FILE")) {
            try {
                return Optional.of(
                        Files.writeString(cwd.resolve("empty.cfg"), "").toString());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        if (!d.choices().isEmpty()) {
            return d.choices().stream()
                    .filter(c -> !c.equals(def) && d.support().honours(c) == honoured)
                    .findFirst();
        }
        if (!honoured) {
            // a setting honoured for every value has no unhonoured one; only HonouredValues settings have both
            if (d.support() instanceof SettingSupport.Honoured) {
                return Optional.empty();
            }
        }
        String v = switch (d.type()) {
            case BOOL -> Boolean.toString(!SettingType.parseBool(def));
            case STRING -> def.isEmpty() ? "0" : def + "-other";
            case UINT16 ->
                def.equals("65535")
                        ? "65534"
                        : new BigDecimal(def).add(BigDecimal.ONE).toPlainString();
            case DOUBLE -> new BigDecimal(def).add(new BigDecimal("1.5")).toPlainString();
            default -> new BigDecimal(def.replace("+", "")).add(BigDecimal.ONE).toPlainString();
        };
        return d.support().honours(v) == honoured ? Optional.of(v) : Optional.empty();
    }

    /** rocprof-sys-run's stderr up to its launch, with one setting in the environment. */
    private String runStderr(Map<String, String> env) throws InterruptedException {
        Ran r = runCommand(env, "--", "/nonexistent/cmd");
        assertTrue(r.rc() != 0, r.stderr());
        return r.stderr();
    }

    /** What {@link #runCommand} gives back: the exit code and stderr. */
    private record Ran(int rc, String stderr) {}

    /**
     * rocprof-sys-run with these arguments, {@code env} plus HOME; no lib/ under the prefix, so a
     * run stops with "agent library missing" right after the warning stage.
     */
    private Ran runCommand(Map<String, String> env, String... args) throws InterruptedException {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Map<String, String> all = new HashMap<>(env);
        all.put("HOME", cwd.toString());
        int rc = new RunCommand(
                        cwd.resolve("no-prefix"),
                        all,
                        cwd,
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .run(args);
        return new Ran(rc, err.toString(StandardCharsets.UTF_8));
    }

    private static long warningsNaming(String stderr, String name) {
        Pattern p = Pattern.compile("^\\[rocprof-sys-run\\] warning: " + Pattern.quote(name)
                + "=.* is not supported yet and has no effect$");
        return stderr.lines().filter(l -> p.matcher(l).matches()).count();
    }

    @Test
    void everySettingIsHonouredOrWarnedAbout() throws Exception {
        List<String> checked = new ArrayList<>();
        for (SettingDefinition d : REGISTRY.all()) {
            for (boolean honoured : new boolean[] {true, false}) {
                Optional<String> value = nonDefault(d, honoured);
                if (value.isEmpty()) {
                    continue;
                }
                Map<String, String> env = new HashMap<>();
                env.put(d.envName(), value.get());
                String stderr = runStderr(env);
                String target = d.aliasOf().orElse(d.envName());
                SettingDefinition effective = REGISTRY.find(target).orElseThrow();
                String what = d.envName() + "=" + value.get() + "\n" + stderr;
                assertFalse(stderr.contains("] error: invalid value"), what);
                if (d.legacy() && d.aliasOf().isEmpty()) {
                    assertTrue(stderr.contains(d.envName() + " is a legacy setting with no effect"), what);
                } else if (effective.support().honours(value.get())) {
                    assertEquals(0, warningsNaming(stderr, target), what);
                } else {
                    assertEquals(1, warningsNaming(stderr, target), what);
                }
                checked.add(d.envName());
            }
        }
        // every setting got at least one non-default value
        for (SettingDefinition d : REGISTRY.all()) {
            assertTrue(checked.contains(d.envName()), d.envName());
        }
    }

    @Test
    void defaultsAndDefaultValuesGiveNoWarning() throws Exception {
        assertFalse(runStderr(Map.of()).contains("not supported yet"));
        // a config written by rocprof-sys-avail -G sets every setting to its default: nothing to warn about
        Map<String, String> env = new HashMap<>();
        for (SettingDefinition d : REGISTRY.all()) {
            if (!d.legacy() && d.aliasOf().isEmpty() && !d.envName().equals("ROCPROFSYS_CONFIG_FILE")) {
                env.put(d.envName(), d.defaultValue());
            }
        }
        String stderr = runStderr(env);
        assertFalse(stderr.contains("not supported yet"), stderr);
    }

    @Test
    void honouredSettingsAreReadByCode() {
        for (SettingDefinition d : REGISTRY.all()) {
            boolean allValues = d.support() instanceof SettingSupport.Honoured;
            boolean someOn = d.support() instanceof SettingSupport.HonouredValues hv
                    && hv.values().stream().anyMatch(v -> !v.equals("false") && !v.equals("inprocess"))
                    && !d.envName().equals("ROCPROFSYS_MONOCHROME");
            if (allValues || someOn) {
                assertTrue(
                        mainSources.contains("\"" + d.envName() + "\""),
                        d.envName() + " is marked honoured but no code outside the option tables reads it");
            }
        }
    }

    @Test
    void optionsWithoutEffectAreWarnedAbout() throws Exception {
        Ran ran = runCommand(
                Map.of(),
                "--process-wait",
                "2",
                "--trace-buffer-size",
                "100",
                "--trace-fill-policy",
                "ring_buffer",
                "--trace-clock-id",
                "monotonic",
                "--profile-diff",
                "/tmp/old",
                "--perfetto-backend",
                "system",
                "--use-temporary-files",
                "false",
                "--",
                "/nonexistent/cmd");
        int rc = ran.rc();
        String stderr = ran.stderr();
        assertTrue(rc != 0, stderr);
        assertTrue(
                stderr.contains("[rocprof-sys-run] warning: --process-wait 2 (command line) is not supported yet"),
                stderr);
        // --trace-buffer-size and --trace-fill-policy are honoured (TraceBudget): no warning
        for (String s : List.of("ROCPROFSYS_PERFETTO_BUFFER_SIZE_KB", "ROCPROFSYS_PERFETTO_FILL_POLICY")) {
            assertEquals(0, warningsNaming(stderr, s), s + "\n" + stderr);
        }
        for (String s : List.of(
                "ROCPROFSYS_TRACE_PERIOD_CLOCK_ID",
                "ROCPROFSYS_DIFF_OUTPUT",
                "ROCPROFSYS_INPUT_PATH",
                "ROCPROFSYS_PERFETTO_BACKEND",
                "ROCPROFSYS_USE_TEMPORARY_FILES")) {
            assertEquals(1, warningsNaming(stderr, s), s + "\n" + stderr);
        }
    }

    /** The settings named in the first column of one table of docs/settings-support.md. */
    private static java.util.Set<String> documented(String heading) throws IOException {
        java.util.Set<String> out = new java.util.TreeSet<>();
        boolean in = false;
        for (String line : Files.readAllLines(REPO.resolve("docs/settings-support.md"))) {
            if (line.startsWith("## ")) {
                in = line.equals("## " + heading);
            } else if (in && line.startsWith("| `ROCPROFSYS_")) {
                out.add(line.substring(3, line.indexOf('`', 3)));
            }
        }
        return out;
    }

    @Test
    void theDocsListExactlyTheHonouredSettings() throws IOException {
        java.util.Set<String> all = new java.util.TreeSet<>();
        java.util.Set<String> some = new java.util.TreeSet<>();
        for (SettingDefinition d : REGISTRY.all()) {
            switch (d.support()) {
                case SettingSupport.Honoured h -> all.add(d.envName());
                case SettingSupport.HonouredValues v -> some.add(d.envName());
                case SettingSupport.NotYet n -> {}
            }
        }
        assertEquals(all, documented("Honoured settings"));
        assertEquals(some, documented("Honoured for some values"));
    }
}
