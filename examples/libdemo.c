/* libdemo: a small shared library for instrumentation tests (see uses-lib.c). */
__attribute__((noinline)) long lib_work(long x)
{
    long s = 0;
    for(long i = 0; i < x * 10; ++i)
        s += (i * 7) ^ x;
    return s;
}
