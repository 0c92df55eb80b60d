/*
 * Every symbol the agent interposes (exported, so that the dynamic linker binds the application's
 * calls here first), and the one lookup of the definitions they forward to (rsys_real).
 * Each wrapper only tells the rest of the agent what happened and calls the real function:
 *   __libc_start_main, exit, _exit, _Exit  main's start (timers) and the exit code (agent_init.c)
 *   fork                                   FORK record in the parent (the child: agent_init.c)
 *   execve, execvpe, execv, execvp,        timers off around exec (agent_timer.c)
 *   execl, execlp, execle
 *   pthread_create                         thread_seq at creation, THREAD_START (agent_threads.c)
 *   pthread_barrier_wait, pthread_join     a pthread region around the call, when asked for
 *   sigaction, signal                      the application's disposition of a sampler signal
 *   _Unwind_RaiseException & co.,          instrumented frames around an unwinder's walk
 *   __gxx_personality_v0, __cxa_begin_catch,
 *   pthread_exit                           (agent_instr.c)
 *   dlopen                                 the caller's library search; new modules' areas
 *   nanosleep, clock_nanosleep, usleep,    resumed after a sampler signal alone cut them short
 *   sleep, poll, select, epoll_wait,       (the last block)
 *   pause, sigsuspend
 *   pthread_mutex_*, _rwlock_*, _spin_*    not exported: GOT entries patched only when asked
 *                                          for (the lock block, at the end)
 */
#include "rsys_agent.h"

#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------------------------------------
 * The real definitions
 */
enum rsys_real_id {
    /* libc: resolved by the constructor */
    RSYS_R_LIBC_START_MAIN,
    RSYS_R_EXIT,
    RSYS_R__EXIT,
    RSYS_R__EXIT_C99,
    RSYS_R_FORK,
    RSYS_R_EXECVE,
    RSYS_R_EXECVPE,
    RSYS_R_EXECV,
    RSYS_R_EXECVP,
    RSYS_R_PTHREAD_CREATE,
    RSYS_R_PTHREAD_EXIT,
    RSYS_R_PTHREAD_BARRIER_WAIT,
    RSYS_R_PTHREAD_JOIN,
    RSYS_R_SIGACTION,
    RSYS_R_SIGNAL,
    RSYS_R_DLOPEN,
    RSYS_R_NANOSLEEP,
    RSYS_R_CLOCK_NANOSLEEP,
    RSYS_R_POLL,
    RSYS_R_SELECT,
    RSYS_R_EPOLL_WAIT,
    RSYS_R_PAUSE,
    RSYS_R_SIGSUSPEND,
    /* libgcc_s, libstdc++: may be loaded later (a C++ library dlopened), so looked up at first use */
    RSYS_R_FIRST_LAZY,
    RSYS_R_UNWIND_RAISE = RSYS_R_FIRST_LAZY,
    RSYS_R_UNWIND_RESUME_OR_RETHROW,
    RSYS_R_UNWIND_FORCED,
    RSYS_R_UNWIND_GET_CFA,
    RSYS_R_PERSONALITY,
    RSYS_R_BEGIN_CATCH,
    RSYS_R_GET_GLOBALS,
    RSYS_R_COUNT
};

static const char *const rsys_real_names[RSYS_R_COUNT] = {
    [RSYS_R_LIBC_START_MAIN] = "__libc_start_main",
    [RSYS_R_EXIT] = "exit",
    [RSYS_R__EXIT] = "_exit",
    [RSYS_R__EXIT_C99] = "_Exit",
    [RSYS_R_FORK] = "fork",
    [RSYS_R_EXECVE] = "execve",
    [RSYS_R_EXECVPE] = "execvpe",
    [RSYS_R_EXECV] = "execv",
    [RSYS_R_EXECVP] = "execvp",
    [RSYS_R_PTHREAD_CREATE] = "pthread_create",
    [RSYS_R_PTHREAD_EXIT] = "pthread_exit",
    [RSYS_R_PTHREAD_BARRIER_WAIT] = "pthread_barrier_wait",
    [RSYS_R_PTHREAD_JOIN] = "pthread_join",
    [RSYS_R_SIGACTION] = "sigaction",
    [RSYS_R_SIGNAL] = "signal",
    [RSYS_R_DLOPEN] = "dlopen",
    [RSYS_R_NANOSLEEP] = "nanosleep",
    [RSYS_R_CLOCK_NANOSLEEP] = "clock_nanosleep",
    [RSYS_R_POLL] = "poll",
    [RSYS_R_SELECT] = "select",
    [RSYS_R_EPOLL_WAIT] = "epoll_wait",
    [RSYS_R_PAUSE] = "pause",
    [RSYS_R_SIGSUSPEND] = "sigsuspend",
    [RSYS_R_UNWIND_RAISE] = "_Unwind_RaiseException",
    [RSYS_R_UNWIND_RESUME_OR_RETHROW] = "_Unwind_Resume_or_Rethrow",
    [RSYS_R_UNWIND_FORCED] = "_Unwind_ForcedUnwind",
    [RSYS_R_UNWIND_GET_CFA] = "_Unwind_GetCFA",
    [RSYS_R_PERSONALITY] = "__gxx_personality_v0",
    [RSYS_R_BEGIN_CATCH] = "__cxa_begin_catch",
    [RSYS_R_GET_GLOBALS] = "__cxa_get_globals",
};

static void *rsys_real_fn[RSYS_R_COUNT];

/*
 * The next definition of a wrapped symbol, the only dlsym(RTLD_NEXT) of the agent. A wrapper can
 * run before the agent's constructor (from another library's constructor), so it resolves what
 * is still missing itself; a definition not found is looked up again on the next call.
 */
static void *rsys_real(enum rsys_real_id id)
{
    void *p = __atomic_load_n(&rsys_real_fn[id], __ATOMIC_ACQUIRE);
    if (RSYS_UNLIKELY(p == NULL)) {
        p = dlsym(RTLD_NEXT, rsys_real_names[id]);
        __atomic_store_n(&rsys_real_fn[id], p, __ATOMIC_RELEASE);
    }
    return p;
}

void rsys_wrap_init(void)
{
    for (int id = 0; id < RSYS_R_FIRST_LAZY; id++) {
        rsys_real((enum rsys_real_id)id);
    }
}

/* A wrapper whose real definition is nowhere cannot do what its caller asked. */
static __attribute__((noreturn)) void rsys_missing(enum rsys_real_id id)
{
    dprintf(2, "rocprof-sys: agent: %s: no next definition\n", rsys_real_names[id]);
    abort();
}

/* ---------------------------------------------------------------------------------------------
 * Process start and exit
 */
typedef void (*rsys_exit_fn)(int);
typedef int (*rsys_main_fn)(int, char **, char **);
typedef int (*rsys_start_main_fn)(rsys_main_fn, int, char **, void (*)(void), void (*)(void),
                                  void (*)(void), void *);

static rsys_main_fn real_main;
static void rsys_threading_before_main(void);
static void rsys_lock_install(void);

static int rsys_main_wrapper(int argc, char **argv, char **envp)
{
    if (rsys_is_ours()) {
        rsys_timers_main_begins();
        rsys_threading_before_main();
    }
    int rc = real_main(argc, argv, envp);
    if (rsys_is_ours()) {
        rsys_set_exit_code(rc);
    }
    return rc;
}

/* Wrapping main through the C runtime start lets us record main's return value as exit_code. */
RSYS_EXPORT int __libc_start_main(rsys_main_fn main, int argc, char **argv, void (*init)(void),
                                  void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    rsys_start_main_fn real = (rsys_start_main_fn)rsys_real(RSYS_R_LIBC_START_MAIN);
    if (real == NULL) {
        abort();
    }
    real_main = main; /* always: the agent may be a constructor that has not run yet */
    return real(rsys_main_wrapper, argc, argv, init, fini, rtld_fini, stack_end);
}

RSYS_EXPORT __attribute__((noreturn)) void exit(int status)
{
    if (rsys_is_ours()) {
        rsys_set_exit_code(status);
    }
    rsys_exit_fn real = (rsys_exit_fn)rsys_real(RSYS_R_EXIT);
    if (real != NULL) {
        real(status);
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

/* _exit and _Exit skip atexit handlers and destructors: the exit records are written here. */
static __attribute__((noreturn)) void rsys_quick_exit(enum rsys_real_id id, int status)
{
    if (rsys_is_ours()) {
        rsys_set_exit_code(status);
        rsys_finalize();
    }
    rsys_exit_fn real = (rsys_exit_fn)rsys_real(id);
    if (real != NULL) {
        real(status);
    }
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}

RSYS_EXPORT __attribute__((noreturn)) void _exit(int status)
{
    rsys_quick_exit(RSYS_R__EXIT, status);
}

RSYS_EXPORT __attribute__((noreturn)) void _Exit(int status)
{
    rsys_quick_exit(RSYS_R__EXIT_C99, status);
}

/* fork: the parent records FORK with the child's pid (the atfork child handler does the rest). */
RSYS_EXPORT pid_t fork(void)
{
    pid_t (*real)(void) = (pid_t(*)(void))rsys_real(RSYS_R_FORK);
    pid_t pid = real();
    if (pid > 0 && rsys_g.enabled) {
        rsys_simple(RSYS_REC_FORK, 0, (int32_t)pid, 0, 1);
    }
    return pid;
}

/* ---------------------------------------------------------------------------------------------
 * exec: every sampling timer is deleted and pending timer signals are discarded first (the new
 * image would die of one: its disposition is the default again). glibc's own exec variants call
 * execve internally, not through this symbol, so each entry point is wrapped (the execl family
 * through execve / execvp with the arguments gathered; fexecve and posix_spawn are not wrapped:
 * a posix_spawn child has no timers anyway).
 */
typedef int (*rsys_execve_fn)(const char *, char *const[], char *const[]);
typedef int (*rsys_execv_fn)(const char *, char *const[]);

static void rsys_before_exec(void)
{
    if (rsys_is_ours()) {
        rsys_timers_before_exec();
    }
}

static int rsys_after_exec(int rc)
{
    int saved = errno;
    if (rsys_is_ours()) {
        rsys_timers_after_failed_exec();
    }
    errno = saved;
    return rc;
}

RSYS_EXPORT int execve(const char *path, char *const argv[], char *const envp[])
{
    rsys_execve_fn real = (rsys_execve_fn)rsys_real(RSYS_R_EXECVE);
    rsys_before_exec();
    return rsys_after_exec(real(path, argv, envp));
}

RSYS_EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
    rsys_execve_fn real = (rsys_execve_fn)rsys_real(RSYS_R_EXECVPE);
    rsys_before_exec();
    return rsys_after_exec(real(file, argv, envp));
}

RSYS_EXPORT int execv(const char *path, char *const argv[])
{
    rsys_execv_fn real = (rsys_execv_fn)rsys_real(RSYS_R_EXECV);
    rsys_before_exec();
    return rsys_after_exec(real(path, argv));
}

RSYS_EXPORT int execvp(const char *file, char *const argv[])
{
    rsys_execv_fn real = (rsys_execv_fn)rsys_real(RSYS_R_EXECVP);
    rsys_before_exec();
    return rsys_after_exec(real(file, argv));
}

/* Counts the arguments after arg0 up to the NULL, then gathers them into argv. */
#define RSYS_GATHER_ARGS(arg0, last, argv, extra)                                                    \
    size_t rsys_n = 1;                                                                             \
    {                                                                                              \
        va_list rsys_ap;                                                                           \
        va_start(rsys_ap, last);                                                                   \
        while (va_arg(rsys_ap, const char *) != NULL) {                                            \
            rsys_n++;                                                                              \
        }                                                                                          \
        va_end(rsys_ap);                                                                           \
    }                                                                                              \
    char *argv[rsys_n + 1];                                                                        \
    extra;                                                                                         \
    {                                                                                              \
        va_list rsys_ap;                                                                           \
        va_start(rsys_ap, last);                                                                   \
        argv[0] = (char *)(arg0);                                                                  \
        for (size_t rsys_i = 1; rsys_i <= rsys_n; rsys_i++) {                                      \
            argv[rsys_i] = va_arg(rsys_ap, char *);                                                \
        }                                                                                          \
        va_end(rsys_ap);                                                                           \
    }

RSYS_EXPORT int execl(const char *path, const char *arg, ...)
{
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    return execv(path, argv);
}

RSYS_EXPORT int execlp(const char *file, const char *arg, ...)
{
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    return execvp(file, argv);
}

RSYS_EXPORT int execle(const char *path, const char *arg, ...)
{
    /* the environment pointer follows the NULL that ends the arguments */
    RSYS_GATHER_ARGS(arg, arg, argv, (void)0)
    char *const *envp;
    {
        va_list ap;
        va_start(ap, arg);
        for (size_t i = 1; i <= rsys_n; i++) {
            (void)va_arg(ap, char *);
        }
        envp = va_arg(ap, char *const *);
        va_end(ap);
    }
    return execve(path, argv, envp);
}

/* ---------------------------------------------------------------------------------------------
 * Threads: a new thread gets the next thread_seq at creation (main is 0) and records THREAD_START
 * on entry.
 */
typedef int (*rsys_pthread_create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                                      void *);

struct rsys_start {
    void *(*fn)(void *);
    void *arg;
    int32_t seq;
};

static void *rsys_thread_main(void *p)
{
    struct rsys_start s = *(struct rsys_start *)p;
    free(p);
    rsys_thread_enter(s.seq);
    return s.fn(s.arg);
}

int rsys_real_pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                             void *arg)
{
    return ((rsys_pthread_create_fn)rsys_real(RSYS_R_PTHREAD_CREATE))(thread, attr, start, arg);
}

RSYS_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                               void *(*start_routine)(void *), void *arg)
{
    rsys_pthread_create_fn real = (rsys_pthread_create_fn)rsys_real(RSYS_R_PTHREAD_CREATE);
    if (!rsys_g.enabled) {
        return real(thread, attr, start_routine, arg);
    }
    struct rsys_start *s = (struct rsys_start *)malloc(sizeof *s);
    if (s == NULL) {
        return real(thread, attr, start_routine, arg);
    }
    s->fn = start_routine;
    s->arg = arg;
    s->seq = (int32_t)__atomic_fetch_add(&rsys_g.next_seq, 1u, __ATOMIC_RELAXED);
    int rc = real(thread, attr, rsys_thread_main, s);
    if (rc != 0) {
        free(s);
    }
    return rc;
}

/*
 * pthread_barrier_wait and pthread_join: with the call's bit in ROCPROFSYS_AGENT_THREAD_CALLS, the
 * time a thread waits in them is a region of its own (category pthread, named after the function,
 * as upstream's wrappers of ROCPROFSYS_TRACE_THREAD_BARRIERS and _JOIN), with the component
 * readings of any other region. Its end is written only if its begin was.
 */
static int rsys_thread_call_begins(uint32_t call, const char *name)
{
    return (rsys_g.thread_calls & call) != 0 && __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE) &&
           rsys_is_ours() && rsys_region_begin(ROCPROFSYS_CATEGORY_PTHREAD, name, 0);
}

static void rsys_thread_call_ends(int begun)
{
    if (begun && __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE)) {
        rsys_region_end(ROCPROFSYS_CATEGORY_PTHREAD, 0);
    }
}

RSYS_EXPORT int pthread_barrier_wait(pthread_barrier_t *barrier)
{
    int (*real)(pthread_barrier_t *) = (int (*)(pthread_barrier_t *))rsys_real(RSYS_R_PTHREAD_BARRIER_WAIT);
    if (real == NULL) {
        rsys_missing(RSYS_R_PTHREAD_BARRIER_WAIT);
    }
    int begun = rsys_thread_call_begins(RSYS_THREAD_CALL_BARRIER, "pthread_barrier_wait");
    int rc = real(barrier);
    rsys_thread_call_ends(begun);
    return rc;
}

RSYS_EXPORT int pthread_join(pthread_t thread, void **value)
{
    int (*real)(pthread_t, void **) = (int (*)(pthread_t, void **))rsys_real(RSYS_R_PTHREAD_JOIN);
    if (real == NULL) {
        rsys_missing(RSYS_R_PTHREAD_JOIN);
    }
    int begun = rsys_thread_call_begins(RSYS_THREAD_CALL_JOIN, "pthread_join");
    int rc = real(thread, value);
    rsys_thread_call_ends(begun);
    return rc;
}

/* ---------------------------------------------------------------------------------------------
 * sigaction / signal: the application sees and sets its own disposition of a sampler signal
 * (agent_timer.c keeps it); other signals go to libc.
 */
typedef int (*rsys_sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef sighandler_t (*rsys_signal_fn)(int, sighandler_t);

RSYS_EXPORT int sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
    rsys_sigaction_fn real = (rsys_sigaction_fn)rsys_real(RSYS_R_SIGACTION);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    if (rsys_timers_app_sigaction(sig, act, oact) == 0) {
        return 0;
    }
    return real(sig, act, oact);
}

RSYS_EXPORT sighandler_t signal(int sig, sighandler_t handler)
{
    rsys_signal_fn real = (rsys_signal_fn)rsys_real(RSYS_R_SIGNAL);
    if (real == NULL) {
        return SIG_ERR;
    }
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler;
    sa.sa_flags = SA_RESTART; /* glibc's signal(): BSD semantics */
    sigemptyset(&sa.sa_mask);
    if (rsys_timers_app_sigaction(sig, &sa, &old) != 0) {
        return real(sig, handler);
    }
    return (old.sa_flags & SA_SIGINFO) ? (sighandler_t)(void (*)(void))old.sa_sigaction
                                       : old.sa_handler;
}

/* libc's sigaction, for the agent's own handlers */
int rsys_real_sigaction(int sig, const struct sigaction *act, struct sigaction *oact)
{
    rsys_sigaction_fn real = (rsys_sigaction_fn)rsys_real(RSYS_R_SIGACTION);
    return real != NULL ? real(sig, act, oact) : -1;
}

/* ---------------------------------------------------------------------------------------------
 * Unwinding through instrumented frames: the real return addresses are put back before an
 * unwinder walks the stack, and the frames it removed end when it is done (agent_instr.c).
 */
typedef int (*rsys_raise_fn)(void *);
typedef int (*rsys_forced_fn)(void *, void *, void *);
typedef void *(*rsys_begin_catch_fn)(void *);
typedef void *(*rsys_globals_fn)(void);
typedef void (*rsys_pthread_exit_fn)(void *);
typedef int (*rsys_personality_fn)(int, int, uint64_t, void *, void *);
typedef uint64_t (*rsys_get_cfa_fn)(void *);

static RSYS_ALWAYS_INLINE int rsys_raise(enum rsys_real_id id, void *exc)
{
    rsys_raise_fn f = (rsys_raise_fn)rsys_real(id);
    if (f == NULL) {
        rsys_missing(id);
    }
    rsys_instr_unhook_all();
    int rc = f(exc); /* returns only when no handler was found */
    rsys_instr_after_unwind(0, 1);
    return rc;
}

RSYS_EXPORT int _Unwind_RaiseException(void *exc)
{
    return rsys_raise(RSYS_R_UNWIND_RAISE, exc);
}

RSYS_EXPORT int _Unwind_Resume_or_Rethrow(void *exc)
{
    return rsys_raise(RSYS_R_UNWIND_RESUME_OR_RETHROW, exc);
}

RSYS_EXPORT int _Unwind_ForcedUnwind(void *exc, void *stop, void *stop_arg)
{
    rsys_forced_fn f = (rsys_forced_fn)rsys_real(RSYS_R_UNWIND_FORCED);
    if (f == NULL) {
        rsys_missing(RSYS_R_UNWIND_FORCED);
    }
    rsys_instr_unhook_all();
    int rc = f(exc, stop, stop_arg);
    rsys_instr_after_unwind(0, 1);
    return rc;
}

/*
 * The C++ personality, called by the unwinder for each frame F that has one. In the cleanup phase
 * the frames below F are gone by then (F's landing pad, a cleanup or the catch, runs next, or the
 * unwinder goes on to F's caller): their exits are recorded then, so that a destructor's
 * instrumented calls nest under the frame that runs it. _Unwind_GetCFA gives, at this point, the
 * stack pointer of F at its call site (the CFA of the frame below, in libgcc and LLVM libunwind
 * alike): every slot under it belongs to a frame below F. F itself is popped at the next frame
 * with a personality, or at the catch.
 */
RSYS_EXPORT int __gxx_personality_v0(int version, int actions, uint64_t exception_class, void *ue,
                                     void *context)
{
    rsys_personality_fn f = (rsys_personality_fn)rsys_real(RSYS_R_PERSONALITY);
    if (f == NULL) {
        rsys_missing(RSYS_R_PERSONALITY);
    }
    int rc = f(version, actions, exception_class, ue, context);
    if ((actions & 2) != 0 && (rc == 7 || rc == 8)) { /* _UA_CLEANUP_PHASE; INSTALL_CONTEXT, CONTINUE */
        rsys_get_cfa_fn cfa_of = (rsys_get_cfa_fn)rsys_real(RSYS_R_UNWIND_GET_CFA);
        uint64_t cfa = cfa_of != NULL ? cfa_of(context) : 0; /* F's stack pointer */
        if (cfa != 0) {
            rsys_instr_after_unwind(cfa, 0);
        }
    }
    return rc;
}

/* libstdc++'s __cxa_eh_globals: caught exceptions, then the uncaught count */
struct rsys_eh_globals {
    void *caught;
    unsigned int uncaught;
};

RSYS_EXPORT __attribute__((noinline)) void *__cxa_begin_catch(void *exc)
{
    rsys_begin_catch_fn f = (rsys_begin_catch_fn)rsys_real(RSYS_R_BEGIN_CATCH);
    if (f == NULL) {
        rsys_missing(RSYS_R_BEGIN_CATCH);
    }
    /* the catching frame's stack pointer: above this function's return address */
    uint64_t sp = (uint64_t)(uintptr_t)__builtin_frame_address(0) + 16u;
    void *r = f(exc);
    /* another exception still in flight (a catch inside a cleanup): its unwinder has yet to walk
     * the frames above, so they stay unhooked until its own catch */
    int rehook = 1;
    rsys_globals_fn g = (rsys_globals_fn)rsys_real(RSYS_R_GET_GLOBALS);
    if (g != NULL) {
        struct rsys_eh_globals *eh = (struct rsys_eh_globals *)g();
        rehook = eh == NULL || eh->uncaught == 0;
    }
    rsys_instr_after_unwind(sp, rehook);
    return r;
}

RSYS_EXPORT __attribute__((noreturn)) void pthread_exit(void *value)
{
    rsys_pthread_exit_fn f = (rsys_pthread_exit_fn)rsys_real(RSYS_R_PTHREAD_EXIT);
    if (f == NULL) {
        rsys_missing(RSYS_R_PTHREAD_EXIT);
    }
    /* libc unwinds the thread's stack with its own handle on libgcc_s: put the real addresses
     * back, and record the exits of every frame now (none of them returns) */
    rsys_instr_unhook_all();
    rsys_instr_after_unwind(UINT64_MAX, 0);
    f(value);
    __builtin_unreachable();
}

/* ---------------------------------------------------------------------------------------------
 * dlopen: modules it loads are discovered. This wrapper is the caller glibc sees (it would search
 * the agent's DT_RPATH / DT_RUNPATH), so for a bare name the real caller's paths are searched
 * first (agent_dlpath.c).
 */
typedef void *(*rsys_dlopen_fn)(const char *, int);

RSYS_EXPORT void *dlopen(const char *file, int mode)
{
    const void *caller = __builtin_return_address(0);
    rsys_dlopen_fn f = (rsys_dlopen_fn)rsys_real(RSYS_R_DLOPEN);
    if (f == NULL) {
        return NULL;
    }
    if (file != NULL && strchr(file, '/') == NULL && !(mode & RTLD_NOLOAD)) {
        void *h = f(file, mode | RTLD_NOLOAD); /* loaded already: by name, whatever the paths */
        if (h != NULL) {
            return h;
        }
        char path[PATH_MAX];
        if (rsys_dlopen_search(caller, file, path)) {
            h = f(path, mode);
            if (h != NULL) {
                rsys_instr_discover(0);
                rsys_lock_install();
                return h;
            }
        }
    }
    void *h = f(file, mode);
    if (h != NULL && file != NULL && !(mode & RTLD_NOLOAD)) {
        rsys_instr_discover(0);
        rsys_lock_install();
    }
    return h;
}

/* ---------------------------------------------------------------------------------------------
 * Sleeps and waits that a sampler signal must not cut short (issue 36, item 5). The kernel never
 * restarts these after a handler ran, SA_RESTART or not (signal(7)): a realtime sampler at 1 kHz
 * ended a program's usleep(100000) after a millisecond. When such a call fails with EINTR and the
 * calling thread took one of its own timer signals meanwhile (rsys_timers_own_signals), it is
 * called again for what is left of its original timeout; a signal of the program's own still
 * ends it with EINTR, as without the agent. (A program's signal landing in the same instant as a
 * sample lets the call go on, as SA_RESTART would have it.) Without sampler timers each wrapper is
 * the real call. glibc's sleep and usleep call its nanosleep internally, past this one: they are
 * wrapped as themselves, on this nanosleep.
 */
typedef int (*rsys_nanosleep_fn)(const struct timespec *, struct timespec *);
typedef int (*rsys_clock_nanosleep_fn)(clockid_t, int, const struct timespec *, struct timespec *);
typedef int (*rsys_poll_fn)(struct pollfd *, nfds_t, int);
typedef int (*rsys_select_fn)(int, fd_set *, fd_set *, fd_set *, struct timeval *);
typedef int (*rsys_epoll_wait_fn)(int, struct epoll_event *, int, int);
typedef int (*rsys_pause_fn)(void);
typedef int (*rsys_sigsuspend_fn)(const sigset_t *);

#define RSYS_NS 1000000000L

/* Whether the last EINTR came from the thread's own timer signals only (seen since `before`). */
static int rsys_sampler_interrupted(int rc, uint32_t before)
{
    return rc < 0 && errno == EINTR && rsys_timers_own_signals() != before;
}

static struct timespec rsys_ts_add(struct timespec a, const struct timespec *b)
{
    a.tv_sec += b->tv_sec;
    a.tv_nsec += b->tv_nsec;
    if (a.tv_nsec >= RSYS_NS) {
        a.tv_sec++;
        a.tv_nsec -= RSYS_NS;
    }
    return a;
}

/* Sleeps on `clock` until `deadline`, resuming after the sampler's signals: 0 or an error number;
 * on a program's signal (EINTR) `rem`, when given, holds what was left. */
static int rsys_sleep_until(clockid_t clock, const struct timespec *deadline, struct timespec *rem)
{
    rsys_clock_nanosleep_fn real = (rsys_clock_nanosleep_fn)rsys_real(RSYS_R_CLOCK_NANOSLEEP);
    if (real == NULL) {
        return ENOSYS;
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int e = real(clock, TIMER_ABSTIME, deadline, NULL);
        if (e != EINTR || rsys_timers_own_signals() == before) {
            if (e == EINTR && rem != NULL) {
                struct timespec now;
                clock_gettime(clock, &now);
                long long left = (long long)(deadline->tv_sec - now.tv_sec) * RSYS_NS +
                                 (deadline->tv_nsec - now.tv_nsec);
                if (left < 0) {
                    left = 0;
                }
                rem->tv_sec = (time_t)(left / RSYS_NS);
                rem->tv_nsec = (long)(left % RSYS_NS);
            }
            return e;
        }
    }
}

RSYS_EXPORT int nanosleep(const struct timespec *req, struct timespec *rem)
{
    rsys_nanosleep_fn real = (rsys_nanosleep_fn)rsys_real(RSYS_R_NANOSLEEP);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct timespec start;
    if (!rsys_timers_any() || req == NULL || clock_gettime(CLOCK_MONOTONIC, &start) != 0) {
        return real(req, rem); /* a NULL req fails there as it should (EFAULT) */
    }
    struct timespec asked = *req; /* before the call: rem may be req (sleep's is) */
    uint32_t before = rsys_timers_own_signals();
    int rc = real(&asked, rem);
    if (!rsys_sampler_interrupted(rc, before)) {
        return rc;
    }
    struct timespec deadline = rsys_ts_add(start, &asked); /* asked was valid: the call slept */
    int e = rsys_sleep_until(CLOCK_MONOTONIC, &deadline, rem);
    if (e != 0) {
        errno = e;
        return -1;
    }
    return 0;
}

RSYS_EXPORT int clock_nanosleep(clockid_t clock, int flags, const struct timespec *req, struct timespec *rem)
{
    rsys_clock_nanosleep_fn real = (rsys_clock_nanosleep_fn)rsys_real(RSYS_R_CLOCK_NANOSLEEP);
    if (real == NULL) {
        return ENOSYS;
    }
    int absolute = (flags & TIMER_ABSTIME) != 0;
    struct timespec start = {0, 0};
    if (!rsys_timers_any() || req == NULL || (!absolute && clock_gettime(clock, &start) != 0)) {
        return real(clock, flags, req, rem);
    }
    struct timespec asked = *req; /* before the call: rem may be req */
    uint32_t before = rsys_timers_own_signals();
    int e = real(clock, flags, &asked, rem);
    if (e != EINTR || rsys_timers_own_signals() == before) {
        return e;
    }
    struct timespec deadline = absolute ? asked : rsys_ts_add(start, &asked);
    return rsys_sleep_until(clock, &deadline, absolute ? NULL : rem);
}

RSYS_EXPORT int usleep(useconds_t usec)
{
    struct timespec ts = {(time_t)(usec / 1000000u), (long)(usec % 1000000u) * 1000L};
    return nanosleep(&ts, NULL);
}

RSYS_EXPORT unsigned int sleep(unsigned int seconds)
{
    struct timespec ts = {(time_t)seconds, 0};
    if (nanosleep(&ts, &ts) < 0) {
        return (unsigned int)ts.tv_sec + (ts.tv_nsec >= RSYS_NS / 2); /* glibc rounds so too */
    }
    return 0;
}

/* What is left of a timeout of `ms` milliseconds begun at `start` (rounded up; 0 when over). */
static int rsys_ms_left(const struct timespec *start, int ms)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    /* whole milliseconds spent, rounded down from the total: dividing the nanosecond difference
     * alone truncates a negative one towards zero and took up to 1 ms off the time left */
    long long spent_ns = (long long)(now.tv_sec - start->tv_sec) * RSYS_NS + (now.tv_nsec - start->tv_nsec);
    long long spent = spent_ns / 1000000LL;
    return spent >= ms ? 0 : (int)(ms - spent);
}

RSYS_EXPORT int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
    rsys_poll_fn real = (rsys_poll_fn)rsys_real(RSYS_R_POLL);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct timespec start;
    if (!rsys_timers_any() || timeout == 0 || clock_gettime(CLOCK_MONOTONIC, &start) != 0) {
        return real(fds, nfds, timeout);
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int left = timeout < 0 ? -1 : rsys_ms_left(&start, timeout);
        int rc = real(fds, nfds, left);
        if (!rsys_sampler_interrupted(rc, before) || left == 0) {
            return rc;
        }
    }
}

RSYS_EXPORT int epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout)
{
    rsys_epoll_wait_fn real = (rsys_epoll_wait_fn)rsys_real(RSYS_R_EPOLL_WAIT);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    struct timespec start;
    if (!rsys_timers_any() || timeout == 0 || clock_gettime(CLOCK_MONOTONIC, &start) != 0) {
        return real(epfd, events, maxevents, timeout);
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int left = timeout < 0 ? -1 : rsys_ms_left(&start, timeout);
        int rc = real(epfd, events, maxevents, left);
        if (!rsys_sampler_interrupted(rc, before) || left == 0) {
            return rc;
        }
    }
}

/* Linux's select leaves the sets as they were on EINTR and the timeout at what is left of it. */
RSYS_EXPORT int select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds, struct timeval *timeout)
{
    rsys_select_fn real = (rsys_select_fn)rsys_real(RSYS_R_SELECT);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    if (!rsys_timers_any()) {
        return real(nfds, readfds, writefds, exceptfds, timeout);
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int rc = real(nfds, readfds, writefds, exceptfds, timeout);
        if (!rsys_sampler_interrupted(rc, before)) {
            return rc;
        }
    }
}

/* pause and sigsuspend return only after a handler ran: one of the sampler's does not count. */
RSYS_EXPORT int pause(void)
{
    rsys_pause_fn real = (rsys_pause_fn)rsys_real(RSYS_R_PAUSE);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int rc = real();
        if (!rsys_timers_any() || !rsys_sampler_interrupted(rc, before)) {
            return rc;
        }
    }
}

RSYS_EXPORT int sigsuspend(const sigset_t *mask)
{
    rsys_sigsuspend_fn real = (rsys_sigsuspend_fn)rsys_real(RSYS_R_SIGSUSPEND);
    if (real == NULL) {
        errno = ENOSYS;
        return -1;
    }
    for (;;) {
        uint32_t before = rsys_timers_own_signals();
        int rc = real(mask);
        if (!rsys_timers_any() || !rsys_sampler_interrupted(rc, before)) {
            return rc;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * Locks (issue 38, item 3): pthread mutex, rwlock and spin-lock calls as pthread regions named
 * after the function (upstream's TRACE_THREAD_LOCKS, _RW_LOCKS and _SPIN_LOCKS). Locks are the
 * hottest calls a program makes, so these are not exported: with a family's bit in
 * ROCPROFSYS_AGENT_LOCK_CALLS the agent writes its wrappers into the GOT entries (JUMP_SLOT and
 * GLOB_DAT) of every loaded module but itself, libc and the dynamic linker, before main and after
 * each dlopen; without it nothing is patched and a lock costs what it costs without the agent.
 * Inside a wrapper the agent's own calls reach libc directly (its GOT is never patched).
 */
/* No rsys_is_ours() here (a getpid() system call per lock): as the user API's regions, a lock
 * region needs only a started agent; the wrappers are installed only in the agent's own process. */
static int rsys_lock_begins(const char *name)
{
    return __atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE) &&
           rsys_region_begin(ROCPROFSYS_CATEGORY_PTHREAD, name, 0);
}

#define RSYS_LOCK_WRAPPER(fn, type)                                                                \
    static int rsys_lock_##fn(type *lock)                                                          \
    {                                                                                              \
        int begun = rsys_lock_begins(#fn);                                                         \
        int rc = fn(lock);                                                                         \
        rsys_thread_call_ends(begun);                                                              \
        return rc;                                                                                 \
    }

RSYS_LOCK_WRAPPER(pthread_mutex_lock, pthread_mutex_t)
RSYS_LOCK_WRAPPER(pthread_mutex_unlock, pthread_mutex_t)
RSYS_LOCK_WRAPPER(pthread_mutex_trylock, pthread_mutex_t)
RSYS_LOCK_WRAPPER(pthread_rwlock_rdlock, pthread_rwlock_t)
RSYS_LOCK_WRAPPER(pthread_rwlock_wrlock, pthread_rwlock_t)
RSYS_LOCK_WRAPPER(pthread_rwlock_tryrdlock, pthread_rwlock_t)
RSYS_LOCK_WRAPPER(pthread_rwlock_trywrlock, pthread_rwlock_t)
RSYS_LOCK_WRAPPER(pthread_rwlock_unlock, pthread_rwlock_t)
RSYS_LOCK_WRAPPER(pthread_spin_lock, pthread_spinlock_t)
RSYS_LOCK_WRAPPER(pthread_spin_trylock, pthread_spinlock_t)
RSYS_LOCK_WRAPPER(pthread_spin_unlock, pthread_spinlock_t)

static const struct rsys_lock_hook {
    const char *name;
    void *wrapper;
    uint32_t family;
} rsys_lock_hooks[] = {
    {"pthread_mutex_lock", (void *)rsys_lock_pthread_mutex_lock, RSYS_LOCK_CALL_MUTEX},
    {"pthread_mutex_unlock", (void *)rsys_lock_pthread_mutex_unlock, RSYS_LOCK_CALL_MUTEX},
    {"pthread_mutex_trylock", (void *)rsys_lock_pthread_mutex_trylock, RSYS_LOCK_CALL_MUTEX},
    {"pthread_rwlock_rdlock", (void *)rsys_lock_pthread_rwlock_rdlock, RSYS_LOCK_CALL_RWLOCK},
    {"pthread_rwlock_wrlock", (void *)rsys_lock_pthread_rwlock_wrlock, RSYS_LOCK_CALL_RWLOCK},
    {"pthread_rwlock_tryrdlock", (void *)rsys_lock_pthread_rwlock_tryrdlock, RSYS_LOCK_CALL_RWLOCK},
    {"pthread_rwlock_trywrlock", (void *)rsys_lock_pthread_rwlock_trywrlock, RSYS_LOCK_CALL_RWLOCK},
    {"pthread_rwlock_unlock", (void *)rsys_lock_pthread_rwlock_unlock, RSYS_LOCK_CALL_RWLOCK},
    {"pthread_spin_lock", (void *)rsys_lock_pthread_spin_lock, RSYS_LOCK_CALL_SPIN},
    {"pthread_spin_trylock", (void *)rsys_lock_pthread_spin_trylock, RSYS_LOCK_CALL_SPIN},
    {"pthread_spin_unlock", (void *)rsys_lock_pthread_spin_unlock, RSYS_LOCK_CALL_SPIN},
};

static uint32_t rsys_lock_families; /* ROCPROFSYS_AGENT_LOCK_CALLS, read before main */

/* The modules whose calls stay unpatched: the agent itself, libc's family, the loader, the vDSO. */
static int rsys_lock_skipped(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    static const char *const skipped[] = {"librocprof-sys", "libc.so", "libpthread.so", "ld-linux",
                                          "linux-vdso", "libdl.so"};
    for (size_t i = 0; i < sizeof skipped / sizeof *skipped; i++) {
        if (strncmp(base, skipped[i], strlen(skipped[i])) == 0) {
            return 1;
        }
    }
    return 0;
}

/* glibc relocates the dynamic section's addresses in place; a loader that does not leaves them
 * relative to the module's base. */
static uintptr_t rsys_dyn_address(const struct dl_phdr_info *info, ElfW(Addr) v)
{
    return v < info->dlpi_addr ? info->dlpi_addr + v : v;
}

static void rsys_lock_patch_slot(const struct dl_phdr_info *info, uintptr_t slot, void *wrapper)
{
    if (*(void **)slot == wrapper) {
        return;
    }
    int relro = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_GNU_RELRO && slot >= start && slot < start + ph->p_memsz) {
            relro = 1;
        }
    }
    uintptr_t page = slot & ~(uintptr_t)(sysconf(_SC_PAGESIZE) - 1);
    size_t len = (size_t)sysconf(_SC_PAGESIZE);
    if (relro && mprotect((void *)page, len, PROT_READ | PROT_WRITE) != 0) {
        return;
    }
    __atomic_store_n((void **)slot, wrapper, __ATOMIC_RELEASE);
    if (relro) {
        mprotect((void *)page, len, PROT_READ);
    }
}

static void rsys_lock_patch_relocs(const struct dl_phdr_info *info, const ElfW(Rela) * rel,
                                   size_t bytes, const ElfW(Sym) * symtab, const char *strtab)
{
    for (size_t n = 0; n < bytes / sizeof *rel; n++) {
        uint32_t type = (uint32_t)ELF64_R_TYPE(rel[n].r_info);
        if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT) {
            continue;
        }
        const char *name = strtab + symtab[ELF64_R_SYM(rel[n].r_info)].st_name;
        if (strncmp(name, "pthread_", 8) != 0) {
            continue;
        }
        for (size_t h = 0; h < sizeof rsys_lock_hooks / sizeof *rsys_lock_hooks; h++) {
            if ((rsys_lock_families & rsys_lock_hooks[h].family) != 0 &&
                strcmp(name, rsys_lock_hooks[h].name) == 0) {
                rsys_lock_patch_slot(info, info->dlpi_addr + rel[n].r_offset,
                                     rsys_lock_hooks[h].wrapper);
            }
        }
    }
}

static int rsys_lock_patch_module(struct dl_phdr_info *info, size_t size, void *unused)
{
    (void)size;
    (void)unused;
    if (info->dlpi_name != NULL && info->dlpi_name[0] != 0 && rsys_lock_skipped(info->dlpi_name)) {
        return 0;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type != PT_DYNAMIC) {
            continue;
        }
        const ElfW(Dyn) *dyn = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        const ElfW(Sym) *symtab = NULL;
        const char *strtab = NULL;
        const ElfW(Rela) *jmprel = NULL, *rela = NULL;
        size_t jmprel_bytes = 0, rela_bytes = 0;
        for (; dyn->d_tag != DT_NULL; dyn++) {
            switch (dyn->d_tag) {
            case DT_SYMTAB: symtab = (const ElfW(Sym) *)rsys_dyn_address(info, dyn->d_un.d_ptr); break;
            case DT_STRTAB: strtab = (const char *)rsys_dyn_address(info, dyn->d_un.d_ptr); break;
            case DT_JMPREL: jmprel = (const ElfW(Rela) *)rsys_dyn_address(info, dyn->d_un.d_ptr); break;
            case DT_PLTRELSZ: jmprel_bytes = dyn->d_un.d_val; break;
            case DT_RELA: rela = (const ElfW(Rela) *)rsys_dyn_address(info, dyn->d_un.d_ptr); break;
            case DT_RELASZ: rela_bytes = dyn->d_un.d_val; break;
            default: break;
            }
        }
        if (symtab == NULL || strtab == NULL) {
            return 0;
        }
        if (jmprel != NULL) {
            rsys_lock_patch_relocs(info, jmprel, jmprel_bytes, symtab, strtab);
        }
        if (rela != NULL) {
            rsys_lock_patch_relocs(info, rela, rela_bytes, symtab, strtab);
        }
    }
    return 0;
}

/* Before main, and after each dlopen: every loaded module's lock calls of the families asked for. */
static void rsys_lock_install(void)
{
    /* one patcher at a time: two dlopens at once would race on a RELRO page's protection */
    static pthread_mutex_t patching = PTHREAD_MUTEX_INITIALIZER;
    if (rsys_lock_families != 0) {
        pthread_mutex_lock(&patching);
        dl_iterate_phdr(rsys_lock_patch_module, NULL);
        pthread_mutex_unlock(&patching);
    }
}

/*
 * With ROCPROFSYS_USE_OMPT on, OMP_TOOL_LIBRARIES names the OpenMP tool, which only an OMPT runtime
 * loads. GCC's libgomp has no OMPT: a program using it records no OpenMP regions, and is told so
 * once, before main (LLVM's libomp, which also answers to libgomp's ABI, exports __kmpc_fork_call).
 */
static void rsys_warn_ompt_without_runtime(void)
{
    const char *tools = getenv("OMP_TOOL_LIBRARIES");
    if (tools == NULL || strstr(tools, "librocprof-sys-ompt.so") == NULL) {
        return;
    }
    rsys_dlopen_fn f = (rsys_dlopen_fn)rsys_real(RSYS_R_DLOPEN);
    void *gomp = f != NULL ? f("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD) : NULL;
    if (gomp != NULL) {
        if (dlsym(gomp, "__kmpc_fork_call") == NULL) {
            dprintf(2, "[rocprof-sys] warning: ROCPROFSYS_USE_OMPT is on but this program's OpenMP "
                       "runtime is GCC's libgomp, which has no OpenMP tools interface (OMPT): its "
                       "OpenMP regions are not recorded (LLVM's libomp, e.g. clang -fopenmp, has it)\n");
        }
        dlclose(gomp);
    }
}

static void rsys_threading_before_main(void)
{
    rsys_warn_ompt_without_runtime();
    const char *v = getenv("ROCPROFSYS_AGENT_LOCK_CALLS");
    if (v != NULL && rsys_is_ours()) {
        rsys_lock_families = (uint32_t)strtoul(v, NULL, 10) &
                             (RSYS_LOCK_CALL_MUTEX | RSYS_LOCK_CALL_RWLOCK | RSYS_LOCK_CALL_SPIN);
    }
    rsys_lock_install();
}
