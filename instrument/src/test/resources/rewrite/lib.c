/* Shared library for ElfRewriterTest. */
#include <stdio.h>

static int counter;

int lib_fib(int n) { return n < 2 ? n : lib_fib(n - 1) + lib_fib(n - 2); }

int lib_add(int a, int b) {
    counter++;
    return a + b;
}

double lib_mix(double x, int n) { return x / n + counter; }

void lib_greet(const char *who) { printf("hello %s from lib (%d)\n", who, counter); }
