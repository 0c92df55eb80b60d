/*
 * The MPI library's state: whether each function records, how a call's region is written through
 * the agent, and the rank. MPI_Init, MPI_Init_thread, MPI_Finalize, MPI_Comm_rank and
 * MPI_Comm_size are wrapped here, always (also with ROCPROFSYS_USE_MPIP off), as upstream's
 * mpi_gotcha: once MPI_COMM_WORLD's rank and size are known the library writes one MPI_RANK record
 * and prints upstream's line "[pid=%i] MPI rank: %i (%i), MPI size: %i (%i)".
 */
#include "rsys_mpi.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rocprofiler-systems/categories.h"
#include "rocprofsys_wire.h"

#define RSYS_EXPORT __attribute__((visibility("default")))

typedef int (*region_fn)(rocprofsys_category_t, const char *, rocprofsys_annotation_t *, size_t);
typedef int (*record_fn)(uint32_t, uint32_t, const struct rocprofsys_gpu_part *, uint32_t);

static region_fn push_region;
static region_fn pop_region;
static record_fn write_record;

unsigned char rsys_mpi_records[RSYS_MPI_FUNCTIONS];

static const char *const function_names[RSYS_MPI_FUNCTIONS] = {
#define W(name, params, args, facts) "MPI_" #name,
#include "mpi_functions.def"
#undef W
};

/* A name of `list` (separated by spaces, commas, semicolons or quotes, as upstream delimits). */
static int listed(const char *list, const char *name)
{
    size_t len = strlen(name);
    const char *p = list;
    while (*p != '\0') {
        size_t skip = strspn(p, " \t\n,;\"'");
        p += skip;
        size_t word = strcspn(p, " \t\n,;\"'");
        if (word == len && strncmp(p, name, len) == 0) {
            return 1;
        }
        p += word;
    }
    return 0;
}

/* upstream reads the lists with its prefix applied twice; the single-prefix names are accepted too */
static const char *list_env(const char *single, const char *doubled)
{
    const char *v = getenv(doubled);
    if (v == NULL || *v == '\0') {
        v = getenv(single);
    }
    return v != NULL && *v != '\0' ? v : NULL;
}

static int env_false(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL || *v == '\0') {
        return 0;
    }
    static const char *const no[] = {"0", "false", "off", "no", "n", "f", "FALSE", "OFF", "NO", "False", "Off", "No"};
    for (size_t i = 0; i < sizeof no / sizeof no[0]; i++) {
        if (strcmp(v, no[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/*
 * Hydra's PMI descriptor (PMI_FD) does not reach the program through the collector, which starts
 * it with descriptors 0-2 only; the collector relays it on a loopback port instead (PmiRelay).
 * Before main, and so before MPI_Init reads them, the PMI variables say so: PMI_PORT and PMI_ID
 * in place of PMI_FD, as Hydra's -pmi-port would have set them.
 */
static void pmi_port_for_fd(void)
{
    const char *port = getenv("ROCPROFSYS_MPI_PMI_PORT");
    if (port == NULL || *port == '\0' || getenv("PMI_FD") == NULL) {
        return;
    }
    const char *rank = getenv("PMI_RANK");
    setenv("PMI_PORT", port, 1);
    setenv("PMI_ID", rank != NULL ? rank : "0", 1);
    unsetenv("PMI_FD");
    unsetenv("ROCPROFSYS_MPI_PMI_PORT"); /* the program's own children talk to Hydra as it says */
}

__attribute__((constructor)) static void rsys_mpi_init(void)
{
    pmi_port_for_fd();
    push_region = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_push_category_region");
    pop_region = (region_fn)dlsym(RTLD_DEFAULT, "rocprofsys_pop_category_region");
    write_record = (record_fn)dlsym(RTLD_DEFAULT, "rocprofsys_gpu_record");
    if (push_region == NULL || pop_region == NULL || env_false("ROCPROFSYS_USE_MPIP")) {
        return; /* no agent, or the wrappers are off: every call goes straight to PMPI */
    }
    const char *permit = list_env("ROCPROFSYS_MPIP_PERMIT_LIST", "ROCPROFSYS_ROCPROFSYS_MPIP_PERMIT_LIST");
    const char *reject = list_env("ROCPROFSYS_MPIP_REJECT_LIST", "ROCPROFSYS_ROCPROFSYS_MPIP_REJECT_LIST");
    for (int i = 0; i < RSYS_MPI_FUNCTIONS; i++) {
        int on = permit == NULL || listed(permit, function_names[i]);
        if (reject != NULL && listed(reject, function_names[i])) {
            on = 0;
        }
        rsys_mpi_records[i] = (unsigned char)on;
    }
}

int64_t rsys_mpi_bytes(int64_t count, MPI_Datatype type)
{
    int size = 0;
    if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) {
        return 0;
    }
    return count * size;
}

int32_t rsys_mpi_comm_size(struct rsys_mpi_call *c)
{
    if (c->comm_size <= 0 && c->comm != MPI_COMM_NULL) {
        int size = 0;
        if (PMPI_Comm_size(c->comm, &size) == MPI_SUCCESS) {
            c->comm_size = size;
        }
    }
    return c->comm_size;
}

/* this rank in the call's communicator, -1 where it has none */
int32_t rsys_mpi_rank(struct rsys_mpi_call *c)
{
    if (c->rank_in_comm < 0 && c->comm != MPI_COMM_NULL) {
        int rank = -1;
        if (PMPI_Comm_rank(c->comm, &rank) == MPI_SUCCESS) {
            c->rank_in_comm = rank;
        }
    }
    return c->rank_in_comm;
}

int rsys_mpi_is_root(struct rsys_mpi_call *c)
{
    int32_t rank = rsys_mpi_rank(c);
    return c->root == MPI_ROOT || (rank >= 0 && rank == c->root);
}

int64_t rsys_mpi_sum(struct rsys_mpi_call *c, const int counts[])
{
    int32_t n = rsys_mpi_comm_size(c);
    int64_t sum = 0;
    for (int32_t i = 0; counts != NULL && i < n; i++) {
        sum += counts[i] > 0 ? counts[i] : 0;
    }
    return sum;
}

static void annotate(rocprofsys_annotation_t *a, size_t *n, const char *name, uintptr_t type, void *value)
{
    a[*n].name = name;
    a[*n].type = type;
    a[*n].value = value;
    (*n)++;
}

void rsys_mpi_begin(const char *name, struct rsys_mpi_call *c)
{
    rocprofsys_annotation_t a[8];
    size_t n = 0;
    if (c->has & RSYS_MPI_HAS_COUNT) {
        annotate(a, &n, "count", ROCPROFSYS_VALUE_INT32, &c->count);
    }
    if (c->has & RSYS_MPI_HAS_PEER) {
        annotate(a, &n, "peer", ROCPROFSYS_VALUE_INT32, &c->peer);
    }
    if (c->has & RSYS_MPI_HAS_TAG) {
        annotate(a, &n, "tag", ROCPROFSYS_VALUE_INT32, &c->tag);
    }
    if (c->has & RSYS_MPI_HAS_ROOT) {
        annotate(a, &n, "root", ROCPROFSYS_VALUE_INT32, &c->root);
    }
    if ((c->has & RSYS_MPI_HAS_COMM) && rsys_mpi_comm_size(c) > 0) {
        annotate(a, &n, "comm_size", ROCPROFSYS_VALUE_INT32, &c->comm_size);
    }
    if (c->send_bytes > 0) {
        annotate(a, &n, "send_bytes", ROCPROFSYS_VALUE_INT64, &c->send_bytes);
    }
    if (c->recv_bytes > 0) {
        annotate(a, &n, "recv_bytes", ROCPROFSYS_VALUE_INT64, &c->recv_bytes);
    }
    push_region(ROCPROFSYS_CATEGORY_MPI, name, n != 0 ? a : NULL, n);
}

/* a plain end: the collector knows which open call set a comm_data track (CommDataCounters) */
void rsys_mpi_end(const char *name, const struct rsys_mpi_call *c)
{
    (void)c;
    pop_region(ROCPROFSYS_CATEGORY_MPI, name, NULL, 0);
}

/* ---- ranks ---- */

static int known_rank = -1;
static int known_size = -1;

static int verbosity(void)
{
    const char *v = getenv("ROCPROFSYS_VERBOSE");
    return v != NULL && *v != '\0' ? atoi(v) : 0;
}

/* MPI_COMM_WORLD's rank and size: the MPI_RANK record and upstream's line, once per change. */
static void note_world(void)
{
    int rank = -1, size = -1, flag = 0;
    if (PMPI_Initialized(&flag) != MPI_SUCCESS || !flag) {
        return;
    }
    if (PMPI_Comm_rank(MPI_COMM_WORLD, &rank) != MPI_SUCCESS || PMPI_Comm_size(MPI_COMM_WORLD, &size) != MPI_SUCCESS) {
        return;
    }
    int old_rank = __atomic_exchange_n(&known_rank, rank, __ATOMIC_ACQ_REL);
    int old_size = __atomic_exchange_n(&known_size, size, __ATOMIC_ACQ_REL);
    if (old_rank == rank && old_size == size) {
        return;
    }
    if (write_record != NULL) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        int32_t rs[2] = {rank, size};
        struct rocprofsys_gpu_part parts[2] = {{&now, sizeof now, 0}, {rs, sizeof rs, 0}};
        write_record(RSYS_REC_MPI_RANK, 0, parts, 2);
    }
    if (verbosity() >= 0) {
        fprintf(stderr, "[rocprof-sys][mpi] [pid=%i] MPI rank: %i (%i), MPI size: %i (%i)\n", (int)getpid(), rank,
                rank, size, size);
    }
}

/* The five always-wrapped calls record a region whenever an agent is there, USE_MPIP or not. */
static int always(void)
{
    return push_region != NULL && pop_region != NULL;
}

RSYS_EXPORT int MPI_Init(int *argc, char ***argv)
{
    struct rsys_mpi_call c = {.comm = MPI_COMM_NULL, .rank_in_comm = -1};
    if (always()) {
        rsys_mpi_begin("MPI_Init", &c);
    }
    int rc = PMPI_Init(argc, argv);
    if (always()) {
        rsys_mpi_end("MPI_Init", &c);
    }
    note_world();
    return rc;
}

RSYS_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    struct rsys_mpi_call c = {.comm = MPI_COMM_NULL, .rank_in_comm = -1};
    if (always()) {
        rsys_mpi_begin("MPI_Init_thread", &c);
    }
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (always()) {
        rsys_mpi_end("MPI_Init_thread", &c);
    }
    note_world();
    return rc;
}

RSYS_EXPORT int MPI_Finalize(void)
{
    struct rsys_mpi_call c = {.comm = MPI_COMM_NULL, .rank_in_comm = -1};
    if (always()) {
        rsys_mpi_begin("MPI_Finalize", &c);
    }
    int rc = PMPI_Finalize();
    if (always()) {
        rsys_mpi_end("MPI_Finalize", &c);
    }
    return rc;
}

RSYS_EXPORT int MPI_Comm_rank(MPI_Comm comm, int *rank)
{
    struct rsys_mpi_call c = {.comm = MPI_COMM_NULL, .rank_in_comm = -1};
    if (always()) {
        rsys_mpi_begin("MPI_Comm_rank", &c);
    }
    int rc = PMPI_Comm_rank(comm, rank);
    if (always()) {
        rsys_mpi_end("MPI_Comm_rank", &c);
    }
    if (comm == MPI_COMM_WORLD && __atomic_load_n(&known_rank, __ATOMIC_ACQUIRE) < 0) {
        note_world();
    }
    return rc;
}

RSYS_EXPORT int MPI_Comm_size(MPI_Comm comm, int *size)
{
    struct rsys_mpi_call c = {.comm = MPI_COMM_NULL, .rank_in_comm = -1};
    if (always()) {
        rsys_mpi_begin("MPI_Comm_size", &c);
    }
    int rc = PMPI_Comm_size(comm, size);
    if (always()) {
        rsys_mpi_end("MPI_Comm_size", &c);
    }
    return rc;
}
