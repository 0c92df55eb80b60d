/*
 * rocprof-sys wire protocol: the agent (C, inside the target) -> the collector (Java).
 * docs/wire-protocol.md explains it; org.rocprofsys.core.wire.WireFormat mirrors every constant
 * and offset here, and a round-trip test (agent/src/test/c/wire_roundtrip.c written from C, read
 * back in Java) keeps the two in agreement. Change one, change all three.
 *
 * Everything is little-endian, naturally aligned, and 8-byte aligned per record.
 */
#ifndef ROCPROFSYS_WIRE_H
#define ROCPROFSYS_WIRE_H

#include <stdint.h>

/* "RSYSWIR1" read as a little-endian u64 */
#define RSYS_WIRE_MAGIC UINT64_C(0x3152495753595352)
#define RSYS_WIRE_VERSION 1u

/* One file per process image: <session dir>/<pid>.<exec generation>.ring, mode 0600. */
#define RSYS_FILE_HEADER_SIZE 4096u
#define RSYS_RING_HEADER_SIZE 256u
#define RSYS_EXE_CAPACITY 512u
#define RSYS_CMDLINE_CAPACITY 3072u

/* Values of rsys_file_header.clock_kind */
#define RSYS_CLOCK_MONOTONIC_NS 0u /* record times are CLOCK_MONOTONIC nanoseconds */

/* Values of rsys_file_header.state; the collector trusts the header only from RUNNING on. */
#define RSYS_STATE_INITIALISING 0u
#define RSYS_STATE_RUNNING 1u
#define RSYS_STATE_EXITED 2u

/* Bits of rsys_file_header.flags */
#define RSYS_FLAG_LOSSLESS 1u /* a full ring makes the producer wait instead of dropping */

/* Bits of rsys_file_header.metrics and of a region record's metric flags */
#define RSYS_METRIC_THREAD_CPU 1u /* u64 CLOCK_THREAD_CPUTIME_ID ns */
#define RSYS_METRIC_RSS 2u        /* u64 current resident set size, bytes */
#define RSYS_METRIC_PEAK_RSS 4u   /* u64 peak resident set size, bytes */

struct rsys_file_header {
    uint64_t magic;              /*   0 RSYS_WIRE_MAGIC */
    uint32_t version;            /*   8 RSYS_WIRE_VERSION */
    uint32_t header_size;        /*  12 RSYS_FILE_HEADER_SIZE */
    uint32_t ring_header_size;   /*  16 RSYS_RING_HEADER_SIZE */
    uint32_t max_rings;          /*  20 ring slots in the file */
    uint64_t ring_data_size;     /*  24 data bytes per ring, a power of two */
    int32_t pid;                 /*  32 */
    int32_t ppid;                /*  36 */
    int32_t forked_from;         /*  40 parent pid when this image began as a fork child, else 0 */
    uint32_t exec_generation;    /*  44 0, then 1 after the first exec of this pid, ... */
    uint32_t clock_kind;         /*  48 RSYS_CLOCK_* */
    uint32_t flags;              /*  52 RSYS_FLAG_* */
    uint64_t init_time;          /*  56 record clock when the agent initialised */
    uint64_t init_realtime_ns;   /*  64 CLOCK_REALTIME at the same moment */
    uint32_t metrics;            /*  72 RSYS_METRIC_* the agent records with regions */
    uint32_t rings_claimed;      /*  76 atomic: slots taken so far (may exceed max_rings) */
    uint32_t state;              /*  80 atomic: RSYS_STATE_*, stored with release order */
    int32_t exit_code;           /*  84 when EXITED: the status passed to exit(), or -1 if unknown */
    uint64_t exit_time;          /*  88 record clock at exit, when EXITED */
    uint64_t unringed_drops;     /*  96 atomic: records lost by threads that found no free ring */
    uint32_t cmdline_size;       /* 104 bytes used in cmdline */
    uint32_t reserved0;          /* 108 */
    uint64_t reserved1[2];       /* 112 */
    char exe[RSYS_EXE_CAPACITY];         /* 128 NUL-terminated path of the executable */
    char cmdline[RSYS_CMDLINE_CAPACITY]; /* 640 argv, each NUL-terminated, cut at capacity */
    /* 3712 .. 4096 reserved */
};

/* Values of rsys_ring_header.state */
#define RSYS_RING_FREE 0u
#define RSYS_RING_ACTIVE 1u
#define RSYS_RING_ENDED 2u

/* Ring i lives at RSYS_FILE_HEADER_SIZE + i * (RSYS_RING_HEADER_SIZE + ring_data_size). */
struct rsys_ring_header {
    uint64_t head;         /*   0 atomic: bytes ever written; stored with release after the record */
    uint8_t pad0[56];
    uint64_t tail;         /*  64 atomic: bytes ever consumed; written by the collector only */
    uint8_t pad1[56];
    uint32_t state;        /* 128 atomic: RSYS_RING_*; ACTIVE stored with release after tid/seq */
    int32_t tid;           /* 132 kernel thread id */
    int32_t thread_seq;    /* 136 0 = main thread, then creation order (upstream "Thread N") */
    uint32_t reserved0;    /* 140 */
    uint64_t dropped;      /* 144 atomic: records dropped because the ring was full */
    uint8_t pad2[104];     /* 152 .. 256 */
};

/*
 * Records. Every record starts with this 8-byte header; size counts the header and is a multiple
 * of 8. A record never wraps: when it does not fit before the end of the data area, the producer
 * writes RSYS_REC_PAD there and the reader skips to the start of the next lap. A record becomes
 * visible only when head moves past it, so a crash never exposes half a record.
 */
struct rsys_record_header {
    uint16_t type;
    uint16_t size;
    uint32_t aux;
};

#define RSYS_REC_PAD 0u          /* skip to the next lap */
#define RSYS_REC_THREAD_START 1u /* u64 time, i32 tid, i32 thread_seq; aux 0 */
#define RSYS_REC_THREAD_END 2u   /* u64 time */
/*
 * u64 time, then one u64 per metric flag set (in bit order), then the NUL-terminated name padded
 * to 8. aux = category (bits 0-7) | metric flags << 8.
 */
#define RSYS_REC_REGION_BEGIN 3u
/* u64 time, then the metric u64s as for REGION_BEGIN. aux as for REGION_BEGIN. */
#define RSYS_REC_REGION_END 4u
/*
 * Attaches to the latest REGION_BEGIN or REGION_END of the same ring. aux = annotation type
 * (ROCPROFSYS_VALUE_* of categories.h). u64 value: signed integers sign-extended, unsigned ones
 * zero-extended, FLOAT32 and FLOAT64 both as the bits of a double, VOID_P the address, CSTR the
 * string's length without NUL. Then the NUL-terminated name, then for CSTR the NUL-terminated
 * value; padded to 8.
 */
#define RSYS_REC_ANNOTATION 5u
/* u64 time, NUL-terminated name padded to 8; aux = category. A progress point / instant. */
#define RSYS_REC_MARK 6u
/* u64 time, i32 child pid, i32 0 */
#define RSYS_REC_FORK 7u
/* u64 time; aux bit 0: 1 enable / 0 disable; bit 1: 1 whole process / 0 this thread */
#define RSYS_REC_TRACE_CONTROL 8u

#define RSYS_MAX_RECORD_SIZE 4096u /* longer names are cut */

/*
 * Environment of the target, set by the collector (internal, not user settings):
 *   ROCPROFSYS_SESSION_DIR      directory for the ring files; without it the agent stays dormant
 *   ROCPROFSYS_AGENT_RING_KB    data bytes per ring / 1024, rounded up to a power of two (default 1024)
 *   ROCPROFSYS_AGENT_MAX_THREADS ring slots per file (default 1024)
 *   ROCPROFSYS_AGENT_LOSSLESS   1: wait when a ring is full (default 0: drop and count)
 *   ROCPROFSYS_AGENT_METRICS    RSYS_METRIC_* bits recorded with regions (default 0)
 */

/* Bits of a TRACE_CONTROL record's aux (added with the agent; same meaning as described above) */
#define RSYS_TRACE_ENABLE 1u  /* 1 enable, 0 disable */
#define RSYS_TRACE_PROCESS 2u /* 1 whole process (this thread and later threads), 0 this thread */

/* Layout checks (added with the agent): the offsets above are the contract. */
#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#include <stddef.h>
_Static_assert(sizeof(struct rsys_file_header) == 3712, "file header fields end at 3712");
_Static_assert(sizeof(struct rsys_file_header) <= RSYS_FILE_HEADER_SIZE, "file header fits");
_Static_assert(offsetof(struct rsys_file_header, ring_data_size) == 24, "ring_data_size");
_Static_assert(offsetof(struct rsys_file_header, pid) == 32, "pid");
_Static_assert(offsetof(struct rsys_file_header, init_time) == 56, "init_time");
_Static_assert(offsetof(struct rsys_file_header, metrics) == 72, "metrics");
_Static_assert(offsetof(struct rsys_file_header, rings_claimed) == 76, "rings_claimed");
_Static_assert(offsetof(struct rsys_file_header, state) == 80, "state");
_Static_assert(offsetof(struct rsys_file_header, exit_code) == 84, "exit_code");
_Static_assert(offsetof(struct rsys_file_header, exit_time) == 88, "exit_time");
_Static_assert(offsetof(struct rsys_file_header, unringed_drops) == 96, "unringed_drops");
_Static_assert(offsetof(struct rsys_file_header, cmdline_size) == 104, "cmdline_size");
_Static_assert(offsetof(struct rsys_file_header, exe) == 128, "exe");
_Static_assert(offsetof(struct rsys_file_header, cmdline) == 640, "cmdline");
_Static_assert(sizeof(struct rsys_ring_header) == RSYS_RING_HEADER_SIZE, "ring header size");
_Static_assert(offsetof(struct rsys_ring_header, tail) == 64, "tail");
_Static_assert(offsetof(struct rsys_ring_header, state) == 128, "ring state");
_Static_assert(offsetof(struct rsys_ring_header, tid) == 132, "tid");
_Static_assert(offsetof(struct rsys_ring_header, thread_seq) == 136, "thread_seq");
_Static_assert(offsetof(struct rsys_ring_header, dropped) == 144, "dropped");
_Static_assert(sizeof(struct rsys_record_header) == 8, "record header");
_Static_assert(RSYS_MAX_RECORD_SIZE % 8 == 0 && RSYS_MAX_RECORD_SIZE <= 65535, "record size fits u16");
#endif

#endif
