/* Rank 0 sends tag 1 (64 B), then tag 2 (64 KiB) to rank 1, which receives tag 2 first, then any
 * tag from any source: MPI matches by envelope, so the second receive takes the 64 B of tag 1. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    char *small = malloc(64), *big = malloc(65536);
    if (me == 0) {
        MPI_Request r[2];
        MPI_Isend(small, 64, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &r[0]);
        MPI_Isend(big, 65536, MPI_BYTE, 1, 2, MPI_COMM_WORLD, &r[1]);
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);
    } else if (me == 1) {
        MPI_Recv(big, 65536, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(small, 64, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(small);
    free(big);
    MPI_Finalize();
    return 0;
}
