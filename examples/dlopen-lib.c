/*
 * dlopen-lib: loads libdemo.so (from its own folder) with dlopen after start-up and calls
 * lib_work() N times, for runtime instrumentation of libraries opened later.
 *
 *   dlopen-lib [N=7]
 */
#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
    long n = argc > 1 ? atol(argv[1]) : 7;
    char self[PATH_MAX];
    if(!realpath("/proc/self/exe", self)) return 2;
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/libdemo.so", dirname(self));
    void* lib = dlopen(path, RTLD_NOW);
    if(!lib)
    {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    long (*work)(long) = (long (*)(long)) dlsym(lib, "lib_work");
    long s             = 0;
    for(long i = 0; i < n; ++i)
        s += work(i);
    printf("dlopen'd lib_work called %ld times, sum %ld\n", n, s);
    return 0;
}
