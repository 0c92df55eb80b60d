/* inherited_state [EXIT]: prints what this process inherited from whoever started it, one
 * "key value" a line (LaunchFidelityIT compares a bare run's with a profiled one's), and exits
 * with EXIT. "--with-state PROGRAM ARGS..." first sets a user's state (SIGUSR1 ignored, SIGUSR2
 * and SIGWINCH blocked, nice +2, RLIMIT_NOFILE soft 512) and execs the rest, as a shell could. */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

static const char *const LIMITS[] = {"cpu", "fsize", "data", "stack", "core", "rss", "nproc", "nofile",
                                     "memlock", "as", "locks", "sigpending", "msgqueue", "nice", "rtprio", "rttime"};

int main(int argc, char **argv) {
    if (argc > 2 && strcmp(argv[1], "--with-state") == 0) {
        signal(SIGUSR1, SIG_IGN);
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, SIGUSR2);
        sigaddset(&set, SIGWINCH);
        sigprocmask(SIG_BLOCK, &set, NULL);
        if (nice(2) == -1) {
            perror("nice");
        }
        struct rlimit rl;
        getrlimit(RLIMIT_NOFILE, &rl);
        rl.rlim_cur = 512;
        setrlimit(RLIMIT_NOFILE, &rl);
        execvp(argv[2], argv + 2);
        perror(argv[2]);
        return 127;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("maxrss_kb %ld\n", ru.ru_maxrss);
    sigset_t blocked;
    sigprocmask(SIG_BLOCK, NULL, &blocked);
    unsigned long long blk = 0, ign = 0;
    for (int sig = 1; sig < 65; sig++) {
        struct sigaction sa;
        if (sigismember(&blocked, sig) == 1) {
            blk |= 1ull << (sig - 1);
        }
        if (sigaction(sig, NULL, &sa) == 0 && sa.sa_handler == SIG_IGN) {
            ign |= 1ull << (sig - 1);
        }
    }
    printf("blocked %llx\nignored %llx\n", blk, ign);
    for (int r = 0; r < (int)(sizeof LIMITS / sizeof LIMITS[0]); r++) {
        struct rlimit rl;
        getrlimit(r, &rl);
        printf("limit_%s %lld %lld\n", LIMITS[r], (long long)rl.rlim_cur, (long long)rl.rlim_max);
    }
    printf("nice %d\n", getpriority(PRIO_PROCESS, 0));
    printf("pgrp %d\nsid %d\n", (int)getpgrp(), (int)getsid(0));
    printf("umask %o\n", (unsigned)umask(022));
    DIR *d = opendir("/proc/self/fd");
    printf("fds");
    for (struct dirent *e; d != NULL && (e = readdir(d)) != NULL;) {
        if (e->d_name[0] != '.' && atoi(e->d_name) != dirfd(d)) {
            char link[300], target[256] = "";
            snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
            ssize_t n = readlink(link, target, sizeof target - 1);
            target[n > 0 ? n : 0] = '\0';
            printf(" %s:%s", e->d_name, strncmp(target, "pipe:", 5) == 0 ? "pipe" : target);
        }
    }
    printf("\n");
    return argc > 1 ? atoi(argv[1]) : 0;
}
