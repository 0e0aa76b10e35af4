/* A nonblocking collective, which the replay cannot carry: MpiRecordTest expects the recording refused. */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    double x[16] = {1}, y[16];
    MPI_Request r;
    MPI_Iallreduce(x, y, 16, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
