/*
 * Agent instrumentation test, rewrite mode (rewritten.S: a module with its area and PT_NOTE
 * written by hand). Runs one scenario and prints key=value lines: calls.<function>=N (calls made
 * of each instrumented function), result values, and for fork the child's pid. The Java test
 * (InstrumentAgentTest) reads the ring files and checks the FUNC_ENTER/EXIT regions against them.
 *
 *   rewrite_test <scenario> [n]
 *   scenarios: basic, recurse <depth>, longjmp, tail, threads, texit, signals, vectors, fork, env,
 *              killed (SIGKILL inside rw_call), sigregions, bench [calls]
 * signals: rw_leaf from a SIGUSR1 handler on an alternate stack (another thread sends 300, 50 us
 * apart) while the main loop recurses; the handler's calls print as handler_calls (those that interrupted a hook
 * are not recorded, so the main calls are exact and the handler's at most that many).
 */
#include "rocprofsys_wire.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern int64_t rw_leaf(int64_t a, int64_t b);
extern int64_t rw_lea(void);
extern int64_t rw_recurse(int64_t n);
extern int64_t rw_tail(int64_t a, int64_t b);
extern int64_t rw_call(int64_t (*fn)(int64_t), int64_t arg);
extern int64_t rw_bench(int64_t x);
extern int64_t plain_bench(int64_t x);
extern double rw_fadd(double a, double b);
typedef double v4d __attribute__((vector_size(32)));
extern v4d rw_vadd(v4d a, v4d b) __attribute__((target("avx")));
extern int64_t rw_counter;

static long n_leaf, n_lea, n_recurse, n_tail, n_call;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "rewrite_test: wrong result: %s\n", what);
        exit(3);
    }
}

static void print_calls(const char *prefix)
{
    printf("%scalls.rw_leaf=%ld\n", prefix, n_leaf);
    printf("%scalls.rw_lea=%ld\n", prefix, n_lea);
    printf("%scalls.rw_recurse=%ld\n", prefix, n_recurse);
    printf("%scalls.rw_tail=%ld\n", prefix, n_tail);
    printf("%scalls.rw_call=%ld\n", prefix, n_call);
}

static void basic(void)
{
    check(rw_leaf(2, 3) == 5, "rw_leaf");
    n_leaf++;
    check(rw_lea() == 1 && rw_lea() == 2 && rw_counter == 2, "rw_lea");
    n_lea += 2;
    check(rw_recurse(3) == 3, "rw_recurse");
    n_recurse += 4;
}

static int64_t call_leaf(int64_t x)
{
    /* an unmatched pop of the user API inside an instrumented function: ignored, it must not
     * close the function's region */
    int (*pop)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "rocprofsys_pop_region");
    if (pop != NULL) {
        pop("not-pushed");
    }
    n_leaf++;
    return rw_leaf(x, 1);
}

/* ---- longjmp: two instrumented frames abandoned, then a call at the same depth ---- */
static jmp_buf env;

static int64_t jumper(int64_t x)
{
    longjmp(env, (int)x);
}

static int64_t inner(int64_t x)
{
    n_call++;
    return rw_call(jumper, x);
}

static int64_t lj_scenario(int64_t x)
{
    if (setjmp(env) == 0) {
        n_call++;
        rw_call(inner, x);
        check(0, "longjmp did not jump");
    }
    check(call_leaf(4) == 5, "leaf after longjmp");
    if (setjmp(env) == 0) {
        n_call++;
        rw_call(jumper, 9); /* again, one frame */
    }
    return 0;
}

/* ---- threads ---- */
/* no worker ends before all have made their calls: with fewer ring slots than the threads alive,
 * the last ones find none (a new thread takes only an ended thread's slot) */
static pthread_barrier_t workers_alive;

static void *worker(void *arg)
{
    long k = (long)(intptr_t)arg;
    int64_t sum = 0;
    for (int i = 0; i < 1000; i++) {
        sum += rw_leaf(i, k);
    }
    check(rw_recurse(100) == 100, "thread recurse");
    check(sum == 999 * 1000 / 2 + 1000 * k, "thread sum");
    pthread_barrier_wait(&workers_alive);
    return NULL;
}

/* ---- vector arguments and results through the hooks' slow paths (first call of a thread:
 * shadow-stack mapping, ring attach, THREAD_START: libc and the rest of the agent) ---- */
static volatile int vector_bad;

static void *vector_thread(void *arg)
{
    double k = (double)(intptr_t)arg;
    if (rw_fadd(k + 0.25, 1.5) != k + 1.75) { /* the thread's first instrumented call */
        vector_bad = 1;
    }
    return NULL;
}

__attribute__((target("avx"))) static void *avx_thread(void *arg)
{
    double k = (double)(intptr_t)arg;
    v4d a = {k, 1.0, 2.0, 3.0}, b = {0.5, 0.25, 0.125, 1e9};
    v4d c = rw_vadd(a, b); /* first call: the upper halves of ymm0/ymm1 must arrive */
    if (c[0] != k + 0.5 || c[1] != 1.25 || c[2] != 2.125 || c[3] != 3.0 + 1e9) {
        vector_bad = 1;
    }
    return NULL;
}

static void vectors(void)
{
    int avx = __builtin_cpu_supports("avx");
    for (long k = 0; k < 8; k++) {
        pthread_t th;
        pthread_create(&th, NULL, avx && (k & 1) ? avx_thread : vector_thread, (void *)(intptr_t)k);
        pthread_join(th, NULL);
    }
    check(!vector_bad, "vector arguments or results changed by the hooks");
    check(rw_fadd(2.0, 0.5) == 2.5, "rw_fadd");
    printf("calls.rw_fadd=%d\n", avx ? 5 : 9);
    printf("calls.rw_vadd=%d\n", avx ? 4 : 0);
}

/* ---- pthread_exit from inside instrumented frames ---- */
static int64_t exiter(int64_t x)
{
    (void)x;
    pthread_exit(NULL);
}

static void *texit_thread(void *arg)
{
    (void)arg;
    rw_leaf(1, 1);
    rw_call(exiter, 0); /* rw_call's frame never returns */
    return NULL;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- killed inside an instrumented call that calls no other: its FUNC_ENTER is unpublished ---- */
static int64_t killer(int64_t x)
{
    (void)x;
    print_calls("");
    fflush(stdout);
    raise(SIGKILL);
    return 0;
}

/* ---- instrumented calls from a signal handler on an alternate stack ---- */
static volatile long handler_calls;
static volatile int kicker_done;
static pthread_t main_thread;

static void on_usr1(int sig)
{
    (void)sig;
    rw_leaf(1, 2);
    handler_calls++;
}

static int kicks = 300;

static void *kicker(void *arg)
{
    (void)arg;
    for (int i = 0; i < kicks; i++) {
        pthread_kill(main_thread, SIGUSR1);
        usleep(50);
    }
    kicker_done = 1;
    return NULL;
}

static void signal_setup(void)
{
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sa.sa_flags = SA_ONSTACK | SA_RESTART;
    sigaction(SIGUSR1, &sa, NULL);
    main_thread = pthread_self();
}

static void signals(void)
{
    signal_setup();
    pthread_t th;
    pthread_create(&th, NULL, kicker, NULL);
    while (!kicker_done) {
        for (volatile int spin = 0; spin < 3000; spin++) {
            /* time outside the hooks, where most signals land */
        }
        check(rw_recurse(10) == 10, "recurse under signals");
        n_recurse += 11;
        check(rw_tail(1, 2) == 3, "tail under signals");
        n_tail++;
        n_leaf++;
    }
    pthread_join(th, NULL);
    printf("handler_calls=%ld\n", handler_calls);
}

/*
 * ---- instrumented calls from a signal handler while the main loop writes user regions ----
 * The handler's rw_leaf lands inside a region's record write now and then: it must not be hooked
 * there (its record would take the bytes the write has claimed).
 */
static void signal_regions(void)
{
    int (*push)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "rocprofsys_push_region");
    int (*pop)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "rocprofsys_pop_region");
    check(push != NULL && pop != NULL, "the agent's user API");
    signal_setup();
    kicks = 1000;
    pthread_t th;
    pthread_create(&th, NULL, kicker, NULL);
    long regions = 0;
    while (!kicker_done) {
        for (volatile int spin = 0; spin < 30; spin++) {
            /* a region pair about every 100-200 ns: a ring of tens of MB holds the run */
        }
        /*
         * at most 2 M pairs (48 bytes each: 96 MB, within the test's 128 MiB ring, which no
         * collector drains): a kicker slowed by a busy machine only spins the rest of the run
         */
        if (regions < 2000000) {
            push("sig_region");
            pop("sig_region");
            regions++;
        }
    }
    pthread_join(th, NULL);
    printf("handler_calls=%ld\n", handler_calls);
    printf("calls.sig_region=%ld\n", regions);
}

/* ---- fork inside an instrumented frame ---- */
static int64_t forker(int64_t x)
{
    (void)x;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        n_leaf = n_lea = n_recurse = n_tail = n_call = 0;
        for (int i = 0; i < 3; i++) {
            check(rw_leaf(i, 1) == i + 1, "child leaf");
            n_leaf++;
        }
        return -1; /* returns through the parent's hooked rw_call frame */
    }
    int status = 0;
    waitpid(pid, &status, 0);
    check(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child exit");
    return pid;
}


/*
 * Cost of an instrumented call (FUNC_ENTER + FUNC_EXIT written) against the same function
 * uninstrumented, in one run. Acts as the collector of its own ring (tail = head every 1024 calls)
 * so that the ring never fills and every record is really written. Best of 5, each minus nothing
 * (both loops have the same overhead). Needs the agent preloaded and ROCPROFSYS_SESSION_DIR.
 */
static volatile uint64_t *ring0_head, *ring0_tail, *ring0_dropped;

static void consume(void)
{
    if (ring0_head) {
        __atomic_store_n(ring0_tail, __atomic_load_n(ring0_head, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
    }
}

static int bench(long n)
{
    const char *dir = getenv("ROCPROFSYS_SESSION_DIR");
    if (dir != NULL) {
        /* this image's file: the highest exec generation of this pid (a launcher such as
         * timeout forks, and its child's image was generation 0 before it exec'd us) */
        char path[4096];
        int fd = -1;
        for (int gen = 0; gen < 16; gen++) {
            snprintf(path, sizeof path, "%s/%d.%d.ring", dir, (int)getpid(), gen);
            int next = open(path, O_RDWR);
            if (next < 0) {
                break;
            }
            if (fd >= 0) {
                close(fd);
            }
            fd = next;
        }
        if (fd >= 0) {
            unsigned char *m = mmap(NULL, RSYS_FILE_HEADER_SIZE + RSYS_RING_HEADER_SIZE,
                                    PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
            if (m != MAP_FAILED) {
                struct rsys_ring_header *r = (struct rsys_ring_header *)(m + RSYS_FILE_HEADER_SIZE);
                ring0_head = &r->head;
                ring0_tail = &r->tail;
                ring0_dropped = &r->dropped;
            }
            close(fd);
        }
    }
    int64_t acc = 0;
    for (long i = 0; i < 200000; i++) { /* warm up, the whole ring once */
        acc += rw_bench(i) + plain_bench(i);
        if ((i & 1023) == 0) {
            consume();
        }
    }
    double best_plain = 1e300, best_instr = 1e300, best_tsc = 1e300;
    for (int rep = 0; rep < 5; rep++) {
        consume();
#if defined(__x86_64__)
        /* the floor of a recorded call: its two time stamps, read back to back */
        uint64_t s0 = now_ns();
        for (long i = 0; i < n; i++) {
            uint64_t a = __builtin_ia32_rdtsc();
            uint64_t b = __builtin_ia32_rdtsc();
            __asm__ volatile("" ::"r"(a), "r"(b) : "memory");
            if ((i & 1023) == 0) {
                consume();
            }
        }
        double tsc = (double)(now_ns() - s0) / (double)n;
        best_tsc = tsc < best_tsc ? tsc : best_tsc;
#endif
        uint64_t t0 = now_ns();
        for (long i = 0; i < n; i++) {
            acc += plain_bench(i);
            if ((i & 1023) == 0) {
                consume();
            }
        }
        uint64_t t1 = now_ns();
        for (long i = 0; i < n; i++) {
            acc += rw_bench(i);
            if ((i & 1023) == 0) {
                consume();
            }
        }
        uint64_t t2 = now_ns();
        double plain = (double)(t1 - t0) / (double)n, instr = (double)(t2 - t1) / (double)n;
        best_plain = plain < best_plain ? plain : best_plain;
        best_instr = instr < best_instr ? instr : best_instr;
    }
    printf("bench.calls_per_run=%ld\n", n);
    printf("bench.plain_ns=%.2f\n", best_plain);
    printf("bench.instrumented_ns=%.2f\n", best_instr);
    printf("bench.added_ns=%.2f\n", best_instr - best_plain);
    printf("bench.two_rdtsc_ns=%.2f\n", best_tsc);
    printf("bench.ratio=%.1f\n", best_instr / best_plain);
    printf("bench.collector=%s\n", ring0_head ? "self" : "none");
    printf("bench.dropped=%llu\n", ring0_dropped ? (unsigned long long)*ring0_dropped : 0ull);
    printf("bench.acc=%lld\n", (long long)acc);
    return 0;
}

int main(int argc, char **argv)
{
    const char *s = argc > 1 ? argv[1] : "basic";
    if (strcmp(s, "basic") == 0) {
        basic();
    } else if (strcmp(s, "recurse") == 0) {
        long n = argc > 2 ? atol(argv[2]) : 10000;
        check(rw_recurse(n) == n, "deep recursion");
        n_recurse += n + 1;
    } else if (strcmp(s, "longjmp") == 0) {
        n_call++;
        rw_call(lj_scenario, 3);
    } else if (strcmp(s, "tail") == 0) {
        check(rw_tail(20, 22) == 42, "tail call");
        n_tail++;
        n_leaf++;
        n_call++;
        check(rw_call(call_leaf, 1) == 2, "call_leaf");
    } else if (strcmp(s, "threads") == 0) {
        pthread_t th[4];
        pthread_barrier_init(&workers_alive, NULL, 4);
        for (long k = 0; k < 4; k++) {
            pthread_create(&th[k], NULL, worker, (void *)(intptr_t)k);
        }
        for (int k = 0; k < 4; k++) {
            pthread_join(th[k], NULL);
        }
        n_leaf += 4000;
        n_recurse += 4 * 101;
        basic();
    } else if (strcmp(s, "vectors") == 0) {
        vectors();
    } else if (strcmp(s, "signals") == 0) {
        signals();
    } else if (strcmp(s, "texit") == 0) {
        pthread_t th;
        pthread_create(&th, NULL, texit_thread, NULL);
        pthread_join(th, NULL);
        n_leaf++;
        n_call++;
        basic();
    } else if (strcmp(s, "fork") == 0) {
        n_call++;
        int64_t pid = rw_call(forker, 0);
        if (pid == -1) {
            print_calls("child.");
            return 0;
        }
        printf("child.pid=%" PRId64 "\n", pid);
    } else if (strcmp(s, "env") == 0) {
        const char *v = getenv("RSYS_TEST_ENV_DEFAULT");
        printf("env=%s\n", v ? v : "");
        basic();
    } else if (strcmp(s, "sigregions") == 0) {
        signal_regions();
    } else if (strcmp(s, "killed") == 0) {
        basic();
        n_call++;
        rw_call(killer, 0); /* never returns */
    } else if (strcmp(s, "bench") == 0) {
        return bench(argc > 2 ? atol(argv[2]) : 2000000);
    } else {
        fprintf(stderr, "unknown scenario %s\n", s);
        return 2;
    }
    print_calls("");
    return 0;
}
