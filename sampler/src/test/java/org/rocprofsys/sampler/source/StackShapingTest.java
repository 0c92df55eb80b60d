package org.rocprofsys.sampler.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rocprofsys.core.event.StackFrame;
import org.rocprofsys.sampler.symbols.ProcessMaps;

class StackShapingTest {
    private static StackFrame f(String name) {
        return new StackFrame(name, "/app", 0, null, 0);
    }

    @Test
    void stacksStartAtMain() {
        assertEquals(
                List.of(f("main"), f("work")),
                StackFilter.fromMain(List.of(f("_start"), f("__libc_start_main"), f("main"), f("work"))));
        List<StackFrame> thread = List.of(f("start_thread"), f("worker"));
        assertEquals(thread, StackFilter.fromMain(thread));
    }

    private static StackFrame agent(String name) {
        return new StackFrame(name, "/opt/rocprof-sys/lib/librocprof-sys.so", 0, null, 0);
    }

    @Test
    void theAgentsFramesGoUnlessInternalFramesAreKept() {
        // a main that tail-called on (python's): the stack starts below the agent's main wrapper
        List<StackFrame> py = List.of(
                f("_start"), f("__libc_start_main"), agent("rsys_main_wrapper"), f("Py_BytesMain"), f("pymain_run"));
        assertEquals(List.of(f("Py_BytesMain"), f("pymain_run")), StackFilter.trim(py, false));
        assertEquals(py, StackFilter.trim(py, true));
        List<StackFrame> withMain =
                List.of(f("_start"), agent("rsys_main_wrapper"), f("main"), agent("hook"), f("work"));
        assertEquals(List.of(f("main"), f("work")), StackFilter.trim(withMain, false));
        // a thread without main (a fork child's): all of it, less the agent's pthread_join wrapper
        List<StackFrame> worker = List.of(
                f("clone3"), f("start_thread"), f("launch"), agent("pthread_join"), f("__pthread_clockjoin_ex"));
        assertEquals(
                List.of(f("clone3"), f("start_thread"), f("launch"), f("__pthread_clockjoin_ex")),
                StackFilter.trim(worker, false));
        // SAMPLING_KEEP_INTERNAL shows the agent's frames, its main wrapper included
        assertEquals(
                List.of(agent("rsys_main_wrapper"), f("main"), agent("hook"), f("work")),
                StackFilter.trim(withMain, true));
    }

    @Test
    void procMapsLinesBecomeMappings() {
        ProcessMaps.Mapping m = ProcMapsSeed.parse(
                "7f1c2a000000-7f1c2a1a0000 r-xp 00028000 fd:01 1315 /usr/lib/x86_64-linux-gnu/libc.so.6");
        assertEquals(0x7f1c2a000000L, m.start());
        assertEquals(0x7f1c2a1a0000L, m.end());
        assertEquals(0x28000, m.pgoff());
        assertEquals("/usr/lib/x86_64-linux-gnu/libc.so.6", m.path());
        assertEquals(0xfd, m.major());
        assertEquals(5, m.prot());
        assertTrue(m.executable());
        assertEquals(
                "[vdso]",
                ProcMapsSeed.parse("7ffd1000-7ffd3000 r-xp 00000000 00:00 0  [vdso]")
                        .path());
        assertNull(ProcMapsSeed.parse("55d0c000-55d2d000 rw-p 00000000 00:00 0 [heap]"));
        assertNull(ProcMapsSeed.parse("7f00-7f10 rw-p 00000000 00:00 0"));
    }
}
