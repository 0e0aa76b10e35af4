/* Rank 1 polls a receive with MPI_Testany 100000 times and probes with MPI_Iprobe 1000 times before
 * it tells rank 0 to send, so every poll finds nothing; then rank 0 sends and rank 1 waits. */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, go = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double x[512] = {0};
    if (me == 0) {
        MPI_Recv(&go, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(x, 512, MPI_DOUBLE, 1, 4, MPI_COMM_WORLD);
    } else if (me == 1) {
        MPI_Request r;
        int index, flag;
        MPI_Irecv(x, 512, MPI_DOUBLE, 0, 4, MPI_COMM_WORLD, &r);
        for (int i = 0; i < 100000; i++) {
            MPI_Testany(1, &r, &index, &flag, MPI_STATUS_IGNORE);
            if (flag) MPI_Abort(MPI_COMM_WORLD, 5);
        }
        for (int i = 0; i < 1000; i++) {
            MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        }
        MPI_Send(&go, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
        MPI_Waitany(1, &r, &index, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
