/* Messages of no elements at a NULL buffer, blocking and nonblocking: still messages, matched and
 * completed like any other. */
#include <mpi.h>
#include <stddef.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Request r;
    if (me == 0) {
        MPI_Send(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
        MPI_Isend(NULL, 0, MPI_INT, 1, 4, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else if (me == 1) {
        MPI_Recv(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Irecv(NULL, 0, MPI_INT, 0, 4, MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
