/*
 * Two CPU-bound functions with a known share of the work, for call-stack sampling tests:
 * heavy() does 7 parts of every round, light() 3 parts, so about 70 % and 30 % of the samples
 * land in them. Built -O2 -fomit-frame-pointer (see Makefile) so that only DWARF CFI unwinds it.
 *
 *   hot-functions [rounds]      (default 40; one round is about 25 ms on a current core)
 */
#include <stdlib.h>

static volatile double sink;

/* noipa: each must stay a frame of its own under its own name (no inlining, cloning, folding of
 * the twins, or hoisting of a call gcc proves pure out of the loop) */
__attribute__((noipa)) static double heavy(long n, long seed)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += (double) ((i + seed) ^ 0x5a5a) / (double) (i + 1);
    return x;
}

__attribute__((noipa)) static double light(long n, long seed)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += (double) ((i + seed) ^ 0x3c3c) / (double) (i + 3);
    return x;
}

int main(int argc, char** argv)
{
    long       rounds = argc > 1 ? atol(argv[1]) : 40;
    const long unit   = 1000000;
    for(long r = 0; r < rounds; ++r)
    {
        sink += heavy(7 * unit, r);
        sink += light(3 * unit, r);
    }
    return 0;
}
