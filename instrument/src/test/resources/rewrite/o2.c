/* -O2 test program for PlannedRewriteTest: prologues with RIP-relative operands, jump tables,
 * tail calls, recursion, longjmp, qsort callbacks, floating point. Deterministic. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int counter = 2;
static long table[64];
const char *names[] = {"alpha", "beta", "gamma", "delta"};
static jmp_buf jb;
static volatile int sink;

__attribute__((noinline)) int get_counter(void) { return counter * 3 + (int)table[5]; }
__attribute__((noinline)) void bump(int n) { counter += n; table[n & 63] += counter; }
__attribute__((noinline)) long fill(int n) {
    for (int i = 0; i < 64; i++) table[i] = (long)i * n + counter;
    long s = 0;
    for (int i = 0; i < 64; i++) s += table[i] ^ (s >> 3);
    return s;
}
__attribute__((noinline)) const char *name_of(unsigned i) { return names[i & 3]; }
__attribute__((noinline)) int classify(int x) {
    switch (x) {
    case 0: return 3; case 1: return 5; case 2: return 9; case 3: return 11;
    case 4: return 17; case 5: return 23; case 6: return 29; default: return -1;
    }
}
__attribute__((noinline)) double avg(const double *v, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += v[i];
    return n ? s / n : 0.0;
}
__attribute__((noinline)) double mix(double a, float b, int c, double d) { return a * b + c - d / 3.0; }
__attribute__((noinline)) int tail(int x) { return classify(x & 7); }
__attribute__((noinline)) int rec(int n) { return n < 2 ? n : rec(n - 1) + rec(n - 2); }
__attribute__((noinline)) void jumper(int n) {
    sink = n;
    if (n > 5) longjmp(jb, n);
    jumper(n + 1);
    sink = -1;
}
static int cmp(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}
__attribute__((noinline)) size_t total_len(int n) {
    size_t t = 0;
    for (int i = 0; i < n; i++) t += strlen(name_of((unsigned)i));
    return t;
}

int main(int argc, char **argv) {
    (void)argv;
    bump(argc);
    printf("fill=%ld counter=%d get=%d\n", fill(argc + 3), counter, get_counter());
    long v[32];
    for (int i = 0; i < 32; i++) v[i] = (i * 7919L) % 37 - 18;
    qsort(v, 32, sizeof v[0], cmp);
    printf("sorted %ld %ld %ld\n", v[0], v[16], v[31]);
    int cs = 0;
    for (int i = 0; i < 12; i++) cs += tail(i) * (i + 1);
    printf("classify=%d rec=%d\n", cs, rec(18));
    double d[10];
    for (int i = 0; i < 10; i++) d[i] = i * 1.25;
    printf("avg=%.4f mix=%.4f\n", avg(d, 10), mix(2.5, 1.5f, argc, 9.0));
    int r = setjmp(jb);
    if (r == 0) jumper(0);
    printf("longjmp=%d sink=%d\n", r, sink);
    printf("names=%zu %s\n", total_len(9), name_of(7));
    return (cs + r) & 0x7f;
}
