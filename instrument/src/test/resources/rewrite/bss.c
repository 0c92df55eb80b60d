/* A program (or library, with -DLIB) with a large .bss and a TLS variable, for ElfRewriterTest. */
#include <stdio.h>
#include <string.h>

static char buf[16 << 20];
__thread int tv = 5;

int work(int n) {
    memset(buf, n, sizeof buf);
    return buf[12345] + buf[sizeof buf - 1] + tv;
}

#ifndef LIB
int main(void) {
    printf("work=%d\n", work(3));
    return 7;
}
#endif
