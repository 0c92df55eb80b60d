/* Test program of org.rocprofsys.sampler.symbols: known functions, a line marker, an inlined helper. */
#include <stdio.h>
#include <string.h>

__attribute__((noipa)) int add_one(int x)
{
    return x * 7 + 1; /* LINE-ADD-ONE */
}

static __attribute__((noipa)) int local_helper(int x)
{
    return x ^ 0x55;
}

__attribute__((noipa)) long compute_sum(long n)
{
    long s = 0;
    for (long i = 0; i < n; i++) {
        s += (long)add_one((int)i) * i + local_helper((int)i);
    }
    return s;
}

static inline __attribute__((always_inline)) long inlined_helper(long v)
{
    long r = v * 3 + (v >> 2); /* LINE-INLINE */
    return r * r;
}

__attribute__((noipa)) long outer_with_inline(long v)
{
    volatile long r = inlined_helper(v); /* LINE-CALL-INLINE */
    return r + 1;
}

int main(int argc, char **argv)
{
    printf("FN add_one %p\n", (void *)&add_one);
    printf("FN compute_sum %p\n", (void *)&compute_sum);
    printf("FN outer_with_inline %p\n", (void *)&outer_with_inline);
    printf("FN main %p\n", (void *)&main);
    printf("FN puts %p\n", (void *)&puts);
    if (argc > 1 && strcmp(argv[1], "maps") == 0) {
        FILE *f = fopen("/proc/self/maps", "r");
        char line[4096];
        while (f && fgets(line, sizeof line, f)) {
            printf("MAP %s", line);
        }
        if (f) {
            fclose(f);
        }
    }
    return (int)((compute_sum(argc) + outer_with_inline(argc)) & 1);
}
