/* Touches 24 MiB inside the region "grow" (user API) and prints its peak RSS as it sees it. */
#include <rocprofiler-systems/user.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

int main(void) {
    rocprofsys_user_push_region("grow");
    size_t n = 24u << 20;
    char *p = malloc(n);
    memset(p, 1, n);
    rocprofsys_user_pop_region("grow");
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("maxrss_kb %ld %d\n", ru.ru_maxrss, p[n / 2]);
    free(p);
    return 0;
}
