/* Each rank allocates and frees a temporary 620000 times (1.24 M pairs over 2 ranks) around a
 * few messages from a buffer that lives throughout: the temporaries are never a message's. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    char *msg = malloc(4096);
    memset(msg, me, 4096);
    volatile long sum = 0;
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 155000; i++) {
            char *t = malloc(32 + (i % 2000));
            t[0] = (char) i;
            sum += t[0];
            free(t);
        }
        if (me == 0) MPI_Send(msg, 4096, MPI_BYTE, 1, round, MPI_COMM_WORLD);
        else if (me == 1) MPI_Recv(msg, 4096, MPI_BYTE, 0, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    free(msg);
    MPI_Finalize();
    return 0;
}
