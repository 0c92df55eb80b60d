/*
 * An MPI program with known traffic for MpiIT, for 2 or more ranks (ranks 0 and 1 ping-pong):
 *   ping-pong  PINGS messages of PING_BYTES bytes from rank 0 to 1, each answered (MPI_Send/Recv)
 *   Allreduce  of REDUCE_DOUBLES doubles
 *   exchange   MPI_Isend/MPI_Irecv of EXCHANGE_INTS ints with the next/previous rank, MPI_Waitall
 *   one-sided  MPI_Put of PUT_INTS ints into the next rank's window between two MPI_Win_fence
 * and prints what it checked, so a run under the profiler can be compared with one without.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define PINGS 10
#define PING_BYTES 1000
#define REDUCE_DOUBLES 16
#define EXCHANGE_INTS 256
#define PUT_INTS 64

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    char ping[PING_BYTES];
    memset(ping, rank, sizeof ping);
    for (int i = 0; i < PINGS && rank < 2 && size >= 2; i++) {
        if (rank == 0) {
            MPI_Send(ping, PING_BYTES, MPI_CHAR, 1, i, MPI_COMM_WORLD);
            MPI_Recv(ping, PING_BYTES, MPI_CHAR, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(ping, PING_BYTES, MPI_CHAR, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(ping, PING_BYTES, MPI_CHAR, 0, i, MPI_COMM_WORLD);
        }
    }

    double in[REDUCE_DOUBLES], sum[REDUCE_DOUBLES];
    for (int i = 0; i < REDUCE_DOUBLES; i++) {
        in[i] = rank + i;
    }
    MPI_Allreduce(in, sum, REDUCE_DOUBLES, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    int out_ints[EXCHANGE_INTS], in_ints[EXCHANGE_INTS];
    for (int i = 0; i < EXCHANGE_INTS; i++) {
        out_ints[i] = rank * 1000 + i;
    }
    MPI_Request requests[2];
    int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    MPI_Irecv(in_ints, EXCHANGE_INTS, MPI_INT, prev, 7, MPI_COMM_WORLD, &requests[0]);
    MPI_Isend(out_ints, EXCHANGE_INTS, MPI_INT, next, 7, MPI_COMM_WORLD, &requests[1]);
    MPI_Status statuses[2];
    MPI_Waitall(2, requests, statuses);

    int window[PUT_INTS], mine[PUT_INTS];
    for (int i = 0; i < PUT_INTS; i++) {
        window[i] = -1;
        mine[i] = rank;
    }
    MPI_Win win;
    MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(mine, PUT_INTS, MPI_INT, next, 0, PUT_INTS, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);

    MPI_Barrier(MPI_COMM_WORLD);
    double expect = 0;
    for (int r = 0; r < size; r++) {
        expect += r + 1;
    }
    printf("rank %d of %d: allreduce[1] %s, exchange from %d %s, put from %d %s\n", rank, size,
           sum[1] == expect ? "ok" : "WRONG", prev, in_ints[5] == prev * 1000 + 5 ? "ok" : "WRONG", prev,
           window[3] == prev ? "ok" : "WRONG");
    MPI_Finalize();
    return 0;
}
