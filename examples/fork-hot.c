/*
 * A parent and two forked children, each CPU-bound in a function of its own, for call-stack
 * sampling tests: samples of the children land under their own pids (the perf events are
 * inherited across fork). Built -O2 -fomit-frame-pointer (see Makefile).
 *
 *   fork-hot [units]      (default 200)
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile double sink;

__attribute__((noipa)) static double spin(long n, long salt)
{
    double x = 0;
    for(long i = 0; i < n; ++i)
        x += (double) ((i + salt) ^ 0x1e1e) / (double) (i + 1);
    return x;
}

__attribute__((noipa)) static void child_work(long units, int i) { sink = spin(units * 1000000, i); }
__attribute__((noipa)) static void parent_work(long units) { sink = spin(units * 1000000, 9); }

int main(int argc, char** argv)
{
    long  units = argc > 1 ? atol(argv[1]) : 200;
    pid_t kids[2];
    for(int i = 0; i < 2; ++i)
    {
        kids[i] = fork();
        if(kids[i] == 0)
        {
            child_work(units, i);
            printf("child %d done\n", i);
            fflush(stdout);
            _exit(0);
        }
    }
    parent_work(units);
    int status = 0;
    for(int i = 0; i < 2; ++i)
        waitpid(kids[i], &status, 0);
    printf("parent done\n");
    return 0;
}
