/*
 * rocprof-sys-launch: starts the profiled program as a shell would, for the launchers' JVM.
 *
 *   rocprof-sys-launch [--report DIR] [--gate] [--state STATE] -- PROGRAM ARGS...
 *
 * The JVM spawns this helper with the target's argv and environment as raw bytes (what the user
 * typed, not what the JVM's charset made of it) and without a working directory of its own: the
 * helper inherits the JVM's real one. It is linked statically, so the environment's LD_PRELOAD
 * (the agent) loads into the target only. The helper then fork()s the target and stays its parent:
 *
 *  - The target must see its own resources. Linux keeps a process's peak RSS (signal->maxrss)
 *    across exec and takes the replaced mm's high-water mark into it: a child the JVM spawns
 *    execs with the JVM's mm as its old mm and reads ~66 MB from getrusage. A child forked from
 *    this small helper starts a fresh signal struct and execs from the helper's ~1 MB mm.
 *  - The inherited state is the user's shell's, not the JVM's: the JVM changes signal
 *    dispositions and the mask, raises RLIMIT_NOFILE and holds descriptors of its own. The
 *    launcher script records the shell's (STATE, below) before it execs java.
 *  - --gate: the child stops itself (SIGSTOP) before its exec, so that perf events with
 *    enable_on_exec can be attached to its pid; the JVM sends SIGCONT.
 *  - --report DIR: DIR/launch.pid gets the target's pid as soon as it is forked, DIR/launch.exec
 *    the exec's outcome: 0, or its errno (EISDIR for a directory, as a shell says), and then the
 *    helper exits 126, or 127 when the program was not found. Each is written to a temporary
 *    name and renamed, so it is whole when seen. Without DIR the helper says the error itself.
 *
 * The helper waits for the target, ignoring the terminal's SIGINT and SIGQUIT as a shell does
 * (the target, in the same process group, gets them) and SIGHUP and SIGTERM (the JVM forwards
 * them to the target), and ends as the target did: the same exit code, or death by the same
 * signal (with no core dump of its own).
 *
 * STATE is comma-separated key=value: ign=<hex SigIgn>, blk=<hex SigBlk>, nice=<n>,
 * nofile=<soft limit or unlimited>, fds=<fd>:<fd>... (descriptors beyond 0-2 the shell passed).
 * Without it the target gets default dispositions, an empty mask and only descriptors 0-2.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_KEPT_FDS 256

extern char **environ;

struct state {
    uint64_t ignored;
    uint64_t blocked;
    int has_nice;
    int nice;
    int has_nofile;
    rlim_t nofile;
    int kept[MAX_KEPT_FDS];
    int nkept;
};

static void die(const char *what) {
    fprintf(stderr, "[rocprof-sys-launch] %s: %s\n", what, strerror(errno));
    _exit(127);
}

static void parse_state(const char *s, struct state *st) {
    char *copy = strdup(s);
    if (copy == NULL) {
        die("out of memory");
    }
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item != NULL; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        if (eq == NULL) {
            continue;
        }
        *eq = '\0';
        const char *v = eq + 1;
        if (strcmp(item, "ign") == 0) {
            st->ignored = strtoull(v, NULL, 16);
        } else if (strcmp(item, "blk") == 0) {
            st->blocked = strtoull(v, NULL, 16);
        } else if (strcmp(item, "nice") == 0 && *v != '\0') {
            st->has_nice = 1;
            st->nice = (int)strtol(v, NULL, 10);
        } else if (strcmp(item, "nofile") == 0 && *v != '\0') {
            st->has_nofile = 1;
            st->nofile = strcmp(v, "unlimited") == 0 ? RLIM_INFINITY : (rlim_t)strtoull(v, NULL, 10);
        } else if (strcmp(item, "fds") == 0) {
            char *end;
            for (const char *p = v; *p != '\0' && st->nkept < MAX_KEPT_FDS; p = *end == ':' ? end + 1 : end) {
                long fd = strtol(p, &end, 10);
                if (end == p) {
                    break;
                }
                if (fd > 2) {
                    st->kept[st->nkept++] = (int)fd;
                }
            }
        }
    }
    free(copy);
}

static int kept(const struct state *st, int fd) {
    for (int i = 0; i < st->nkept; i++) {
        if (st->kept[i] == fd) {
            return 1;
        }
    }
    return fd <= 2;
}

/* Closes every descriptor beyond 0-2 that the shell did not pass (the JVM's own). */
static void close_inherited(const struct state *st) {
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL) {
        for (int fd = 3; fd < 1024; fd++) {
            if (!kept(st, fd)) {
                close(fd);
            }
        }
        return;
    }
    int self = dirfd(d);
    int fds[4096];
    int n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < (int)(sizeof fds / sizeof fds[0]);) {
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9') {
            int fd = atoi(e->d_name);
            if (fd != self && !kept(st, fd)) {
                fds[n++] = fd;
            }
        }
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        close(fds[i]);
    }
}

/* In the child, before its exec: the shell's dispositions, mask, nice and descriptor limit. */
static void restore(const struct state *st) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    for (int sig = 1; sig < 65 && sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) {
            continue;
        }
        sa.sa_handler = (st->ignored >> (sig - 1)) & 1 ? SIG_IGN : SIG_DFL;
        sigaction(sig, &sa, NULL); /* fails only for the signals glibc reserves: left as they are */
    }
    if (st->has_nice) {
        errno = 0;
        int now = getpriority(PRIO_PROCESS, 0);
        if (errno == 0 && now != st->nice) {
            setpriority(PRIO_PROCESS, 0, st->nice); /* a lower nice needs privilege: then it stays */
        }
    }
    if (st->has_nofile) {
        struct rlimit rl;
        if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != st->nofile) {
            rl.rlim_cur = st->nofile;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
    }
}

static void set_mask(uint64_t bits) {
    sigset_t set;
    sigemptyset(&set);
    for (int sig = 1; sig < 65 && sig < NSIG; sig++) {
        if ((bits >> (sig - 1)) & 1) {
            sigaddset(&set, sig);
        }
    }
    sigprocmask(SIG_SETMASK, &set, NULL);
}

static int write_file(const char *dir, const char *name, const char *text) {
    char path[4096], tmp[4096];
    if (snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name) >= (int)sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return -1;
    }
    size_t len = strlen(text);
    int ok = write(fd, text, len) == (ssize_t)len;
    ok = close(fd) == 0 && ok;
    return ok && rename(tmp, path) == 0 ? 0 : -1;
}

/* Ends as the target did: its exit code, or death by its signal. */
static void end_like(int status) {
    if (WIFEXITED(status)) {
        _exit(WEXITSTATUS(status));
    }
    int sig = WTERMSIG(status);
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* a signal that does not kill (SIGCHLD...) ends it as a shell reports it */
}

int main(int argc, char **argv) {
    const char *report = NULL;
    const char *state_text = NULL;
    int gate = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--gate") == 0) {
            gate = 1;
        } else if (strcmp(argv[i], "--report") == 0 && i + 1 < argc) {
            report = argv[++i];
        } else if (strcmp(argv[i], "--state") == 0 && i + 1 < argc) {
            state_text = argv[++i];
        } else {
            fprintf(stderr, "[rocprof-sys-launch] unknown argument '%s'\n", argv[i]);
            return 127;
        }
    }
    if (i >= argc) {
        fprintf(stderr, "usage: rocprof-sys-launch [--report DIR] [--gate] [--state STATE] -- PROGRAM ARGS...\n");
        return 127;
    }
    char **command = argv + i;
    struct state st;
    memset(&st, 0, sizeof st);
    if (state_text != NULL) {
        parse_state(state_text, &st);
    }
    close_inherited(&st);

    /* as a shell waiting for a foreground command: the terminal's keys are for the target; and
     * the JVM forwards SIGTERM and SIGHUP to the target itself: the helper must stay until the
     * target ends, whose end is the one the JVM reads from it */
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
    signal(SIGHUP, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGCHLD, SIG_DFL);
    set_mask(0);

    int exec_error[2];
    if (pipe2(exec_error, O_CLOEXEC) != 0) {
        die("pipe");
    }
    pid_t child = fork();
    if (child < 0) {
        die("fork");
    }
    if (child == 0) {
        close(exec_error[0]);
        restore(&st);
        if (gate) {
            raise(SIGSTOP);
        }
        set_mask(st.blocked);
        execvp(command[0], command); /* PATH from the target's environment, which is ours */
        int err = errno;
        if (err == EACCES && strchr(command[0], '/') != NULL) {
            struct stat sb;
            if (stat(command[0], &sb) == 0 && S_ISDIR(sb.st_mode)) {
                err = EISDIR;
            }
        }
        ssize_t unused = write(exec_error[1], &err, sizeof err);
        (void)unused;
        _exit(err == ENOENT ? 127 : 126);
    }
    close(exec_error[1]);
    if (report != NULL) {
        char text[32];
        snprintf(text, sizeof text, "%d\n", (int)child);
        if (write_file(report, "launch.pid", text) != 0) {
            kill(child, SIGKILL);
            die("cannot write the target's pid");
        }
    }
    int err = 0;
    ssize_t got;
    do {
        got = read(exec_error[0], &err, sizeof err);
    } while (got < 0 && errno == EINTR);
    close(exec_error[0]);
    if (got != (ssize_t)sizeof err) {
        err = 0;
    }
    if (report != NULL) {
        char text[32];
        snprintf(text, sizeof text, "%d\n", err);
        write_file(report, "launch.exec", text);
    } else if (err != 0) {
        fprintf(stderr, "[rocprof-sys-launch] cannot execute '%s': %s\n", command[0], strerror(err));
    }
    int status;
    while (waitpid(child, &status, 0) < 0) {
        if (errno != EINTR) {
            die("waitpid");
        }
    }
    if (err != 0) {
        _exit(err == ENOENT ? 127 : 126);
    }
    end_like(status);
    return 0;
}
