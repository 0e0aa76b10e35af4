/* Ping-pong of 8 B to 64 KiB between ranks 0 and 1, many iterations, with Iprobe polling: a
 * trace-size and streaming benchmark for record and replay. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank; MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int iters = argc > 1 ? atoi(argv[1]) : 100000;
    char *buf = malloc(1 << 16);
    memset(buf, rank, 1 << 16);
    for (int i = 0; i < iters; i++) {
        int len = 8 << (i % 14);
        if (rank == 0) {
            MPI_Send(buf, len, MPI_CHAR, 1, i % 7, MPI_COMM_WORLD);
            MPI_Recv(buf, len, MPI_CHAR, 1, i % 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == 1) {
            int flag = 0;
            while (!flag) MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            MPI_Recv(buf, len, MPI_CHAR, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, len, MPI_CHAR, 0, i % 7, MPI_COMM_WORLD);
        }
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
