/*
 * An application with its own SIGPROF handler (as gprof's ITIMER_PROF, or a profiler, would have),
 * for the timer sampler's tests: the agent's CPU-time timers use SIGPROF too. It installs a
 * handler with sigaction and another with signal(), raises SIGPROF itself through kill(), checks
 * that its handlers ran each time and that sigaction reports its own handler back, and computes
 * in crunch() meanwhile. Prints "app handler calls=<n>" and exits 0 when all is as expected.
 *
 *   sigprof-app [rounds]   (default 30; one round is about 10 ms of CPU)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t calls, calls2;
static volatile double sink;

static void on_prof(int sig, siginfo_t* info, void* uc)
{
    (void) sig;
    (void) uc;
    if(info != NULL && info->si_code == SI_USER) ++calls;
}

static void on_prof2(int sig)
{
    (void) sig;
    ++calls2;
}

__attribute__((noinline)) static void crunch(void)
{
    for(long i = 0; i < 4000000; ++i)
        sink += (double) (i ^ 0x3c3c) / (double) (i + 1);
}

int main(int argc, char** argv)
{
    long             rounds = argc > 1 ? atol(argv[1]) : 30;
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_prof;
    sa.sa_flags     = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if(sigaction(SIGPROF, &sa, NULL) != 0) return 2;
    for(long r = 0; r < rounds; ++r)
    {
        crunch();
        if(r % 6 == 0) kill(getpid(), SIGPROF);
    }
    if(sigaction(SIGPROF, NULL, &old) != 0 || old.sa_sigaction != on_prof) return 3;
    signal(SIGPROF, on_prof2);
    kill(getpid(), SIGPROF);
    printf("app handler calls=%d+%d\n", (int) calls, (int) calls2);
    return calls == (rounds + 5) / 6 && calls2 == 1 ? 0 : 1;
}
