/*
 * librocprof-sys-mpi-<implementation>.so: the MPI wrappers (inventory 8.1), preloaded by the
 * collector after librocprof-sys.so into programs that link an MPI library, and built once per
 * implementation against its own mpi.h (Open MPI's handles are pointers, MPICH's are ints).
 * They interpose the standard profiling interface: MPI_x records and calls PMPI_x. Every record
 * goes through the agent's exported API (rocprofsys_agent_api.h, rocprofsys_wire.h): regions of
 * category mpi with annotations, and one MPI_RANK record; nothing is processed here.
 */
#ifndef RSYS_MPI_H
#define RSYS_MPI_H

#include <stdint.h>

#include <mpi.h>

/* What one wrapped call says about itself: its annotations and comm_data bytes. */
struct rsys_mpi_call {
    int64_t send_bytes; /* bytes this rank hands to MPI to send (0: none) */
    int64_t recv_bytes; /* bytes this rank's buffers receive (0: none) */
    int32_t count;
    int32_t peer;
    int32_t tag;
    int32_t root;
    int32_t comm_size;
    uint32_t has; /* RSYS_MPI_HAS_* */
    MPI_Comm comm; /* for the _ALL / V byte forms and comm_size */
    int32_t rank_in_comm; /* for ROOTED, -1 until asked */
};

#define RSYS_MPI_HAS_COUNT 1u
#define RSYS_MPI_HAS_PEER 2u
#define RSYS_MPI_HAS_TAG 4u
#define RSYS_MPI_HAS_ROOT 8u
#define RSYS_MPI_HAS_COMM 16u

/* The wrapped functions' ids, in mpi_functions.def's order. */
enum rsys_mpi_function {
#define W(name, params, args, facts) RSYS_MPI_##name,
#include "mpi_functions.def"
#undef W
    RSYS_MPI_FUNCTIONS
};

/* 1 where the function records (USE_MPIP, the permit and reject lists, an agent to record with). */
extern unsigned char rsys_mpi_records[RSYS_MPI_FUNCTIONS];

void rsys_mpi_begin(const char *name, struct rsys_mpi_call *c);
void rsys_mpi_end(const char *name, const struct rsys_mpi_call *c);

/* Helpers of the table's facts. */
int64_t rsys_mpi_bytes(int64_t count, MPI_Datatype type);
int32_t rsys_mpi_comm_size(struct rsys_mpi_call *c);
int rsys_mpi_is_root(struct rsys_mpi_call *c);
int32_t rsys_mpi_rank(struct rsys_mpi_call *c);
int64_t rsys_mpi_sum(struct rsys_mpi_call *c, const int counts[]);

#endif
