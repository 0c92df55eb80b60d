package org.rocprofsys.sampler.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.rocprofsys.ffm.LibC;

/**
 * The launch flow against a real program: a shell shim waits on stdin, the events are opened on
 * it with enable_on_exec, the shim is released and execs the CPU-bound test program (main thread
 * plus 2 threads), the rings are drained until it ends.
 */
class PerfEventsTest {
    static final int FREQ = 1000;
    static Path burn;

    @BeforeAll
    static void build() throws Exception {
        burn = NativeBuild.compile("burn.c", "-O2", "-fno-omit-frame-pointer", "-pthread");
        PerfEvents.warmUp();
    }

    /** What one profiled run produced. */
    record Run(
            List<PerfRecord> records,
            long before,
            long after,
            int pid,
            int tid1,
            int tid2,
            long cpuNs,
            long lost,
            java.util.function.LongToIntFunction memberOf) {
        List<PerfRecord.Sample> samples() {
            return records.stream()
                    .filter(r -> r instanceof PerfRecord.Sample)
                    .map(r -> (PerfRecord.Sample) r)
                    .filter(s -> s.pid() == pid)
                    .toList();
        }
    }

    static Run profile(PerfEventAttr attr, int millis) throws IOException, InterruptedException {
        return profile(attr, List.of(), millis);
    }

    static Run profile(PerfEventAttr attr, List<PerfEventAttr> members, int millis)
            throws IOException, InterruptedException {
        Process shim = ExecShim.start(burn, Integer.toString(millis));
        PerfEvents events;
        try {
            events = PerfEvents.openOnExec((int) shim.pid(), attr, members, 7);
        } catch (PerfUnavailableException e) {
            shim.destroyForcibly();
            abort("perf_event_open is not usable on this machine, so the sampler cannot be tested: " + e.getMessage());
            throw e;
        }
        List<PerfRecord> records = new ArrayList<>();
        long before;
        long after;
        try (events) {
            assertEquals(PerfEvents.onlineCpus().size(), events.rings().size());
            assertEquals(0, events.drain(records::add), "nothing before exec: the events start disabled");
            before = System.nanoTime();
            ExecShim.releaseAndDrain(shim, events, records, 20);
            after = System.nanoTime();
            String out = new String(shim.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(shim.waitFor(10, TimeUnit.SECONDS));
            assertEquals(0, shim.exitValue(), out);
            Matcher m = Pattern.compile("pid=(\\d+) tid1=(\\d+) tid2=(\\d+) cpu_ns=(\\d+)")
                    .matcher(out);
            assertTrue(m.find(), "program output: " + out);
            return new Run(
                    records,
                    before,
                    after,
                    Integer.parseInt(m.group(1)),
                    Integer.parseInt(m.group(2)),
                    Integer.parseInt(m.group(3)),
                    Long.parseLong(m.group(4)),
                    events.lostRecords(),
                    events::member);
        }
    }

    @Test
    void launchFlowFollowsThreadsWithCallchainsMappingsAndMonotonicTimes() throws Exception {
        Run run = profile(PerfEventAttr.clockSampling(false, FREQ), 700);
        List<PerfRecord.Sample> samples = run.samples();

        // Samples from the process and from both threads it started.
        Map<Integer, Integer> perTid = new TreeMap<>();
        for (PerfRecord.Sample s : samples) {
            perTid.merge(s.tid(), 1, Integer::sum);
        }
        double expected = run.cpuNs() / 1e9 * FREQ;
        System.out.printf(
                "perf launch flow: %d samples (expected ~%.0f from %.3f s CPU), per tid %s, lost %d," + " %d records%n",
                samples.size(),
                expected,
                run.cpuNs() / 1e9,
                perTid,
                run.lost(),
                run.records().size());
        assertEquals(0, run.lost(), "no records lost with a 512 KiB ring drained every 20 ms");
        for (int tid : new int[] {run.pid(), run.tid1(), run.tid2()}) {
            int n = perTid.getOrDefault(tid, 0);
            // each thread gets a real share (not an equal one: a busy machine schedules them unevenly)
            assertTrue(n >= expected / 3 * 0.2, "thread " + tid + " has " + n + " samples of ~" + expected / 3);
        }
        assertEquals(3, perTid.size(), "samples only from the 3 threads of the program: " + perTid);
        assertTrue(
                samples.size() >= expected * 0.5 && samples.size() <= expected * 1.5,
                samples.size() + " samples, expected about " + expected);

        // Frame-pointer callchains: leaf <- middle <- outer <- main/worker.
        Map<Integer, Integer> depths = new TreeMap<>();
        int deep = 0;
        int userSamples = 0;
        for (PerfRecord.Sample s : samples) {
            depths.merge(s.userFrames().length, 1, Integer::sum);
            if (s.userMode()) {
                userSamples++;
                if (s.userFrames().length > 1) {
                    deep++;
                }
                assertEquals(s.ip(), s.userFrames()[0], "a user-mode sample's chain starts at its ip");
            }
        }
        System.out.println("perf launch flow: user callchain depth -> samples " + depths);
        assertTrue(userSamples > samples.size() / 2, userSamples + " user-mode samples of " + samples.size());
        assertTrue(deep >= userSamples * 0.9, deep + " of " + userSamples + " user samples have > 1 user frame");
        assertTrue(depths.keySet().stream().anyMatch(d -> d >= 4), "some chains reach main/worker: " + depths);

        // Side-band records.
        String exe = burn.toRealPath().toString();
        assertTrue(
                run.records().stream()
                        .anyMatch(r -> r instanceof PerfRecord.Mmap m
                                && m.mmap2()
                                && m.pid() == run.pid()
                                && m.filename().equals(exe)
                                && !m.data()),
                "an MMAP2 record maps " + exe);
        assertTrue(
                run.records().stream()
                        .anyMatch(r -> r instanceof PerfRecord.Comm c
                                && c.pid() == run.pid()
                                && c.exec()
                                && c.comm().equals("burn")),
                "a COMM exec record names the program");
        for (int tid : new int[] {run.tid1(), run.tid2()}) {
            assertTrue(
                    run.records().stream()
                            .anyMatch(r -> r instanceof PerfRecord.Fork f
                                    && f.isThread()
                                    && f.pid() == run.pid()
                                    && f.tid() == tid),
                    "a FORK record for thread " + tid);
            assertTrue(
                    run.records().stream().anyMatch(r -> r instanceof PerfRecord.Exit e && e.tid() == tid),
                    "an EXIT record for thread " + tid);
        }
        assertTrue(
                run.records().stream()
                        .anyMatch(r -> r instanceof PerfRecord.Exit e && e.pid() == run.pid() && e.tid() == run.pid()),
                "an EXIT record for the process");

        // CLOCK_MONOTONIC times, comparable with System.nanoTime().
        for (PerfRecord r : run.records()) {
            assertTrue(
                    r.time() >= run.before() && r.time() <= run.after(),
                    r + " has time " + r.time() + " outside [" + run.before() + ", " + run.after() + "]");
        }
    }

    /** PAPI's perf:: software event as the run's counters open it. */
    private static PerfEventAttr counter(String name) {
        return org.rocprofsys.sampler.counters.PerfCounter.ALL.stream()
                .filter(c -> c.name().equals("perf::" + name))
                .findFirst()
                .orElseThrow()
                .attr();
    }

    @Test
    void groupCountsRideInEachSampleAsTheSampledThreadsOwnCounts() throws Exception {
        List<PerfEventAttr> members = List.of(
                counter("PERF_COUNT_SW_CPU_CLOCK"),
                counter("PERF_COUNT_SW_CONTEXT_SWITCHES"),
                counter("PERF_COUNT_SW_PAGE_FAULTS"));
        int millis = 500;
        Run run = profile(PerfEventAttr.clockSampling(false, FREQ).userOnly(), members, millis);
        List<PerfRecord.Sample> samples = run.samples();
        assertTrue(samples.size() >= 3 * millis / 4, samples.size() + " samples");
        // per (thread, CPU): the copy of the group that thread has on that CPU, whose counts only grow
        Map<Long, long[]> last = new java.util.HashMap<>();
        // tid -> summed changes of the 3 members, then of the leader
        Map<Integer, long[]> perThread = new TreeMap<>();
        for (PerfRecord.Sample s : samples.stream()
                .sorted(java.util.Comparator.comparingLong(PerfRecord.Sample::time))
                .toList()) {
            PerfRecord.Counts c = s.read();
            assertEquals(4, c.size(), "the leader's count and the 3 members': " + s);
            assertEquals(-1, run.memberOf().applyAsInt(c.ids()[0]), "the leader comes first");
            long[] now = new long[4];
            now[0] = c.values()[0];
            for (int i = 1; i < 4; i++) {
                int m = run.memberOf().applyAsInt(c.ids()[i]);
                assertEquals(i - 1, m, "the members in the order opened, known by their ids");
                now[1 + m] = c.values()[i];
            }
            long key = ((long) s.tid() << 32) | s.cpu();
            long[] before = last.put(key, now);
            long[] sum = perThread.computeIfAbsent(s.tid(), t -> new long[4]);
            for (int i = 0; i < 4; i++) {
                long base = before == null ? 0 : before[i];
                assertTrue(now[i] >= base, "counts of one thread on one CPU never go down: " + s);
                sum[(i + 3) % 4] += now[i] - base;
            }
        }
        System.out.printf(
                "perf group read: %d samples, per tid {cpu-clock ns, context switches, page faults,"
                        + " leader cpu-clock ns} %s%n",
                samples.size(),
                perThread.entrySet().stream()
                        .map(e -> e.getKey() + "=" + java.util.Arrays.toString(e.getValue()))
                        .toList());
        assertEquals(3, perThread.size(), perThread.keySet().toString());
        long faults = 0;
        for (Map.Entry<Integer, long[]> e : perThread.entrySet()) {
            long clock = e.getValue()[0];
            // each thread spins `millis` ms of its own CPU time; the changes add up to it, less what
            // ran on each CPU after that CPU's last sample of the thread (< 1 ms each at 1 kHz)
            assertTrue(
                    clock >= millis * 1_000_000L * 0.85 && clock <= millis * 1_000_000L * 1.3,
                    "thread " + e.getKey() + ": " + clock + " ns of cpu-clock in its samples");
            assertTrue(e.getValue()[1] >= 0 && e.getValue()[2] >= 0);
            // the member cpu-clock and the sampling cpu-clock count the same thread on the same CPUs
            long leader = e.getValue()[3];
            assertTrue(
                    Math.abs(clock - leader) <= clock / 100 + 2_000_000,
                    "member " + clock + " ns, leader " + leader + " ns of thread " + e.getKey());
            faults += e.getValue()[2];
        }
        assertTrue(faults > 0, "the program's start faults its pages in: " + faults);
    }

    @Test
    void einvalForCountsInInheritedSamplesNamesTheKernel() {
        PerfEventAttr grouped = PerfEventAttr.clockSampling(false, FREQ).withGroupRead();
        PerfException e = PerfEvents.openFailure(LibC.EINVAL, grouped, 42, 0);
        PerfUnavailableException u =
                org.junit.jupiter.api.Assertions.assertInstanceOf(PerfUnavailableException.class, e);
        assertEquals(PerfUnavailableException.Reason.NO_SAMPLE_READ, u.reason());
        assertTrue(
                e.getMessage().contains("Linux " + System.getProperty("os.version"))
                        && e.getMessage().contains("6.12"),
                e.getMessage());
        // EINVAL otherwise stays the generic rejection
        assertFalse(
                PerfEvents.openFailure(LibC.EINVAL, PerfEventAttr.clockSampling(false, FREQ), 42, 0)
                        instanceof PerfUnavailableException);
    }

    @Test
    void userRegistersAndStackArriveForDwarfUnwinding() throws Exception {
        assumeTrue(System.getProperty("os.arch").equals("amd64"), "the register mask here is x86-64's");
        long mask =
                (1L << PerfEventAttr.X86_REG_BP) | (1L << PerfEventAttr.X86_REG_SP) | (1L << PerfEventAttr.X86_REG_IP);
        Run run = profile(PerfEventAttr.clockSampling(false, FREQ).withUserStack(mask, 8192), 300);
        int user = 0;
        int bpInStack = 0;
        long stackBytes = 0;
        for (PerfRecord.Sample s : run.samples()) {
            if (!s.userMode()) {
                continue;
            }
            user++;
            assertEquals(2, s.userRegsAbi(), "PERF_SAMPLE_REGS_ABI_64");
            assertEquals(3, s.userRegs().length);
            long bp = s.userRegs()[0];
            long sp = s.userRegs()[1];
            long ip = s.userRegs()[2];
            assertEquals(s.ip(), ip, "the sampled user IP register is the sample's ip");
            assertTrue(s.userStack().length > 0 && s.userStack().length <= 8192);
            stackBytes += s.userStack().length;
            if (Long.compareUnsigned(bp, sp) >= 0 && Long.compareUnsigned(bp, sp + s.userStack().length) < 0) {
                bpInStack++;
            }
        }
        System.out.printf(
                "perf user stacks: %d user samples, mean stack copy %d bytes, BP inside the copy in %d%n",
                user, user == 0 ? 0 : stackBytes / user, bpInStack);
        assertTrue(user >= 100, user + " user-mode samples");
        // -fno-omit-frame-pointer: the frame pointer points into the copied stack in nearly all samples
        assertTrue(bpInStack >= user * 0.8, bpInStack + " of " + user);
    }

    @Test
    void attachToARunningProcessThenEnable() throws Exception {
        Process target = new ProcessBuilder(burn.toString(), "400")
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (PerfEvents events = PerfEvents.open((int) target.pid(), PerfEventAttr.clockSampling(true, FREQ), 5)) {
            events.enable();
            List<PerfRecord> records = new ArrayList<>();
            while (target.isAlive()) {
                events.await(20);
                events.drain(records::add);
            }
            events.disable();
            events.drain(records::add);
            long fromTarget = records.stream()
                    .filter(r -> r instanceof PerfRecord.Sample s && s.pid() == target.pid())
                    .count();
            System.out.println("perf attach: " + fromTarget + " task-clock samples from the running process");
            // Threads that existed before the attach are not followed (inherit covers later ones only);
            // the main thread alone spins ~0.4 s, so at least that much is always seen.
            assertTrue(fromTarget >= 100, fromTarget + " samples");
        } catch (PerfUnavailableException e) {
            abort("perf_event_open is refused here: " + e.getMessage());
        } finally {
            target.destroyForcibly();
        }
    }

    @Test
    void missingProcessAndMissingPmuGiveClearErrors() throws Exception {
        PerfEventAttr attr = PerfEventAttr.clockSampling(false, FREQ);
        // A pid that cannot exist (above pid_max's hard limit of 2^22).
        try {
            PerfEvents.open(1 << 30, attr, 0).close();
            fail("opened events on a missing process");
        } catch (PerfUnavailableException e) {
            abort("perf_event_open is refused here: " + e.getMessage());
        } catch (PerfException e) {
            assertEquals(LibC.ESRCH, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("No such process"), e.getMessage());
        }
        PerfEventAttr cycles = new PerfEventAttr(
                PerfEventAttr.TYPE_HARDWARE,
                PerfEventAttr.HW_CPU_CYCLES,
                FREQ,
                PerfEventAttr.SAMPLE_DEFAULT,
                0,
                PerfEventAttr.FLAG_DISABLED | PerfEventAttr.FLAG_FREQ | PerfEventAttr.FLAG_EXCLUDE_KERNEL,
                1,
                0,
                0,
                0,
                0);
        int self = (int) ProcessHandle.current().pid();
        try (PerfEvents ignored = PerfEvents.open(self, cycles, 0)) {
            abort("this machine has a hardware PMU, so the missing-PMU message cannot be checked");
        } catch (PerfUnavailableException e) {
            assertEquals(PerfUnavailableException.Reason.NO_SUCH_EVENT, e.reason(), e.getMessage());
            assertTrue(e.getMessage().contains("cycles") && e.getMessage().contains("software event"), e.getMessage());
        }
    }

    @Test
    void permissionMessageNamesParanoidAndTheFix() {
        PerfException e = PerfEvents.openFailure(LibC.EACCES, PerfEventAttr.clockSampling(false, FREQ), 42, 0);
        PerfUnavailableException u = assertInstanceOf(e);
        assertEquals(PerfUnavailableException.Reason.PERMISSION, u.reason());
        assertTrue(u.getMessage().contains("perf_event_paranoid is " + PerfEvents.paranoid()), u.getMessage());
        assertTrue(u.getMessage().contains("sysctl -w kernel.perf_event_paranoid=1"), u.getMessage());
        assertTrue(u.getMessage().contains("seccomp"), u.getMessage());
        assertTrue(u.getMessage().contains("EACCES"), u.getMessage());
    }

    private static PerfUnavailableException assertInstanceOf(PerfException e) {
        return org.junit.jupiter.api.Assertions.assertInstanceOf(PerfUnavailableException.class, e);
    }

    @Test
    void cpuLists() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), PerfEvents.parseCpuList("0-3,8,10-11"));
        assertEquals(List.of(0), PerfEvents.parseCpuList("0"));
        assertThrows(NumberFormatException.class, () -> PerfEvents.parseCpuList("x"));
    }
}
