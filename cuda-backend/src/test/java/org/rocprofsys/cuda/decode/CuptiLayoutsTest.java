package org.rocprofsys.cuda.decode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocprofsys.testkit.Command;
import org.rocprofsys.testkit.NativeCompiler;
import org.rocprofsys.testkit.ProcessResult;

/**
 * The decoder's CUPTI layouts against the real headers: src/test/c/cupti_layouts.c, compiled
 * with the toolkit's headers, prints each record's size and each field's offset and size; every
 * one must match, and every named field of a Java layout must be among them.
 */
class CuptiLayoutsTest {
    @TempDir
    Path build;

    @Test
    void layoutsMatchTheCuptiHeaders() throws Exception {
        Optional<Path> include = CuptiHeaders.includeDir();
        assumeTrue(include.isPresent(), "no CUPTI headers (cupti.h) under CUDA_HOME or /usr/local/cuda*");
        Path src = Path.of(System.getProperty("user.dir"), "src/test/c/cupti_layouts.c");
        Path exe = build.resolve("cupti_layouts");
        NativeCompiler.c().compile(src, exe, "-std=c11", "-Wall", "-Werror", "-I" + include.get());
        ProcessResult layouts = Command.of(exe.toString()).run();
        assertEquals(0, layouts.exitCode(), layouts::toString);
        String log = layouts.all();
        Map<String, long[]> c = new LinkedHashMap<>();
        Map<String, Long> sizes = new LinkedHashMap<>();
        for (String line : layouts.stdout().lines().toList()) {
            String[] w = line.split(" ");
            if (w[1].equals("size")) {
                sizes.put(w[0], Long.parseLong(w[2]));
            } else {
                c.put(w[0], new long[] {Long.parseLong(w[1]), Long.parseLong(w[2])});
            }
        }
        Map<String, StructLayout> all = new LinkedHashMap<>(CuptiLayouts.ALL);
        ApiParams.BY_FUNCTION.values().forEach(p -> all.put(p.layout().name().orElseThrow(), p.layout()));
        assertEquals(all.keySet(), sizes.keySet(), log);
        int checked = 0;
        for (Map.Entry<String, StructLayout> e : all.entrySet()) {
            StructLayout l = e.getValue();
            assertEquals(sizes.get(e.getKey()), l.byteSize(), e.getKey() + " size");
            Set<String> javaFields = new HashSet<>();
            for (MemoryLayout m : l.memberLayouts()) {
                if (!(m instanceof PaddingLayout)) {
                    javaFields.add(m.name().orElseThrow());
                }
            }
            Set<String> cFields = new HashSet<>();
            for (Map.Entry<String, long[]> f : c.entrySet()) {
                if (!f.getKey().startsWith(e.getKey() + ".")) {
                    continue;
                }
                String field = f.getKey().substring(e.getKey().length() + 1);
                cFields.add(field);
                assertTrue(javaFields.contains(field), e.getKey() + " lacks " + field);
                assertEquals(f.getValue()[0], l.byteOffset(PathElement.groupElement(field)), f.getKey() + " offset");
                assertEquals(
                        f.getValue()[1],
                        l.select(PathElement.groupElement(field)).byteSize(),
                        f.getKey() + " size");
                checked++;
            }
            assertEquals(cFields, javaFields, e.getKey() + ": every field checked");
        }
        assertEquals(c.size(), checked);
    }
}
