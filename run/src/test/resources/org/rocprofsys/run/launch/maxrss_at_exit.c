/* Preloaded: at exit, appends "<comm> <ru_maxrss in KB>" to the file $MAXRSS_LOG, so that a
 * program we did not write (gzip, sqlite3, python3) tells its own peak RSS as it sees it. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

__attribute__((destructor)) static void report(void) {
    const char *log = getenv("MAXRSS_LOG");
    if (log == NULL) {
        return;
    }
    char comm[64] = "?";
    int fd = open("/proc/self/comm", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t n = read(fd, comm, sizeof comm - 1);
        comm[n > 0 ? n : 0] = '\0';
        comm[strcspn(comm, "\n")] = '\0';
        close(fd);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    char line[128];
    int len = snprintf(line, sizeof line, "%s %ld\n", comm, ru.ru_maxrss);
    fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        ssize_t unused = write(fd, line, (size_t)len);
        (void)unused;
        close(fd);
    }
}
