/* Program linking lib.c's library, for ElfRewriterTest. */
#include <stdio.h>

int lib_fib(int n);
int lib_add(int a, int b);
double lib_mix(double x, int n);
void lib_greet(const char *who);

int local_twice(int x) { return lib_add(x, x); }

int main(void) {
    int s = 0;
    for (int i = 0; i < 10; i++) s = local_twice(s + i);
    printf("s=%d fib=%d mix=%.4f\n", s, lib_fib(12), lib_mix(10.0, 4));
    lib_greet("main");
    return s % 200;
}
