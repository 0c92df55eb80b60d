/*
 * uses-lib: calls lib_work() of libdemo.so N times, for instrumenting a shared library.
 *
 *   uses-lib [N=12]
 */
#include <stdio.h>
#include <stdlib.h>

long lib_work(long x);

int main(int argc, char** argv)
{
    long n = argc > 1 ? atol(argv[1]) : 12;
    long s = 0;
    for(long i = 0; i < n; ++i)
        s += lib_work(i);
    printf("lib_work called %ld times, sum %ld\n", n, s);
    return 0;
}
