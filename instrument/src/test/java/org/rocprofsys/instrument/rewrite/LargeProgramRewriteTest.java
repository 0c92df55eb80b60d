package org.rocprofsys.instrument.rewrite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.instrument.area.Area;
import org.rocprofsys.instrument.area.AreaBuilder;
import org.rocprofsys.instrument.plan.InstrumentPlan;
import org.rocprofsys.instrument.plan.PlannedFunction;
import org.rocprofsys.instrument.select.SelectionOptions;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.ProcessResult;

/**
 * A large real program, planned whole and rewritten: Debian's {@code /usr/bin/node} (99 MB,
 * non-PIE, C++ with V8; about 55,000 functions instrumented). Opt-in, it takes a minute:
 * {@code mvn -pl instrument verify -Drocprofsys.largeTests=true -Dtest=LargeProgramRewriteTest}.
 * V8's embedded builtins ({@code Builtins_*}) are excluded: V8 copies that code elsewhere at run
 * time, where the entry jumps' rel32 would point nowhere.
 */
@EnabledIfSystemProperty(named = "rocprofsys.largeTests", matches = "true")
class LargeProgramRewriteTest {
    @TempDir
    Path tmp;

    @Test
    void nodeRunsIdentically() throws Exception {
        Path node = Path.of("/usr/bin/node");
        Assumptions.assumeTrue(Files.isExecutable(node), "no /usr/bin/node");
        long t0 = System.nanoTime();
        InstrumentPlan plan = TestPrograms.planned(
                node,
                SelectionOptions.builder()
                        .minInstructions(0)
                        .functionExclude("^Builtins_")
                        .build());
        List<PlannedFunction> fs = TestPrograms.withoutColdParts(plan);
        long t1 = System.nanoTime();
        Area area = AreaBuilder.build(fs, Map.of(), 0);
        long t2 = System.nanoTime();
        Path out = tmp.resolve("node");
        ElfRewriter.Result r = ElfRewriter.rewrite(node, out, area);
        long t3 = System.nanoTime();
        System.out.printf(
                "node: %d functions planned in %.1f s; area %d KiB in %.0f ms; rewrite %.0f ms%n",
                fs.size(), (t1 - t0) / 1e9, area.size() / 1024, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
        assertTrue(r.functions() > 10_000, "functions: " + r.functions());

        Files.writeString(tmp.resolve("t.js"), """
                let s = 0; for (let i = 0; i < 1e6; i++) s += i % 7;
                const m = new Map(); for (let i = 0; i < 1000; i++) m.set("k" + i, i * i);
                class A { constructor(x) { this.x = x; } get twice() { return this.x * 2; } }
                let t = 0; for (let i = 0; i < 1e5; i++) t += new A(i).twice;
                try { JSON.parse("{bad"); } catch (e) { console.log(e.name); }
                const re = /(\\w+)@(\\w+)\\.com/; console.log("a@b.com".replace(re, "$2 at $1"));
                Promise.resolve(5).then(v => console.log("promise", v));
                console.log(s, m.size, t, JSON.stringify({a: [1, 2, 3]}), [3, 1, 2].sort(), (1.5).toFixed(3));
                """);
        ProcessResult a = Command.of(node.toString(), "t.js").in(tmp).run();
        ProcessResult b = Command.of(out.toString(), "t.js").in(tmp).run();
        assertFalse(a.stdout().isEmpty());
        assertEquals(a.stdout(), b.stdout());
        assertEquals(a.exitCode(), b.exitCode(), b.stderr());
    }
}
