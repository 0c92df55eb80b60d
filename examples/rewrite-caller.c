/*
 * rewrite-caller: upstream's caller-include test program. main calls outer() N times and
 * outer() calls inner(); `rocprof-sys-instrument --caller-include "^inner"` forces outer (the
 * caller of inner) even below the instruction minimum.
 *
 *   rewrite-caller [N=10]     prints "number of calls made = N"
 */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) long inner(long x)
{
    long s = 0;
    for(long i = 0; i < x * 100; ++i)
        s += i ^ x;
    return s;
}

__attribute__((noinline)) long outer(long x) { return inner(x) + 1; }

int main(int argc, char** argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    long s = 0;
    for(long i = 0; i < n; ++i)
        s += outer(i);
    printf("number of calls made = %ld\n", n);
    printf("checksum = %ld\n", s);
    return 0;
}
