/* Persistent requests on 4 ranks: a ring exchange set up once with MPI_Send_init and MPI_Recv_init and
 * started every round, alone (MPI_Start) and together (MPI_Startall), completed by MPI_Wait and
 * MPI_Waitall, then freed: what MpiRecordTest records and replays. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    double *out = malloc(4096 * sizeof(double));
    double *in = malloc(4096 * sizeof(double));
    MPI_Request rq[2];
    MPI_Recv_init(in, 4096, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &rq[0]);
    MPI_Send_init(out, 4096, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &rq[1]);
    for (int round = 0; round < 6; round++) {
        for (int i = 0; i < 4096; i++) out[i] = me * 1000 + round + i;
        if (round % 2 == 0) {
            MPI_Startall(2, rq);
            MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        } else {
            MPI_Start(&rq[0]);
            MPI_Start(&rq[1]);
            MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
            MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        }
        if (in[0] != left * 1000 + round) MPI_Abort(MPI_COMM_WORLD, 3);
    }
    MPI_Request_free(&rq[0]);
    MPI_Request_free(&rq[1]);
    free(out);
    free(in);
    MPI_Finalize();
    return 0;
}
