/*
 * The MPI_x -> PMPI_x wrappers of mpi_functions.def, one per row: a function that does not record
 * (rsys_mpi_records) costs one load and one branch before its PMPI call.
 */
#include "rsys_mpi.h"

#define RSYS_EXPORT __attribute__((visibility("default")))

/* the facts of a row, filling `c` */
#define COUNT(n) c.count = (int32_t)(n); c.has |= RSYS_MPI_HAS_COUNT;
#define PEER(p) c.peer = (int32_t)(p); c.has |= RSYS_MPI_HAS_PEER;
#define TAG(t) c.tag = (int32_t)(t); c.has |= RSYS_MPI_HAS_TAG;
#define ROOT(r) c.root = (int32_t)(r); c.has |= RSYS_MPI_HAS_ROOT;
#define COMM(x) c.comm = (x); c.has |= RSYS_MPI_HAS_COMM;
#define SEND(n, t) c.send_bytes += rsys_mpi_bytes((n), (t));
#define RECV(n, t) c.recv_bytes += rsys_mpi_bytes((n), (t));
/* one block per rank of the communicator */
#define SEND_ALL(n, t) c.send_bytes += rsys_mpi_bytes((int64_t)(n) * rsys_mpi_comm_size(&c), (t));
#define RECV_ALL(n, t) c.recv_bytes += rsys_mpi_bytes((int64_t)(n) * rsys_mpi_comm_size(&c), (t));
#define SENDV(counts, t) c.send_bytes += rsys_mpi_bytes(rsys_mpi_sum(&c, (counts)), (t));
#define RECVV(counts, t) c.recv_bytes += rsys_mpi_bytes(rsys_mpi_sum(&c, (counts)), (t));
/* what the root does, what the others do */
#define ROOTED(at_root, elsewhere) if (rsys_mpi_is_root(&c)) { at_root } else { elsewhere }

#define W(name, params, args, facts)                                                              \
    RSYS_EXPORT int MPI_##name params                                                             \
    {                                                                                             \
        if (!rsys_mpi_records[RSYS_MPI_##name]) {                                                 \
            return PMPI_##name args;                                                              \
        }                                                                                         \
        struct rsys_mpi_call c = {0};                                                             \
        c.comm = MPI_COMM_NULL;                                                                   \
        c.rank_in_comm = -1;                                                                      \
        facts                                                                                     \
        rsys_mpi_begin("MPI_" #name, &c);                                                         \
        int rc = PMPI_##name args;                                                                \
        rsys_mpi_end("MPI_" #name, &c);                                                           \
        return rc;                                                                                \
    }
#include "mpi_functions.def"
#undef W
