/*
 * segv: the target dies inside open regions; the profile must still hold everything recorded.
 *
 * Demonstrates: a second thread that is inside its own region ("background") when the process
 * dies, and nested user regions outer > middle > inner on the main thread. Then, inside "inner",
 * the process dies:
 *   segv [segv]   dereferences NULL (SIGSEGV)
 *   segv kill     kill(getpid(), SIGKILL)
 *   segv abort    abort() (SIGABRT)
 *   segv exit     exit(3) with the regions still open (a clean exit, for comparison)
 * No region is completed before the death: every slice in the trace is closed by the profiler.
 */
#include <rocprofiler-systems/user.h>

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_barrier_t ready;

static void *background(void *p)
{
    (void)p;
    rocprofsys_user_push_region("background");
    pthread_barrier_wait(&ready);
    for (;;) {
        pause(); /* still inside "background" when the process dies */
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "segv";
    setvbuf(stdout, NULL, _IONBF, 0);

    pthread_barrier_init(&ready, NULL, 2);
    pthread_t th;
    pthread_create(&th, NULL, background, NULL);
    pthread_barrier_wait(&ready); /* "background" is open on the other thread */

    rocprofsys_user_push_region("outer");
    rocprofsys_user_push_region("middle");
    rocprofsys_user_push_region("inner");
    printf("[%s][%i] dying by %s inside outer > middle > inner\n", argv[0], getpid(), mode);

    if (strcmp(mode, "kill") == 0) {
        kill(getpid(), SIGKILL);
    } else if (strcmp(mode, "abort") == 0) {
        abort();
    } else if (strcmp(mode, "exit") == 0) {
        exit(3);
    } else {
        volatile int *volatile p = NULL;
        *p = 42; /* SIGSEGV */
    }
    printf("[%s] still alive?\n", argv[0]);
    return 0;
}
