/* Rank 0 sends tags 7, 8 and 9; rank 1 takes them with MPI_Probe then MPI_Recv (any source, any
 * tag), MPI_Mprobe then MPI_Mrecv, and MPI_Improbe (polled) then MPI_Imrecv; it also posts a receive
 * of tag 99 that nobody sends, cancels it and checks that it was cancelled. */
#include <mpi.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    static double a[1000], b[2000], c[3000], d[10];
    if (me == 0) {
        MPI_Send(a, 1000, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
        MPI_Send(b, 2000, MPI_DOUBLE, 1, 8, MPI_COMM_WORLD);
        MPI_Send(c, 3000, MPI_DOUBLE, 1, 9, MPI_COMM_WORLD);
    } else if (me == 1) {
        MPI_Status s;
        MPI_Message m;
        MPI_Request r;
        int flag = 0;
        MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s);
        MPI_Recv(a, 1000, MPI_DOUBLE, s.MPI_SOURCE, s.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Mprobe(0, 8, MPI_COMM_WORLD, &m, MPI_STATUS_IGNORE);
        MPI_Mrecv(b, 2000, MPI_DOUBLE, &m, MPI_STATUS_IGNORE);
        while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 9, MPI_COMM_WORLD, &flag, &m, MPI_STATUS_IGNORE);
        MPI_Imrecv(c, 3000, MPI_DOUBLE, &m, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
        MPI_Irecv(d, 10, MPI_DOUBLE, MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &r);
        MPI_Cancel(&r);
        MPI_Wait(&r, &s);
        MPI_Test_cancelled(&s, &flag);
        if (!flag) MPI_Abort(MPI_COMM_WORLD, 6);
    }
    MPI_Finalize();
    return 0;
}
