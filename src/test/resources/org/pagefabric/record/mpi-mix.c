/* Every kind of call the recorder follows, on 4 ranks, with buffers on the heap, the stack, in static
 * data and in mappings of the program's own: what MpiRecordTest records and replays. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static double statics[4096];

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me, n;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    int right = (me + 1) % n, left = (me + n - 1) % n;

    /* point to point: nonblocking from any source, blocking, to itself and to nobody */
    double *a = malloc(8192 * sizeof(double));
    double *b = calloc(8192, sizeof(double));
    for (int i = 0; i < 8192; i++) a[i] = me + i;
    for (int round = 0; round < 5; round++) {
        MPI_Request rq[2];
        MPI_Irecv(b, 8192, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &rq[0]);
        MPI_Isend(a, 1000 * (round + 1), MPI_DOUBLE, right, 7, MPI_COMM_WORLD, &rq[1]);
        MPI_Waitall(2, rq, MPI_STATUSES_IGNORE);
        MPI_Send(a, 16, MPI_DOUBLE, left, 8, MPI_COMM_WORLD);
        MPI_Recv(b, 16, MPI_DOUBLE, right, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, 64, MPI_DOUBLE, right, 9, b, 64, MPI_DOUBLE, left, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(a, 4, MPI_DOUBLE, me, 10, b, 4, MPI_DOUBLE, me, 10, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(a, 4, MPI_DOUBLE, MPI_PROC_NULL, 11, MPI_COMM_WORLD);
        int flag = 0;
        MPI_Request t;
        MPI_Irecv(b, 32, MPI_DOUBLE, left, 12, MPI_COMM_WORLD, &t);
        MPI_Send(a, 32, MPI_DOUBLE, right, 12, MPI_COMM_WORLD);
        while (!flag) MPI_Test(&t, &flag, MPI_STATUS_IGNORE);
        a = realloc(a, (8192 + round * 1024) * sizeof(double));
    }

    /* collectives on the world, on the stack and in static data, and in place */
    double local[256], sum[256];
    for (int i = 0; i < 256; i++) local[i] = me * i;
    MPI_Allreduce(local, sum, 256, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, local, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, statics, 4096, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Bcast(statics, 100, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    MPI_Bcast(b, 2048, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    MPI_Reduce(local, sum, 256, MPI_DOUBLE, MPI_SUM, 3, MPI_COMM_WORLD);
    MPI_Reduce(a, b, 1024, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Allgather(local, 8, MPI_DOUBLE, b, 8, MPI_DOUBLE, MPI_COMM_WORLD);
    int counts[4], displs[4], scounts[4], sdispls[4];
    for (int i = 0; i < n; i++) {
        counts[i] = 10 * (i + 1);
        displs[i] = 64 * i;
        scounts[i] = 5 * (me + i + 1);
        sdispls[i] = 128 * i;
    }
    MPI_Allgatherv(a, counts[me], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Alltoall(a, 100, MPI_DOUBLE, b, 100, MPI_DOUBLE, MPI_COMM_WORLD);
    int rcounts[4], rdispls[4];
    for (int i = 0; i < n; i++) {
        rcounts[i] = 5 * (i + me + 1);
        rdispls[i] = 128 * i;
    }
    MPI_Alltoallv(a, scounts, sdispls, MPI_DOUBLE, b, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
    MPI_Gather(local, 16, MPI_DOUBLE, b, 16, MPI_DOUBLE, 1, MPI_COMM_WORLD);
    MPI_Scatter(a, 16, MPI_DOUBLE, local, 16, MPI_DOUBLE, 2, MPI_COMM_WORLD);
    MPI_Gatherv(a, counts[me], MPI_DOUBLE, b, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scan(local, sum, 32, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Reduce_scatter_block(a, b, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);

    /* communicators: a split into pairs and a duplicate, each used */
    MPI_Comm pair, dup;
    MPI_Comm_split(MPI_COMM_WORLD, me / 2, -me, &pair);
    MPI_Comm_dup(MPI_COMM_WORLD, &dup);
    MPI_Allreduce(local, sum, 64, MPI_DOUBLE, MPI_SUM, pair);
    MPI_Bcast(a, 512, MPI_DOUBLE, 1, pair);
    MPI_Barrier(dup);
    MPI_Comm_free(&pair);
    MPI_Comm_free(&dup);

    /* one-sided: a window in a mapping of the program's own, fence and lock epochs */
    size_t wlen = 1 << 16;
    double *wbase = mmap(NULL, wlen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    MPI_Win win;
    MPI_Win_create(wbase, wlen, sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(a, 256, MPI_DOUBLE, right, 256 * me, 256, MPI_DOUBLE, win);
    MPI_Get(b, 128, MPI_DOUBLE, left, 4096, 128, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(a, 64, MPI_DOUBLE, right, 6000, 64, MPI_DOUBLE, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_lock(MPI_LOCK_SHARED, left, 0, win);
    MPI_Put(a, 32, MPI_DOUBLE, left, 7000, 32, MPI_DOUBLE, win);
    MPI_Win_unlock(left, win);
    MPI_Win_free(&win);
    munmap(wbase, wlen);

    void *aligned;
    if (posix_memalign(&aligned, 4096, 1 << 20) == 0) {
        memset(aligned, 1, 1 << 20);
        MPI_Allreduce(MPI_IN_PLACE, aligned, 1 << 17, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        free(aligned);
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
