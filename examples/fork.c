/*
 * fork: parent and children both record regions, modelled on upstream's examples/fork.
 *
 * Demonstrates: fork() from worker threads (so the forking thread is not the main thread); each
 * child opens "child_process", runs a thread inside "child_process_child_thread" for a short
 * sleep, prints what it did and exits with status 0; the parent opens "launch_child" per child and
 * "wait_for_children" while it waits with waitpid. With the profiler, every child writes its own
 * ring file (forked_from = the parent's pid).
 *
 *   fork [nchildren=4] [nrepeat=1] [sleep_ms=100]   (child i sleeps (i+1)*sleep_ms)
 */
#include <rocprofiler-systems/user.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void print_info(const char *name)
{
    fflush(stdout);
    fflush(stderr);
    printf("[%s] pid = %i, ppid = %i\n", name, getpid(), getppid());
    fflush(stdout);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0) {
    }
}

struct launcher {
    const char *name;
    int index;
    long sleep_ms;
    pthread_barrier_t *barrier;
    volatile pid_t child;
};

static void *child_thread(void *p)
{
    long ms = *(long *)p;
    rocprofsys_user_push_region("child_process_child_thread");
    sleep_ms(ms);
    rocprofsys_user_pop_region("child_process_child_thread");
    return NULL;
}

static void *launch(void *p)
{
    struct launcher *l = (struct launcher *)p;
    pthread_barrier_wait(l->barrier);
    pid_t pid = fork();
    if (pid == 0) {
        /* child */
        print_info(l->name);
        printf("[%s][%i] child job starting...\n", l->name, getpid());
        long ms = (l->index + 1) * l->sleep_ms;
        rocprofsys_user_push_region("child_process");
        pthread_t th;
        pthread_create(&th, NULL, child_thread, &ms);
        pthread_join(th, NULL);
        rocprofsys_user_pop_region("child_process");
        printf("[%s][%i] child job complete\n", l->name, getpid());
        fflush(stdout);
        exit(EXIT_SUCCESS);
    }
    l->child = pid;
    pthread_barrier_wait(l->barrier);
    return NULL;
}

static int run(const char *name, int nchildren, long ms)
{
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, (unsigned)nchildren + 1);
    pthread_t *threads = calloc((size_t)nchildren, sizeof *threads);
    struct launcher *ls = calloc((size_t)nchildren, sizeof *ls);
    for (int i = 0; i < nchildren; ++i) {
        rocprofsys_user_push_region("launch_child");
        ls[i] = (struct launcher){name, i, ms, &barrier, 0};
        pthread_create(&threads[i], NULL, launch, &ls[i]);
        rocprofsys_user_pop_region("launch_child");
    }
    /* the launchers fork once this returns, then meet us again */
    fflush(stdout);
    pthread_barrier_wait(&barrier);
    pthread_barrier_wait(&barrier);

    rocprofsys_user_push_region("wait_for_children");
    int rc = 0;
    for (int i = 0; i < nchildren; ++i) {
        int status = 0;
        pid_t pid = ls[i].child;
        printf("[%s][%i] performing waitpid(%i, ...)\n", name, getpid(), pid);
        if (waitpid(pid, &status, 0) != pid) {
            perror("waitpid");
            rc = 1;
            continue;
        }
        if (WIFEXITED(status)) {
            printf("[%s][%i] child %i exited, status=%d\n", name, getpid(), pid,
                   WEXITSTATUS(status));
            if (WEXITSTATUS(status) != 0) rc = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
            printf("[%s][%i] child %i killed by signal %d\n", name, getpid(), pid,
                   WTERMSIG(status));
            rc = 1;
        }
    }
    printf("[%s][%i] joining threads ...\n", name, getpid());
    for (int i = 0; i < nchildren; ++i) {
        pthread_join(threads[i], NULL);
    }
    rocprofsys_user_pop_region("wait_for_children");
    pthread_barrier_destroy(&barrier);
    free(threads);
    free(ls);
    printf("[%s][%i] returning (error code: %i) ...\n", name, getpid(), rc);
    return rc;
}

int main(int argc, char **argv)
{
    int nfork = 4;
    int nrep = 1;
    long ms = 100;
    if (argc > 1) nfork = atoi(argv[1]);
    if (argc > 2) nrep = atoi(argv[2]);
    if (argc > 3) ms = atol(argv[3]);

    print_info(argv[0]);
    for (int i = 0; i < nrep; ++i) {
        int ec = run(argv[0], nfork, ms);
        if (ec != 0) return ec;
    }
    printf("[%s][%i] job complete\n", argv[0], getpid());
    return EXIT_SUCCESS;
}
