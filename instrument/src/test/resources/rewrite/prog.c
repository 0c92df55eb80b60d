/* Test program for ElfRewriterTest: deterministic output and exit code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static long sum_array(const long *a, int n) {
    long s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    return s;
}

double scale(double x, float y, int k) { return x * y * k; }

int many_args(int a, int b, int c, int d, int e, int f, int g, int h) { return a + b + c + d + e + f + g + h * 2; }

struct big { long v[8]; };

struct big make_big(long seed) {
    struct big b;
    for (int i = 0; i < 8; i++) b.v[i] = seed * i;
    return b;
}

void shout(const char *s) { printf("<%s>\n", s); }

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    long arr[16];
    for (int i = 0; i < 16; i++) arr[i] = (i * 7919) % 31;
    qsort(arr, 16, sizeof arr[0], cmp_long);
    printf("fib(15)=%d\n", fib(15));
    printf("sum=%ld first=%ld last=%ld\n", sum_array(arr, 16), arr[0], arr[15]);
    printf("scale=%.3f\n", scale(1.5, 2.25f, 3));
    printf("many=%d\n", many_args(1, 2, 3, 4, 5, 6, 7, 8));
    struct big b = make_big(argc + 2);
    printf("big=%ld %ld\n", b.v[1], b.v[7]);
    shout(argc > 1 ? argv[1] : "no-args");
    return fib(10); /* 55 */
}
