/*
 * A thread's life in the agent: its ring (attached on its first record, or at once for a thread
 * created through the pthread_create wrapper, which gave it the next thread_seq at creation; main
 * is 0), its THREAD_START, its timers, and its THREAD_END, written by a thread-specific-data
 * destructor when the thread ends (return from its start routine or pthread_exit) before the ring
 * is marked ENDED. Threads the wrapper did not see get a seq on their first record. A ring slot
 * serves one thread at a time: once every slot has been used, a new thread takes an ended one's.
 */
#include "rsys_agent.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

/* key whose destructor records THREAD_END: set for every thread with a ring */
static pthread_key_t rsys_thread_key;
static int rsys_thread_key_ok;

static int rsys_write_thread_start(struct rsys_tls *t)
{
    rsys_refresh_clock_pair();
    uint64_t now = rsys_now();
    unsigned char *p = rsys_reserve(t, 24u, rsys_reserve_for(t, 0), RSYS_SLOW_WAIT);
    if (p == NULL) {
        rsys_count_drops(t, 1);
        return 0;
    }
    uint64_t *w = (uint64_t *)p;
    w[0] = rsys_record_word(RSYS_REC_THREAD_START, 24u, 0u);
    w[1] = now;
    int32_t *i = (int32_t *)(p + 16);
    i[0] = t->ring->tid;
    i[1] = t->seq;
    rsys_publish(t);
    return 1;
}

static struct rsys_ring_header *rsys_ring_at(uint32_t idx)
{
    return (struct rsys_ring_header *)((unsigned char *)rsys_g.hdr + RSYS_FILE_HEADER_SIZE +
                                       (uint64_t)idx * (RSYS_RING_HEADER_SIZE + rsys_g.ring_data_size));
}

/*
 * The slot of an ended thread (ENDED), taken by compare-and-swap so that two new threads never
 * share one. The new thread writes on after the ended one's THREAD_END, as the single producer it
 * hands over to (ENDED is stored after that record's head); the collector reads the records in
 * order and follows the thread ids of their THREAD_STARTs. A slot with room for the new thread's
 * first records is preferred: its THREAD_START then waits for no reader.
 */
static struct rsys_ring_header *rsys_take_ended(uint32_t slots)
{
    uint32_t start = __atomic_load_n(&rsys_g.reuse_cursor, __ATOMIC_RELAXED);
    struct rsys_ring_header *full = NULL;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t k = 0; k < slots; k++) {
            uint32_t idx = (start + k) % slots;
            struct rsys_ring_header *r = rsys_ring_at(idx);
            uint32_t s = __atomic_load_n(&r->state, __ATOMIC_ACQUIRE);
            if (s != RSYS_RING_ENDED) {
                continue;
            }
            uint64_t used = __atomic_load_n(&r->head, __ATOMIC_RELAXED) -
                            __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
            if (pass == 0 && used > rsys_g.ring_data_size / 2) {
                full = r;
                continue;
            }
            if (__atomic_compare_exchange_n(&r->state, &s, RSYS_RING_CLAIMING, 0, __ATOMIC_ACQ_REL,
                                            __ATOMIC_RELAXED)) {
                __atomic_store_n(&rsys_g.reuse_cursor, idx + 1, __ATOMIC_RELAXED);
                return r;
            }
        }
        if (full == NULL) {
            break; /* no ended thread's slot at all: every slot is held by a live thread */
        }
    }
    return NULL;
}

/*
 * A ring slot for a new thread: a fresh one while the file has some, else one an ended thread
 * left. So only more threads alive at once than slots leave a thread without a ring.
 */
static struct rsys_ring_header *rsys_claim_ring(int *taken_over)
{
    struct rsys_file_header *h = rsys_g.hdr;
    uint32_t slots = rsys_g.max_rings;
    if (__atomic_load_n(&h->rings_claimed, __ATOMIC_RELAXED) < slots) {
        uint32_t idx = __atomic_fetch_add(&h->rings_claimed, 1u, __ATOMIC_RELAXED);
        if (idx < slots) {
            return rsys_ring_at(idx);
        }
    }
    *taken_over = 1;
    return rsys_take_ended(slots);
}

int rsys_attach(struct rsys_tls *t)
{
    if (t->state == RSYS_TS_ENDED || !__atomic_load_n(&rsys_g.active, __ATOMIC_ACQUIRE)) {
        return 0;
    }
    if (t->state == RSYS_TS_NORING) {
        rsys_count_drops(t, 1);
        return 0;
    }
    int taken_over = 0;
    struct rsys_ring_header *r = rsys_claim_ring(&taken_over);
    if (r == NULL) {
        __atomic_fetch_add(&rsys_g.hdr->unringed_threads, 1u, __ATOMIC_RELAXED);
        t->state = RSYS_TS_NORING;
        rsys_count_drops(t, 1);
        return 0;
    }
    if (!t->has_seq) {
        t->seq = (int32_t)__atomic_fetch_add(&rsys_g.next_seq, 1u, __ATOMIC_RELAXED);
        t->has_seq = 1;
    }
    /* a taken-over slot goes on after its last thread's records; a fresh one from 0 */
    uint64_t start = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    uint64_t tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
    __atomic_store_n(&r->unpublished_head, 0, __ATOMIC_RELAXED);
    r->tid = (int32_t)syscall(SYS_gettid);
    r->thread_seq = t->seq;
    __atomic_store_n(&r->state, RSYS_RING_ACTIVE, __ATOMIC_RELEASE);

    uint32_t m = rsys_g.metrics;
    t->ring = r;
    t->data = (unsigned char *)r + RSYS_RING_HEADER_SIZE;
    t->mask = rsys_g.ring_data_size - 1;
    t->head = start;
    t->limit = tail + rsys_g.ring_data_size;
    t->unpublished = UINT64_MAX; /* a fork child's new ring: the parent's FUNC_ENTER is not in it */
    t->metrics = m;
    t->nmetrics = (uint32_t)__builtin_popcount(m);
    /* an END (16 + 8 per metric) plus a PAD shorter than it */
    t->unit = rsys_g.lossless ? 0 : 2u * (16u + 8u * t->nmetrics);
    t->depth = 0;
    t->fdepth = 0;
    t->skip = 0;
    t->stalled_tail = 0; /* a fork child's new ring: the parent's stall says nothing about it */
    t->main_open = 0;
    t->state = RSYS_TS_ACTIVE;
    if (rsys_thread_key_ok) {
        pthread_setspecific(rsys_thread_key, (void *)1);
    }
    if (!rsys_write_thread_start(t) && taken_over) {
        /* without its THREAD_START the thread's records would pass for the ended one's: the slot
         * goes back as it was (nothing was published) and the thread goes without a ring */
        __atomic_store_n(&r->state, RSYS_RING_ENDED, __ATOMIC_RELEASE);
        __atomic_fetch_add(&rsys_g.hdr->unringed_threads, 1u, __ATOMIC_RELAXED);
        t->data = NULL;
        t->state = RSYS_TS_NORING;
        return 0;
    }
    if (rsys_g.ncounters != 0) {
        rsys_counters_attach(t); /* before its timers: a sample finds the group open */
    }
    rsys_timers_thread_start(t);
    return 1;
}

void rsys_write_thread_end(struct rsys_tls *t)
{
    if (t->state != RSYS_TS_ACTIVE) {
        return;
    }
    t->nosample = 1; /* a sample signal still pending must not land after THREAD_END */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    rsys_timers_thread_stop();
    rsys_refresh_clock_pair();
    uint64_t now = rsys_now();
    unsigned char *p = rsys_reserve(t, 16u, 0, RSYS_SLOW_WAIT);
    if (p != NULL) {
        uint64_t *w = (uint64_t *)p;
        w[0] = rsys_record_word(RSYS_REC_THREAD_END, 16u, 0u);
        w[1] = now;
        rsys_publish(t);
    } else {
        rsys_count_drops(t, 1);
    }
    __atomic_store_n(&t->ring->state, RSYS_RING_ENDED, __ATOMIC_RELEASE);
    t->data = NULL;
    t->state = RSYS_TS_ENDED;
    if (rsys_g.ncounters != 0) {
        rsys_counters_close(t);
    }
}

static void rsys_thread_exit(void *unused)
{
    (void)unused;
    struct rsys_tls *t = &rsys_tls;
    if (t->state == RSYS_TS_ACTIVE) {
        rsys_write_thread_end(t);
    } else {
        t->state = RSYS_TS_ENDED;
    }
}

void rsys_threads_init(void)
{
    rsys_thread_key_ok = pthread_key_create(&rsys_thread_key, rsys_thread_exit) == 0;
}

void rsys_thread_enter(int32_t seq)
{
    struct rsys_tls *t = &rsys_tls;
    if (!t->has_seq) {
        t->seq = seq;
        t->has_seq = 1;
    }
    if (t->data == NULL) {
        rsys_attach(t); /* THREAD_START */
    }
}
