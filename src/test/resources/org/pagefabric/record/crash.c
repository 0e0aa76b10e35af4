/* An MPI program whose rank 1 dies of a segmentation fault after MPI_Init. */
#include <mpi.h>
#include <signal.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 1) raise(SIGSEGV);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
