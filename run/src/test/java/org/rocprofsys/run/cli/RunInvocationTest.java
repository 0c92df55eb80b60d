package org.rocprofsys.run.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Environment update semantics, the printed variable list and the effective verbosity. */
class RunInvocationTest {

    private static Map<String, String> apply(Map<String, String> inherited, EnvUpdate... updates) {
        return EnvUpdate.applyAll(inherited, List.of(updates));
    }

    private static RunInvocation invocation(Map<String, String> inherited, int verbose, EnvUpdate... updates) {
        return new RunInvocation(
                RunInvocation.Request.EXECUTE,
                List.of("app"),
                List.of(updates),
                inherited,
                false,
                verbose,
                false,
                Optional.empty(),
                List.of(),
                Map.of());
    }

    @Test
    void replace() {
        assertEquals(Map.of("A", "2"), apply(Map.of("A", "1"), EnvUpdate.replace("A", "2")));
        assertEquals(Map.of("A", "1", "B", "x"), apply(Map.of("A", "1"), EnvUpdate.replace("B", "x")));
    }

    @Test
    void weakKeepsAValueChangedFromTheInheritedOne() {
        assertEquals(Map.of("A", "w"), apply(Map.of(), EnvUpdate.weak("A", "w")));
        assertEquals(Map.of("A", "w"), apply(Map.of("A", "inherited"), EnvUpdate.weak("A", "w")));
        assertEquals(
                Map.of("A", "r"),
                apply(Map.of("A", "inherited"), EnvUpdate.replace("A", "r"), EnvUpdate.weak("A", "w")));
        assertEquals(Map.of("A", "r"), apply(Map.of(), EnvUpdate.replace("A", "r"), EnvUpdate.weak("A", "w")));
        // set back to the inherited value counts as unchanged, as upstream compares NAME=value strings
        assertEquals(Map.of("A", "w"), apply(Map.of("A", "i"), EnvUpdate.replace("A", "i"), EnvUpdate.weak("A", "w")));
        // the inherited map is never changed
        Map<String, String> inherited = new HashMap<>(Map.of("A", "1"));
        apply(inherited, EnvUpdate.replace("A", "2"));
        assertEquals(Map.of("A", "1"), inherited);
    }

    @Test
    void prependAndAppendJoinWithColonAndDedupe() {
        assertEquals(Map.of("P", "new"), apply(Map.of(), EnvUpdate.prepend("P", "new")));
        assertEquals(Map.of("P", "new:old"), apply(Map.of("P", "old"), EnvUpdate.prepend("P", "new")));
        assertEquals(Map.of("P", "old:new"), apply(Map.of("P", "old"), EnvUpdate.append("P", "new")));
        assertEquals(Map.of("P", "a:new:b"), apply(Map.of("P", "a:new:b"), EnvUpdate.prepend("P", "new")));
        assertEquals(Map.of("P", "a:new:b"), apply(Map.of("P", "a:new:b"), EnvUpdate.append("P", "new")));
        assertEquals(
                Map.of("P", "old:new"),
                apply(Map.of("P", "old"), EnvUpdate.append("P", "new"), EnvUpdate.append("P", "new")));
    }

    @Test
    void removeRestoresTheInheritedValue() {
        assertEquals(Map.of(), apply(Map.of(), EnvUpdate.prepend("O", "lib.so"), EnvUpdate.remove("O")));
        assertEquals(
                Map.of("O", "tool.so"),
                apply(Map.of("O", "tool.so"), EnvUpdate.prepend("O", "lib.so"), EnvUpdate.remove("O")));
    }

    @Test
    void reportListsUpdatedVariablesSorted() {
        RunInvocation inv = invocation(
                Map.of("ROCPROFSYS_OTHER", "1", "HOME", "/h"),
                0,
                EnvUpdate.replace("ROCPROFSYS_TRACE", "true"),
                EnvUpdate.replace("MONOCHROME", "1"),
                EnvUpdate.remove("OMP_TOOL_LIBRARIES"));
        assertEquals(List.of("MONOCHROME=1", "ROCPROFSYS_TRACE=true"), inv.reportLines());
    }

    @Test
    void reportAtVerboseOneListsOtherRocprofsysVariablesFirst() {
        RunInvocation inv = invocation(
                Map.of("ROCPROFSYS_B", "1", "ROCPROFSYS_A", "2", "HOME", "/h"),
                1,
                EnvUpdate.replace("ROCPROFSYS_TRACE", "true"));
        assertEquals(List.of("ROCPROFSYS_A=2", "ROCPROFSYS_B=1", "ROCPROFSYS_TRACE=true"), inv.reportLines());
    }

    @Test
    void reportCountsEntriesStartingWithAnUpdatedNameAsUpdated() {
        RunInvocation inv =
                invocation(Map.of("ROCPROFSYS_TRACE_DELAY", "5"), 0, EnvUpdate.replace("ROCPROFSYS_TRACE", "true"));
        assertEquals(List.of("ROCPROFSYS_TRACE=true", "ROCPROFSYS_TRACE_DELAY=5"), inv.reportLines());
    }

    @Test
    void reportIncludesWeakUpdatesThatChangedNothing() {
        RunInvocation inv = invocation(
                Map.of(),
                0,
                EnvUpdate.replace("ROCPROFSYS_TRACE_DELAY", "1"),
                EnvUpdate.weak("ROCPROFSYS_TRACE_DELAY", "2"));
        assertEquals(List.of("ROCPROFSYS_TRACE_DELAY=1"), inv.reportLines());
    }

    @Test
    void reportIncludesTheLaunchersOwnUpdates() {
        RunInvocation inv = invocation(Map.of("LD_PRELOAD", "/a.so"), 0, EnvUpdate.replace("ROCPROFSYS_TRACE", "true"))
                .withAdditionalUpdates(List.of(EnvUpdate.append("LD_PRELOAD", "/lib/librocprof-sys-dl.so")));
        assertEquals(List.of("LD_PRELOAD=/a.so:/lib/librocprof-sys-dl.so", "ROCPROFSYS_TRACE=true"), inv.reportLines());
        RunInvocation plain = invocation(Map.of(), 0, EnvUpdate.replace("ROCPROFSYS_TRACE", "true"));
        Map<String, String> finalEnv = new HashMap<>(plain.environment());
        finalEnv.put("LD_PRELOAD", "/x.so");
        assertEquals(
                List.of("LD_PRELOAD=/x.so", "ROCPROFSYS_TRACE=true"),
                plain.reportLines(finalEnv, List.of("LD_PRELOAD")));
    }

    @Test
    void initialUpdatesComeBeforeTheOptions() throws Exception {
        RunInvocation inv = RunArguments.parse(new String[] {"-E", "ompt", "--", "app"}, Map.of())
                .withInitialUpdates(List.of(
                        EnvUpdate.prepend("OMP_TOOL_LIBRARIES", "/lib/librocprof-sys-dl.so"),
                        EnvUpdate.replace("ROCPROFSYS_SCRIPT_PATH", "/libexec/rocprofiler-systems")));
        Map<String, String> env = inv.environment();
        assertEquals(null, env.get("OMP_TOOL_LIBRARIES"));
        assertEquals("/libexec/rocprofiler-systems", env.get("ROCPROFSYS_SCRIPT_PATH"));
        assertEquals(EnvUpdate.Mode.PREPEND, inv.updates().get(0).mode());
    }

    @Test
    void negativeVerbosityPrintsNothing() {
        RunInvocation inv =
                invocation(Map.of("ROCPROFSYS_VERBOSE", "-1"), 3, EnvUpdate.replace("ROCPROFSYS_TRACE", "true"));
        assertEquals(-1, inv.effectiveVerbosity());
        assertEquals(List.of(), inv.reportLines());
    }

    @Test
    void effectiveVerbosityPrefersTheInheritedEnvironment() {
        assertEquals(2, invocation(Map.of(), 2).effectiveVerbosity());
        assertEquals(0, invocation(Map.of("ROCPROFSYS_VERBOSE", "0"), 2).effectiveVerbosity());
        assertEquals(
                3,
                invocation(Map.of("ROCPROFSYS_VERBOSE", "0", "ROCPROFSYS_CAUSAL_VERBOSE", "3"), 2)
                        .effectiveVerbosity());
        assertEquals(9, invocation(Map.of("ROCPROFSYS_DEBUG", "ON"), 1).effectiveVerbosity());
        assertEquals(
                1,
                invocation(Map.of("ROCPROFSYS_DEBUG", "ON", "ROCPROFSYS_CAUSAL_DEBUG", "0"), 1)
                        .effectiveVerbosity());
    }

    @Test
    void parsedInvocationCarriesTheInheritedEnvironment() throws Exception {
        RunInvocation inv = RunArguments.parse(new String[] {"-T", "--", "app"}, Map.of("HOME", "/h"));
        assertEquals(Map.of("HOME", "/h", "ROCPROFSYS_TRACE", "true"), inv.environment());
        assertEquals(List.of("ROCPROFSYS_TRACE=true"), inv.reportLines());
        assertTrue(inv.updatedNames().contains("ROCPROFSYS_TRACE"));
    }
}
