/*
 * Runs a command and reports, on stderr after it ends, the CPU time of the whole process tree it
 * waited for (getrusage RUSAGE_CHILDREN: the command and every descendant it reaped) and its wall
 * time. The overhead benchmark subtracts the target's own CPU time from it to get the profiler's.
 *
 *   cpu_of COMMAND ARGS...   stderr: "cpu_of: tree_cpu_ns=<ns> wall_ns=<ns>"; exits with the command's status
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char** argv)
{
    if(argc < 2)
    {
        fprintf(stderr, "usage: cpu_of COMMAND [ARGS...]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if(pid == 0)
    {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int status = 0;
    if(pid < 0 || waitpid(pid, &status, 0) < 0)
    {
        perror("cpu_of");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    struct rusage u;
    getrusage(RUSAGE_CHILDREN, &u);
    long long cpu = (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000LL +
                    (u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000LL;
    fprintf(stderr, "cpu_of: tree_cpu_ns=%lld wall_ns=%lld\n", cpu,
            (long long) (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
