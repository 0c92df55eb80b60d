/* Test target of the DWARF unwinder: built -O2 -fomit-frame-pointer, the hot leaf runs 6 calls
 * under main (main -> level1 -> level2 -> level3 -> level4 -> level5 -> hot_leaf). Every level is
 * noipa (no inlining, cloning or tail calls across it) and does work of its own around its call,
 * with values live across the call, so it keeps a real frame with callee-saved registers; level3
 * also has a stack array so frames differ in size. Spins for argv[1] ms of its own CPU time (a
 * sample count that does not depend on the load of the machine), then prints
 * "pid=<pid> sink=<x>". */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define NOIPA __attribute__((noipa))

static volatile double sink;

NOIPA double hot_leaf(double x, long n) {
    for (long i = 0; i < n; i++) {
        x = x * 1.0000001 + 0.5 / (x + 1.0);
    }
    return x;
}

NOIPA double level5(double x, long n) {
    double a = x * 0.5, b = x + 3.0;
    double r = hot_leaf(x, n);
    return r + a * b;
}

NOIPA double level4(double x, long n) {
    long k = n ^ 0x55;
    double r = level5(x + 1.0, n);
    return r - (double) (k & 7);
}

NOIPA double level3(double x, long n) {
    volatile double buf[64];
    for (int i = 0; i < 64; i++) {
        buf[i] = x * i;
    }
    double r = level4(x, n);
    double s = 0;
    for (int i = 0; i < 64; i += 7) {
        s += buf[i];
    }
    return r + s * 1e-9;
}

NOIPA double level2(double x, long n, long m) {
    double acc = 0;
    for (long j = 0; j < m; j++) {
        acc += level3(x + (double) j, n);
    }
    return acc / (double) m;
}

NOIPA double level1(double x, long n) {
    double r = level2(x, n, 3);
    return r * 0.999 + x;
}

static long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

int main(int argc, char **argv) {
    long ms = argc > 1 ? atol(argv[1]) : 500;
    long until = now_ns() + ms * 1000000L;
    double x = 1.0;
    while (now_ns() < until) {
        x = level1(x, 100000) * 1e-3;
    }
    sink = x;
    printf("pid=%d sink=%g\n", (int) getpid(), x);
    return 0;
}
