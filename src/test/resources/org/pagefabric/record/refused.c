/* Calls the replay cannot carry, one family per argument: the recording is refused where the
 * program makes the call, and the job stops there instead of sleeping on. */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "thread") == 0) {
        int provided;
        MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    } else {
        MPI_Init(&argc, &argv);
    }
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    static double buf[64], out[64];
    MPI_Win win = MPI_WIN_NULL;
    if (strcmp(what, "fetch") == 0 || strcmp(what, "rput") == 0 || strcmp(what, "pscw") == 0) {
        MPI_Win_create(buf, sizeof buf, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }
    if (strcmp(what, "file") == 0) {
        MPI_File f;
        MPI_File_open(MPI_COMM_WORLD, "/tmp/pagefabric-refused.dat", MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL,
                      &f);
    } else if (strcmp(what, "spawn") == 0) {
        MPI_Comm child;
        MPI_Comm_spawn("/bin/true", MPI_ARGV_NULL, 1, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &child,
                       MPI_ERRCODES_IGNORE);
    } else if (strcmp(what, "fetch") == 0) {
        MPI_Win_lock_all(0, win);
        MPI_Fetch_and_op(buf, out, MPI_DOUBLE, (me + 1) % n, 0, MPI_SUM, win);
    } else if (strcmp(what, "rput") == 0) {
        MPI_Request r;
        MPI_Win_lock_all(0, win);
        MPI_Rput(buf, 8, MPI_DOUBLE, (me + 1) % n, 0, 8, MPI_DOUBLE, win, &r);
    } else if (strcmp(what, "pscw") == 0) {
        MPI_Group g;
        MPI_Comm_group(MPI_COMM_WORLD, &g);
        MPI_Win_post(g, 0, win);
    }
    /* what a recording that is refused late would wait for */
    sleep(60);
    MPI_Finalize();
    return 0;
}
