/* A function with a GCC cold part (work.cold at -O2), a static function: the CFI tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
__attribute__((cold, noinline)) void report(const char *what, int x) { fprintf(stderr, "bad %s %d\n", what, x); }
__attribute__((noinline)) long work(const int *a, int n, const char *tag) {
    long s = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(a[i] < 0, 0)) { report(tag, a[i]); s -= a[i] * 3L + strlen(tag); }
        else s += a[i] * (long) i;
    }
    return s;
}
static __attribute__((noinline)) long hidden_work(int n) { long s = 1; for (int i = 1; i < n; i++) s = s * 31 + i; return s; }
int main(int argc, char **argv) {
    int a[64];
    for (int i = 0; i < 64; i++) a[i] = i - argc;
    printf("%ld %ld\n", work(a, 64, argv[0]), hidden_work(argc + 100));
    return 0;
}
