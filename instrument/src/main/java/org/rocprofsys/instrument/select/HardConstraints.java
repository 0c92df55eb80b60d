package org.rocprofsys.instrument.select;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The constraints no user option lifts (inventory §6.2 step 1): the tool's own code and the
 * libraries it depends on, system modules, and functions that are unsafe or pointless to trace.
 * The patterns and lists are upstream's ({@code module_function.cpp}, {@code details.cpp}).
 */
final class HardConstraints {
    private HardConstraints() {}

    /** A hit: who is constrained ("function"/"module"), upstream's action and reason, and the log level. */
    record Hit(String type, String action, String reason, int level) {}

    // ---- is_internal_constrained -------------------------------------------------------------
    private static final Pattern OWN_MODULE = Pattern.compile("lib(rocprof-sys|rocprofsys|timemory|perfetto)");
    private static final Pattern OWN_FUNCTION = Pattern.compile("10rocprofsys|rocprofsys|rocprofsys(::|_)");
    private static final Pattern TIMEMORY_FUNCTION = Pattern.compile("3tim|tim::|timemory(::|_)");
    private static final Pattern PERFETTO_FUNCTION = Pattern.compile("9perfetto|perfetto(::|_)");
    /**
     * The "internal libs": glibc family, Dyninst's and the tool's dependencies and some 3rd-party
     * tools, matched on the file name with any version suffix.
     */
    private static final Pattern INTERNAL_LIBRARY = Pattern.compile(
            "^(ld-linux(-x86-64)?|ld64|libc|libc_malloc_debug|libdl|libpthread|librt|libm|libmvec|libresolv"
                    + "|libutil|libanl|libnsl|libcrypt|libgcc_s|libstdc\\+\\+|libatomic"
                    + "|libdyninstAPI_RT|libelf|libdw|libtbb[a-z_]*|libz|libzstd|libbz2|liblzma|libbfd|libdwarf|libcommon"
                    + "|libgotcha|libunwind[a-z_\\-0-9]*|libpapi|libpfm|librocm_smi64|libroctx64|libroctracer64"
                    + "|librocprofiler64|librocprofiler-register|librocprofiler-sdk(-roctx)?|libamd_smi|libamd_comgr"
                    + "|librocmtools|libcaliper|liblikwid|libprofiler|libtcmalloc[a-z_]*|libcapstone)"
                    + "(-[0-9.]+)?\\.so(\\.[0-9.]+)?$");

    /** The reason of a function of an internal library; {@code --internal-library-remove} lifts it. */
    static final String INTERNAL_LIBRARY_REASON = "internal library";

    /** Whether {@code module} is one of upstream's internal libraries (before the user's changes). */
    static boolean internalLibrary(String module) {
        return INTERNAL_LIBRARY.matcher(fileName(module)).find();
    }

    // ---- is_module_constrained (matched on the module's file name) ---------------------------
    private static final Pattern EXT = Pattern.compile("\\.(s|S)$");
    private static final Pattern SYS = Pattern.compile("^(s|k|e|w)_[A-Za-z_0-9\\-]+\\.(c|C)$");
    private static final Pattern SYS_BUILD = Pattern.compile("^(\\.\\./sysdeps/|/build/)");
    private static final Pattern DYNINST = Pattern.compile("(dyninst|DYNINST|(^|/)RT\\p{Graph}+\\.c$)");
    private static final Pattern DEPEND_LIB = Pattern.compile(
            "^(lib|)(rocprof-sys|rocprofsys|pthread|caliper|gotcha|papi|cupti|TAU|likwid|pfm|nvperf|unwind)");
    private static final Pattern CORE_CMOD = Pattern.compile("^(malloc|(f|)lock|sig|sem)[a-z_]+(|64|_r|_l)\\.c$");
    private static final Pattern CORE_LIB = Pattern.compile("lib(elf)(-|\\.)");

    // ---- is_routine_constrained --------------------------------------------------------------
    private static final Pattern EXCLUDE =
            Pattern.compile("(rocprofsys|rocprof-sys|tim::|MPI_Init|MPI_Finalize|dyninst|DYNINST|tm_clones)");
    private static final Pattern EXCLUDE_CXX =
            Pattern.compile("(std::_Sp_counted_base|std::(use|has)_facet|std::locale|::sentry|^std::_|::_(M|S)_"
                    + "|::basic_string[a-zA-Z,<>: ]+::_M_create|::__|::_(Alloc|State)"
                    + "|std::(basic_|)(ifstream|ios|istream|ostream|stream))");
    private static final Pattern LEADING = Pattern.compile(
            "^(\\.|frame_dummy|transaction clone|virtual thunk|non-virtual thunk|\\(|targ|kmp_threadprivate_"
                    + "|Kokkos::Profiling::|_IO_|___|__(GI|cxa|libc|IO|rpc|run|call|pthread|dl|nl|nss|new|old|internal"
                    + "|argp|malloc|libio|printf)_)");
    private static final Pattern TRAILING = Pattern.compile("(_internal)$");
    /**
     * GCC's out-of-line cold partitions ({@code foo.cold}): reached by a jump from {@code foo}, never
     * called, so an entry hook there would take a frame's return address for its own.
     */
    private static final Pattern COLD_PART = Pattern.compile("\\.cold(\\.[0-9]+)?(\\]|$)");
    /**
     * Functions the entry hook must not touch because they do not return once, through the return
     * address found at entry: setjmp/vfork-like functions return twice (the saved return address
     * would be the agent's exit trampoline), context switches and signal-return stubs do not return
     * to their caller, and the unwinder is wrapped by the agent itself. Upstream avoids them through
     * module rules (glibc's .S sources, libgcc); in a static executable they sit in the main module.
     */
    private static final Pattern RETURN_HOOK_UNSAFE = Pattern.compile(
            "^(_?setjmp|__sigsetjmp|sigsetjmp|__libc_sigsetjmp|_?longjmp|__longjmp.*|siglongjmp|__libc_siglongjmp"
                    + "|vfork|__vfork|clone|clone3|__clone.*|getcontext|setcontext|swapcontext|makecontext|__start_context"
                    + "|__restore_rt|_Unwind_.*|__morestack.*|__gxx_personality_v0|__gcc_personality_v0)$");

    private static final List<String> WHOLE_BASE = List.of(
            "sem_init",
            "sem_destroy",
            "sem_open",
            "sem_close",
            "sem_post",
            "sem_wait",
            "sem_getvalue",
            "sem_clockwait",
            "sem_timedwait",
            "sem_trywait",
            "sem_unlink",
            "fork",
            "do_futex_wait",
            "dl_iterate_phdr",
            "dlinfo",
            "dlopen",
            "dlmopen",
            "dlvsym",
            "dlsym",
            "dlerror",
            "dladdr",
            "_dl_sym",
            "_dl_vsym",
            "_dl_addr",
            "_dl_relocate_static_pie",
            "getenv",
            "setenv",
            "unsetenv",
            "printf",
            "fprintf",
            "vprintf",
            "buffered_vfprintf",
            "vfprintf",
            "printf_positional",
            "puts",
            "fputs",
            "vfputs",
            "fflush",
            "fwrite",
            "malloc",
            "malloc_stats",
            "malloc_trim",
            "mallopt",
            "calloc",
            "free",
            "pvalloc",
            "valloc",
            "sysmalloc",
            "posix_memalign",
            "freehook",
            "mallochook",
            "memalignhook",
            "mprobe",
            "reallochook",
            "mmap",
            "munmap",
            "fopen",
            "fclose",
            "fmemopen",
            "fmemclose",
            "backtrace",
            "backtrace_symbols",
            "backtrace_symbols_fd",
            "sigaddset",
            "sigandset",
            "sigdelset",
            "sigemptyset",
            "sigfillset",
            "sighold",
            "sigisemptyset",
            "sigismember",
            "sigorset",
            "sigrelse",
            "sigvec",
            "strtok",
            "strstr",
            "sbrk",
            "strxfrm",
            "atexit",
            "ompt_start_tool",
            "nanosleep",
            "cfree",
            "tolower",
            "toupper",
            "fileno",
            "fileno_unlocked",
            "exit",
            "quick_exit",
            "abort",
            "mbind",
            "migrate_pages",
            "move_pages",
            "numa_migrate_pages",
            "numa_move_pages",
            "numa_alloc",
            "numa_alloc_local",
            "numa_alloc_interleaved",
            "numa_alloc_onnode",
            "numa_realloc",
            "numa_free",
            "round_and_return",
            "_init",
            "_fini",
            "_start",
            "__do_global_dtors_aux",
            "__libc_csu_init",
            "__libc_csu_fini",
            "__hip_module_ctor",
            "__hip_module_dtor",
            "__hipRegisterManagedVar",
            "__hipRegisterFunction",
            "__hipPushCallConfiguration",
            "__hipPopCallConfiguration",
            "hipApiName",
            "enlarge_userbuf",
            // functions which never terminate
            "rocr::core::Signal::WaitAny",
            "rocr::core::Runtime::AsyncEventsLoop",
            "rocr::core::BusyWaitSignal::WaitAcquire",
            "rocr::core::BusyWaitSignal::WaitRelaxed",
            "rocr::HSA::hsa_signal_wait_scacquire",
            "rocr::os::ThreadTrampoline",
            "rocr::image::ImageRuntime::CreateImageManager",
            "rocr::AMD::GpuAgent::GetInfo",
            "rocr::HSA::hsa_agent_get_info",
            "event_base_loop",
            "bootstrapRoot",
            "bootstrapNetAccept",
            "ncclCommInitRank",
            "ncclCommInitAll",
            "ncclCommDestroy",
            "ncclCommCount",
            "ncclCommCuDevice",
            "ncclCommUserRank",
            "ncclReduce",
            "ncclBcast",
            "ncclBroadcast",
            "ncclAllReduce",
            "ncclReduceScatter",
            "ncclAllGather",
            "ncclGroupStart",
            "ncclGroupEnd",
            "ncclSend",
            "ncclRecv",
            "ncclGather",
            "ncclScatter",
            "ncclAllToAll",
            "ncclAllToAllv",
            "ncclSocketAccept",
            "vaBeginPicture",
            "vaCreateBuffer",
            "vaCreateConfig",
            "vaCreateContext",
            "vaCreateSurfaces",
            "vaDestroySurfaces",
            "vaSyncSurface",
            "vaDestroyBuffer",
            "vaDestroyConfig",
            "vaDestroyContext",
            "vaEndPicture",
            "vaExportSurfaceHandle",
            "vaGetConfigAttributes",
            "vaInitialize",
            "vaQueryConfigEntrypoints",
            "vaQuerySurfaceAttributes",
            "vaQuerySurfaceStatus",
            "vaRenderPicture",
            "vaTerminate",
            "vaDisplayIsValid");
    /** The whole-name list with upstream's "64", "_l" and "_r" variants. */
    static final Set<String> WHOLE;

    static {
        Set<String> s = new HashSet<>(WHOLE_BASE);
        for (String ext : List.of("64", "_l", "_r")) {
            for (String n : WHOLE_BASE) s.add(n + ext);
        }
        WHOLE = Set.copyOf(s);
    }

    static String fileName(String module) {
        Path p = Path.of(module).getFileName();
        return p == null ? module : p.toString();
    }

    static boolean any(List<Pattern> patterns, String text) {
        for (Pattern p : patterns) {
            if (p.matcher(text).find()) return true;
        }
        return false;
    }

    /** is_internal_constrained: the tool's own modules and functions and the internal libraries. */
    static Hit internal(String module, String function, SelectionOptions o) {
        boolean moduleLifted = any(o.internalModuleInclude(), module);
        boolean functionLifted = any(o.internalFunctionInclude(), function);
        String base = fileName(module);
        if (OWN_MODULE.matcher(module).find()) return new Hit("module", "Excluding", "rocprofsys", 3);
        if (!functionLifted) {
            if (OWN_FUNCTION.matcher(function).find()) return new Hit("function", "Excluding", "rocprofsys", 3);
            if (TIMEMORY_FUNCTION.matcher(function).find()) return new Hit("function", "Excluding", "timemory", 3);
            if (PERFETTO_FUNCTION.matcher(function).find()) return new Hit("function", "Excluding", "perfetto", 3);
        }
        if (!moduleLifted
                && !o.internalLibraries().removed(base)
                && (INTERNAL_LIBRARY.matcher(base).find()
                        || o.internalLibraries().appended(base))) {
            return new Hit("module", "Excluding", INTERNAL_LIBRARY_REASON, 3);
        }
        return null;
    }

    /** is_module_constrained, on the module's file name. */
    static Hit module(String module) {
        String base = fileName(module);
        if (EXT.matcher(base).find()) return new Hit("module", "Excluding", "file extension", 3);
        if (SYS.matcher(base).find() || SYS_BUILD.matcher(base).find()) {
            return new Hit("module", "Excluding", "system module", 3);
        }
        if (DYNINST.matcher(base).find()) return new Hit("module", "Excluding", "dyninst module", 3);
        if (CORE_LIB.matcher(base).find() || CORE_CMOD.matcher(base).find()) {
            return new Hit("module", "Excluding", "core module", 3);
        }
        if (DEPEND_LIB.matcher(base).find()) return new Hit("module", "Excluding", "dependency module", 3);
        return null;
    }

    /** is_routine_constrained, plus the main function and GCC cold partitions. */
    /** A GCC cold partition ({@code foo.cold}, {@code foo(int) [clone .cold]}), or null. */
    static Hit coldPartition(String symbol) {
        return COLD_PART.matcher(symbol).find() ? new Hit("function", "Excluding", "cold-partition", 3) : null;
    }

    static Hit routine(String function, String mainFunction) {
        if (function.contains("rocprofsys")) return new Hit("function", "Skipping", "rocprofsys-function", 1);
        if (function.contains("FunctionInfo") || function.contains("_L_lock") || function.contains("_L_unlock")) {
            return new Hit("function", "Skipping", "function-constraint", 2);
        }
        if (EXCLUDE.matcher(function).find() || EXCLUDE_CXX.matcher(function).find()) {
            return new Hit("function", "Excluding", "critical", 3);
        }
        if (WHOLE.contains(function)) return new Hit("function", "Excluding", "critical-whole-match", 3);
        if (LEADING.matcher(function).find()) return new Hit("function", "Excluding", "recommended-leading-match", 3);
        if (TRAILING.matcher(function).find()) return new Hit("function", "Excluding", "recommended-trailing-match", 3);
        if (COLD_PART.matcher(function).find()) return new Hit("function", "Excluding", "cold-partition", 3);
        if (RETURN_HOOK_UNSAFE.matcher(function).find()) {
            return new Hit("function", "Excluding", "return-hook-unsafe", 3);
        }
        // upstream wraps the main function with init/fini instead of tracing it
        if (function.equals(mainFunction)) {
            return new Hit("function", "Skipping", "main-function", 2);
        }
        return null;
    }
}
