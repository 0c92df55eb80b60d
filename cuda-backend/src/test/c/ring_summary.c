/*
 * ring_summary <file.ring>...: what a ring file holds, for checking a live run on a machine
 * without Java (the GPU device). Per file: header, per ring its thread, head and drops, then counts
 * of records per type, of CUDA activity records per kind, kernels per name, memcpy kinds with
 * bytes, API calls per function, NVTX records per call. Reads rings that never wrapped only
 * (records from offset 0 to head): give the agent rings large enough.
 */
#include "rocprofsys_wire.h"

#include <cupti.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAXK 4096
struct count {
    char key[300];
    unsigned long n;
    unsigned long long bytes;
};
static struct count counts[MAXK];
static int ncounts;
static char api_names[3][1024][64];

/* for the medians: launch-call durations, kernel starts and durations (launch-loop runs) */
#define MAXV (1u << 21)
static uint64_t *launch_ns, *kernel_start, *kernel_ns;
static uint32_t nlaunch, nkernel;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t median(uint64_t *v, uint32_t n)
{
    if (n == 0) {
        return 0;
    }
    qsort(v, n, sizeof *v, cmp_u64);
    return v[n / 2];
}

static void add(const char *key, unsigned long long bytes)
{
    for (int i = 0; i < ncounts; i++) {
        if (strcmp(counts[i].key, key) == 0) {
            counts[i].n++;
            counts[i].bytes += bytes;
            return;
        }
    }
    if (ncounts < MAXK) {
        snprintf(counts[ncounts].key, sizeof counts[ncounts].key, "%s", key);
        counts[ncounts].n = 1;
        counts[ncounts].bytes = bytes;
        ncounts++;
    }
}

static void activity(const unsigned char *p, unsigned kind)
{
    uint32_t raw = *(const uint32_t *)p, nstr = *(const uint32_t *)(p + 4);
    const unsigned char *r = p + 8;
    const char *s0 = (const char *)(r + ((raw + 7) & ~7u));
    char key[300];
    switch (kind) {
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
        const CUpti_ActivityKernel10 *k = (const void *)r;
        snprintf(key, sizeof key, "kernel %s stream=%u", nstr ? s0 : "?", k->streamId);
        add(key, 0);
        snprintf(key, sizeof key, "kernel-ns %s", nstr ? s0 : "?");
        add(key, k->end - k->start);
        if (nkernel < MAXV) {
            kernel_start[nkernel] = k->start;
            kernel_ns[nkernel++] = k->end - k->start;
        }
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMCPY: {
        const CUpti_ActivityMemcpy6 *m = (const void *)r;
        snprintf(key, sizeof key, "memcpy kind=%u", m->copyKind);
        add(key, m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMSET: {
        const CUpti_ActivityMemset4 *m = (const void *)r;
        add("memset", m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_MEMORY2: {
        const CUpti_ActivityMemory4 *m = (const void *)r;
        snprintf(key, sizeof key, "memory2 op=%u kind=%u", m->memoryOperationType, m->memoryKind);
        add(key, m->bytes);
        break;
    }
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: {
        const CUpti_ActivitySynchronization2 *m = (const void *)r;
        snprintf(key, sizeof key, "sync type=%u", m->type);
        add(key, 0);
        break;
    }
    case CUPTI_ACTIVITY_KIND_DEVICE: {
        const CUpti_ActivityDevice5 *d = (const void *)r;
        snprintf(key, sizeof key, "device %u %s sms=%u mem=%llu", d->id, nstr ? s0 : "?",
                 d->numMultiprocessors, (unsigned long long)d->globalMemorySize);
        add(key, 0);
        break;
    }
    default:
        snprintf(key, sizeof key, "activity kind=%u raw=%u", kind, raw);
        add(key, 0);
    }
}

int main(int argc, char **argv)
{
    launch_ns = malloc(MAXV * sizeof(uint64_t));
    kernel_start = malloc(MAXV * sizeof(uint64_t));
    kernel_ns = malloc(MAXV * sizeof(uint64_t));
    for (int a = 1; a < argc; a++) {
        nlaunch = nkernel = 0;
        int fd = open(argv[a], O_RDONLY);
        struct stat st;
        if (fd < 0 || fstat(fd, &st) != 0) {
            perror(argv[a]);
            return 1;
        }
        unsigned char *f = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        const struct rsys_file_header *h = (const void *)f;
        printf("file %s pid %d state %u exit_code %d rings_claimed %u unringed %llu\n", argv[a], h->pid,
               h->state, h->exit_code, h->rings_claimed, (unsigned long long)h->unringed_drops);
        ncounts = 0;
        memset(api_names, 0, sizeof api_names);
        uint32_t n = h->rings_claimed < h->max_rings ? h->rings_claimed : h->max_rings;
        for (uint32_t i = 0; i < n; i++) {
            const unsigned char *ring = f + RSYS_FILE_HEADER_SIZE + (uint64_t)i * (RSYS_RING_HEADER_SIZE + h->ring_data_size);
            const struct rsys_ring_header *rh = (const void *)ring;
            const unsigned char *data = ring + RSYS_RING_HEADER_SIZE;
            printf("  ring %u tid %d seq %d head %llu dropped %llu%s\n", i, rh->tid, rh->thread_seq,
                   (unsigned long long)rh->head, (unsigned long long)rh->dropped,
                   rh->head > h->ring_data_size ? " (wrapped: not read)" : "");
            if (rh->head > h->ring_data_size) {
                continue;
            }
            for (uint64_t at = 0; at < rh->head;) {
                const struct rsys_record_header *r = (const void *)(data + at);
                if (r->type == RSYS_REC_PAD || r->size < 8) {
                    break;
                }
                const unsigned char *p = data + at + 8;
                char key[300];
                snprintf(key, sizeof key, "type %u", r->type);
                add(key, 0);
                if (r->type == RSYS_REC_CUDA_API_NAME && r->aux < 3 && *(const uint32_t *)p < 1024) {
                    snprintf(api_names[r->aux][*(const uint32_t *)p], 64, "%s", (const char *)(p + 8));
                } else if (r->type == RSYS_REC_CUDA_API && r->aux < 3) {
                    uint32_t cbid = *(const uint32_t *)(p + 16);
                    snprintf(key, sizeof key, "api %s %s%s", r->aux == 1 ? "driver" : "runtime",
                             cbid < 1024 ? api_names[r->aux][cbid] : "?", r->size > 32 ? " +args" : "");
                    add(key, 0);
                    if (r->aux == 2 && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000 && nlaunch < MAXV) {
                        launch_ns[nlaunch++] = *(const uint64_t *)(p + 8) - *(const uint64_t *)p;
                    }
                } else if (r->type == RSYS_REC_CUDA_NVTX) {
                    snprintf(key, sizeof key, "nvtx cbid=%u id=%s msg=%s", r->aux,
                             *(const uint64_t *)(p + 8) ? "yes" : "0", (const char *)(p + 24));
                    add(key, 0);
                } else if (r->type == RSYS_REC_CUDA_ACTIVITY) {
                    activity(p, r->aux);
                }
                at += r->size;
            }
        }
        for (int i = 0; i < ncounts; i++) {
            printf("    %-90s %8lu %llu\n", counts[i].key, counts[i].n, counts[i].bytes);
        }
        if (nkernel > 1) {
            qsort(kernel_start, nkernel, sizeof *kernel_start, cmp_u64);
            for (uint32_t i = 0; i + 1 < nkernel; i++) {
                kernel_start[i] = kernel_start[i + 1] - kernel_start[i];
            }
        }
        printf("  medians: cudaLaunchKernel call %llu ns (%u calls), kernel %llu ns, kernel start to "
               "start %llu ns (%u kernels)\n",
               (unsigned long long)median(launch_ns, nlaunch), nlaunch,
               (unsigned long long)median(kernel_ns, nkernel),
               (unsigned long long)median(kernel_start, nkernel > 0 ? nkernel - 1 : 0), nkernel);
        munmap(f, (size_t)st.st_size);
        close(fd);
    }
    return 0;
}
