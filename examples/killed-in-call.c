/*
 * killed-in-call: main calls step() N times, then last(), which kills the process with SIGKILL
 * before it returns. Neither calls another function of the program, so when both are instrumented
 * each call's entry is written unpublished, and last()'s stays that way: the profile must still
 * hold it (docs/wire-protocol.md, FUNC_CALL).
 *
 *   killed-in-call [N=10]
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((noinline)) long step(long x)
{
    long s = 0;
    for (long i = 0; i < 1000; ++i) {
        s += i ^ x;
    }
    return s;
}

__attribute__((noinline)) long last(long x)
{
    printf("killing itself inside last(%ld)\n", x);
    fflush(stdout);
    kill(getpid(), SIGKILL);
    return x;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    long s = 0;
    for (long i = 0; i < n; ++i) {
        s += step(i);
    }
    return (int)last(s);
}
