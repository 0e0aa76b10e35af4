/*
 * PageFabric's MPI recorder: preloaded into each rank of a real MPI program (LD_PRELOAD), it writes
 * what the rank did to $PAGEFABRIC_RECORD_DIR/pid-PID.log, one event a line, for
 * `pagefabric record` to merge into one trace (docs/TRACES.md, "Recording an MPI program").
 *
 * MPI calls are caught through the profiling interface (each MPI_X calls PMPI_X), memory calls by
 * defining malloc & co. and forwarding to the next definition (dlsym(RTLD_NEXT)). The library never
 * changes what a call does: it forwards the caller's arguments unchanged and only reads the results
 * (a status the caller asked to ignore is read from a local one).
 *
 * Lines (times in ns of CLOCK_MONOTONIC, addresses and lengths in hex, ranks, tags and counts in decimal):
 *   H pid                           the library loaded
 *   I t rank size                   MPI_Init returned
 *   m addr len | f addr | r old new len          malloc family, free, realloc
 *   M addr len | U addr len | R old oldlen new newlen | B brk    mmap (private anonymous), munmap, mremap, brk
 *                                   (memory lines carry no time: their order among the MPI lines is
 *                                   what the trace needs, and a clock read would double what a
 *                                   malloc costs)
 *   S t0 t1 call req comm addr len peer tag         a send posted (req 0: blocking; also each MPI_Start of a
 *                                                   persistent send; call '-': a further request of one MPI_Startall)
 *   V t0 t1 call req comm addr len peer tag         a receive posted (peer -2: any source, tag -1: any tag, both
 *                                                   resolved by the completion; a blocking receive's line is
 *                                                   written after it completed, with its status's source and tag)
 *   D t0 t1 call n [req src tag cancelled] x n      requests a completion call finished (src: world rank of a
 *                                                   receive's sender, tag: its status's tag, cancelled: 1 when
 *                                                   MPI_Cancel took the request back)
 *   E t0 t1 call n                                  n polls of call in a row that found nothing (a test that
 *                                                   completed no request, an Iprobe or Improbe without a message),
 *                                                   from the first one's start to the last one's end
 *   C t0 t1 call comm root saddr raddr m n [sendlen sendoff recvlen recvoff] x n   a collective (blocks per member for v-variants)
 *   K t0 t1 call parent new n w...                  a communicator created (new -1: MPI_COMM_NULL), its members' world ranks
 *   W t0 t1 call win comm base size unit            a window created
 *   P t0 t1 call win kind addr len target disp      a put (p), get (g) or accumulate (a)
 *   F t0 t1 call win target                         a synchronisation completing one-sided operations (target -1: all,
 *                                                   -2: none, a lock); Win_free completes all
 *   +  ...                                          the continuation of the line above, when it is long
 *   X t0 t1 call comm saddr slen dest stag raddr rlen src rtag   a send and a receive in one call (Sendrecv; rtag
 *                                                   and src from the status)
 *   Q t0 t1 call req                                a request freed before it completed (Request_free)
 *   N t0 t1 call                                    any other wrapped call (Comm_free, a persistent request's init,
 *                                                   a probe that found a message, MPI_Cancel)
 *   Y t call                                        a call the replay cannot carry; the rank then aborts the job
 *   T call count                                    the library's own tally of wrapped calls, written at MPI_Finalize
 *   Z t                                             MPI_Finalize
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TLS __thread __attribute__((tls_model("initial-exec")))

/* ---------------------------------------------------------------- output */

static int out_fd = -1;
static int enabled;
static pthread_mutex_t out_lock = PTHREAD_MUTEX_INITIALIZER;
static char out_buf[1 << 20];
static size_t out_len;
/* Set while this thread is inside the library's own work, so its allocations are not recorded. */
static TLS int busy;

static void out_flush_locked(void) {
    size_t done = 0;
    while (done < out_len) {
        ssize_t w = write(out_fd, out_buf + done, out_len - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            break;
        }
        done += (size_t) w;
    }
    out_len = 0;
}

static void out_line(const char *s, size_t n) {
    pthread_mutex_lock(&out_lock);
    if (out_fd >= 0) {
        if (out_len + n > sizeof out_buf) out_flush_locked();
        memcpy(out_buf + out_len, s, n);
        out_len += n;
    }
    pthread_mutex_unlock(&out_lock);
}

static void out_flush(void) {
    pthread_mutex_lock(&out_lock);
    if (out_fd >= 0) out_flush_locked();
    pthread_mutex_unlock(&out_lock);
}

/* A line under construction, on the stack: formatting never allocates. */
typedef struct { char b[512]; size_t n; } line_t;

static void l_c(line_t *l, char c) { if (l->n < sizeof l->b - 1) l->b[l->n++] = c; }
static void l_s(line_t *l, const char *s) { l_c(l, ' '); while (*s) l_c(l, *s++); }
static void l_u(line_t *l, unsigned long v) {
    char t[24]; int i = 0;
    l_c(l, ' ');
    do { t[i++] = (char) ('0' + v % 10); v /= 10; } while (v);
    while (i) l_c(l, t[--i]);
}
static void l_x(line_t *l, uintptr_t v) {
    static const char d[] = "0123456789abcdef";
    char t[20]; int i = 0;
    l_c(l, ' ');
    do { t[i++] = d[v & 15]; v >>= 4; } while (v);
    while (i) l_c(l, t[--i]);
}
static void l_end(line_t *l) { l->b[l->n++] = '\n'; out_line(l->b, l->n); }

static unsigned long now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long) ts.tv_sec * 1000000000UL + (unsigned long) ts.tv_nsec;
}

static void child_after_fork(void) {
    /* a child is another process: it must not write into its parent's file */
    out_fd = -1;
    enabled = 0;
}

static void open_output(void) {
    const char *dir = getenv("PAGEFABRIC_RECORD_DIR");
    if (dir == NULL || *dir == '\0') return;
    char path[4096];
    line_t l = {.n = 0};
    size_t dl = strlen(dir);
    if (dl > sizeof path - 64) return;
    memcpy(path, dir, dl);
    memcpy(path + dl, "/pid-", 5);
    l.n = 0;
    l_u(&l, (unsigned long) getpid());
    memcpy(path + dl + 5, l.b + 1, l.n - 1);
    memcpy(path + dl + 5 + l.n - 1, ".log", 5);
    out_fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0) return;
    pthread_atfork(NULL, NULL, child_after_fork);
    enabled = 1;
    line_t h = {.n = 0};
    l_c(&h, 'H');
    l_u(&h, (unsigned long) getpid());
    l_end(&h);
}

/* ---------------------------------------------------------------- memory */

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void *(*real_mmap)(void *, size_t, int, int, int, off_t);
static int (*real_munmap)(void *, size_t);
static void *(*real_mremap)(void *, size_t, size_t, int, ...);
static int (*real_brk)(void *);
static void *(*real_sbrk)(intptr_t);

/* dlsym may allocate before the real allocator is known: those blocks come from here and are never freed. */
static char boot_arena[1 << 16] __attribute__((aligned(64)));
static size_t boot_used;
static int resolving;

static void *boot_alloc(size_t n) {
    size_t at = (boot_used + 63) & ~(size_t) 63;
    if (at + n > sizeof boot_arena) return NULL;
    boot_used = at + n;
    return boot_arena + at;
}

static int from_boot(const void *p) {
    return (const char *) p >= boot_arena && (const char *) p < boot_arena + sizeof boot_arena;
}

static void resolve(void) {
    if (real_malloc != NULL || resolving) return;
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_free = dlsym(RTLD_NEXT, "free");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_mmap = dlsym(RTLD_NEXT, "mmap");
    real_munmap = dlsym(RTLD_NEXT, "munmap");
    real_mremap = dlsym(RTLD_NEXT, "mremap");
    real_brk = dlsym(RTLD_NEXT, "brk");
    real_sbrk = dlsym(RTLD_NEXT, "sbrk");
    real_malloc = dlsym(RTLD_NEXT, "malloc");
    resolving = 0;
}

static int recording(void) { return enabled && !busy; }

static void mem2(char kind, uintptr_t a, uintptr_t b) {
    line_t l = {.n = 0};
    l_c(&l, kind);
    l_x(&l, a);
    if (kind != 'f' && kind != 'B') l_x(&l, b);
    l_end(&l);
}

void *malloc(size_t n) {
    if (real_malloc == NULL) {
        resolve();
        if (real_malloc == NULL) return boot_alloc(n);
    }
    void *p = real_malloc(n);
    if (p != NULL && recording()) mem2('m', (uintptr_t) p, n);
    return p;
}

void *calloc(size_t k, size_t n) {
    if (real_calloc == NULL) {
        resolve();
        if (real_calloc == NULL) {
            void *p = boot_alloc(k * n);
            if (p) memset(p, 0, k * n);
            return p;
        }
    }
    void *p = real_calloc(k, n);
    if (p != NULL && recording()) mem2('m', (uintptr_t) p, k * n);
    return p;
}

void free(void *p) {
    if (p == NULL || from_boot(p)) return;
    if (real_free == NULL) resolve();
    if (recording()) mem2('f', (uintptr_t) p, 0);
    real_free(p);
}

void *realloc(void *old, size_t n) {
    if (from_boot(old)) {
        void *p = malloc(n);
        if (p) memcpy(p, old, n);
        return p;
    }
    if (real_realloc == NULL) resolve();
    void *p = real_realloc(old, n);
    if (recording() && (p != NULL || n == 0)) {
        line_t l = {.n = 0};
        l_c(&l, 'r');
        l_x(&l, (uintptr_t) old);
        l_x(&l, (uintptr_t) p);
        l_x(&l, n);
        l_end(&l);
    }
    return p;
}

int posix_memalign(void **out, size_t align, size_t n) {
    if (real_posix_memalign == NULL) resolve();
    int rc = real_posix_memalign(out, align, n);
    if (rc == 0 && recording()) mem2('m', (uintptr_t) *out, n);
    return rc;
}

void *aligned_alloc(size_t align, size_t n) {
    if (real_aligned_alloc == NULL) resolve();
    void *p = real_aligned_alloc(align, n);
    if (p != NULL && recording()) mem2('m', (uintptr_t) p, n);
    return p;
}

void *memalign(size_t align, size_t n) {
    if (real_memalign == NULL) resolve();
    void *p = real_memalign(align, n);
    if (p != NULL && recording()) mem2('m', (uintptr_t) p, n);
    return p;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    if (real_mmap == NULL) resolve();
    void *p = real_mmap(addr, len, prot, flags, fd, off);
    /* file-backed and shared mappings are the program and its libraries, not buffers an allocator makes */
    if (p != MAP_FAILED && (flags & MAP_ANONYMOUS) && (flags & MAP_PRIVATE) && recording()) {
        mem2('M', (uintptr_t) p, len);
    }
    return p;
}

int munmap(void *addr, size_t len) {
    if (real_munmap == NULL) resolve();
    int rc = real_munmap(addr, len);
    if (rc == 0 && recording()) mem2('U', (uintptr_t) addr, len);
    return rc;
}

void *mremap(void *old, size_t oldlen, size_t newlen, int flags, ...) {
    if (real_mremap == NULL) resolve();
    void *p;
    if (flags & MREMAP_FIXED) {
        __builtin_va_list ap;
        __builtin_va_start(ap, flags);
        void *want = __builtin_va_arg(ap, void *);
        __builtin_va_end(ap);
        p = real_mremap(old, oldlen, newlen, flags, want);
    } else {
        p = real_mremap(old, oldlen, newlen, flags);
    }
    if (p != MAP_FAILED && recording()) {
        line_t l = {.n = 0};
        l_c(&l, 'R');
        l_x(&l, (uintptr_t) old);
        l_x(&l, oldlen);
        l_x(&l, (uintptr_t) p);
        l_x(&l, newlen);
        l_end(&l);
    }
    return p;
}

int brk(void *addr) {
    if (real_brk == NULL) resolve();
    int rc = real_brk(addr);
    if (rc == 0 && recording()) mem2('B', (uintptr_t) addr, 0);
    return rc;
}

void *sbrk(intptr_t inc) {
    if (real_sbrk == NULL) resolve();
    void *old = real_sbrk(inc);
    if (old != (void *) -1 && inc != 0 && recording()) mem2('B', (uintptr_t) old + (uintptr_t) inc, 0);
    return old;
}

/* ---------------------------------------------------------------- MPI bookkeeping */

enum {
    C_SEND, C_SSEND, C_RSEND, C_BSEND, C_ISEND, C_ISSEND, C_IRSEND, C_IBSEND, C_RECV, C_IRECV, C_SENDRECV,
    C_SENDRECV_REPLACE, C_WAIT, C_WAITALL, C_WAITANY, C_WAITSOME, C_TEST, C_TESTALL, C_TESTANY, C_TESTSOME,
    C_REQUEST_FREE, C_BARRIER, C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCAN, C_EXSCAN, C_REDUCE_SCATTER,
    C_REDUCE_SCATTER_BLOCK, C_ALLGATHER, C_ALLGATHERV, C_GATHER, C_GATHERV, C_SCATTER, C_SCATTERV, C_ALLTOALL,
    C_ALLTOALLV, C_COMM_SPLIT, C_COMM_SPLIT_TYPE, C_COMM_DUP, C_COMM_CREATE, C_CART_CREATE, C_COMM_FREE,
    C_WIN_CREATE, C_WIN_ALLOCATE, C_WIN_FREE, C_PUT, C_GET, C_ACCUMULATE, C_WIN_FENCE, C_WIN_LOCK, C_WIN_UNLOCK,
    C_WIN_LOCK_ALL, C_WIN_UNLOCK_ALL, C_WIN_FLUSH, C_WIN_FLUSH_ALL, C_WIN_FLUSH_LOCAL, C_SEND_INIT, C_SSEND_INIT,
    C_RSEND_INIT, C_BSEND_INIT, C_RECV_INIT, C_START, C_STARTALL, C_IBARRIER, C_IBCAST, C_IREDUCE, C_IALLREDUCE,
    C_ISCAN, C_IEXSCAN, C_IREDUCE_SCATTER, C_IREDUCE_SCATTER_BLOCK, C_IALLGATHER, C_IALLGATHERV, C_IGATHER,
    C_IGATHERV, C_ISCATTER, C_ISCATTERV, C_IALLTOALL, C_IALLTOALLV, C_PROBE, C_IPROBE, C_MPROBE, C_IMPROBE, C_MRECV,
    C_IMRECV, C_CANCEL, C_CART_SUB, C_COMM_DUP_WITH_INFO, C_GRAPH_CREATE, C_DIST_GRAPH_CREATE,
    C_DIST_GRAPH_CREATE_ADJACENT, C_COUNT
};
static const char *const call_names[C_COUNT] = {
    "MPI_Send", "MPI_Ssend", "MPI_Rsend", "MPI_Bsend", "MPI_Isend", "MPI_Issend", "MPI_Irsend", "MPI_Ibsend",
    "MPI_Recv", "MPI_Irecv", "MPI_Sendrecv", "MPI_Sendrecv_replace", "MPI_Wait", "MPI_Waitall", "MPI_Waitany",
    "MPI_Waitsome", "MPI_Test", "MPI_Testall", "MPI_Testany", "MPI_Testsome", "MPI_Request_free", "MPI_Barrier",
    "MPI_Bcast", "MPI_Reduce", "MPI_Allreduce", "MPI_Scan", "MPI_Exscan", "MPI_Reduce_scatter",
    "MPI_Reduce_scatter_block", "MPI_Allgather", "MPI_Allgatherv", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter",
    "MPI_Scatterv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Comm_split", "MPI_Comm_split_type", "MPI_Comm_dup",
    "MPI_Comm_create", "MPI_Cart_create", "MPI_Comm_free", "MPI_Win_create", "MPI_Win_allocate", "MPI_Win_free",
    "MPI_Put", "MPI_Get", "MPI_Accumulate", "MPI_Win_fence", "MPI_Win_lock", "MPI_Win_unlock", "MPI_Win_lock_all",
    "MPI_Win_unlock_all", "MPI_Win_flush", "MPI_Win_flush_all", "MPI_Win_flush_local", "MPI_Send_init",
    "MPI_Ssend_init", "MPI_Rsend_init", "MPI_Bsend_init", "MPI_Recv_init", "MPI_Start", "MPI_Startall",
    "MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce", "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan", "MPI_Ireduce_scatter",
    "MPI_Ireduce_scatter_block", "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter",
    "MPI_Iscatterv", "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Probe", "MPI_Iprobe", "MPI_Mprobe", "MPI_Improbe",
    "MPI_Mrecv", "MPI_Imrecv", "MPI_Cancel", "MPI_Cart_sub", "MPI_Comm_dup_with_info", "MPI_Graph_create",
    "MPI_Dist_graph_create", "MPI_Dist_graph_create_adjacent"};
static unsigned long tally[C_COUNT];
static int world_rank = -1;
static MPI_Group world_group;

/* Communicators by handle: an id (0 world, 1 self) and the world rank of each member. */
#define MAX_COMMS 4096
static struct comm_entry { MPI_Comm h; int id; int size; int *world; } comms[MAX_COMMS];
static int n_comms;
static int next_comm_id;

static struct comm_entry *comm_of(MPI_Comm c) {
    if (c == MPI_COMM_NULL) return NULL;
    for (int i = 0; i < n_comms; i++) {
        if (comms[i].h == c) return &comms[i];
    }
    if (n_comms == MAX_COMMS) return NULL;
    struct comm_entry *e = &comms[n_comms++];
    e->h = c;
    e->id = c == MPI_COMM_WORLD ? 0 : c == MPI_COMM_SELF ? 1 : next_comm_id++;
    PMPI_Comm_size(c, &e->size);
    e->world = real_malloc(sizeof(int) * (size_t) e->size);
    int *mine = real_malloc(sizeof(int) * (size_t) e->size);
    MPI_Group g;
    PMPI_Comm_group(c, &g);
    for (int i = 0; i < e->size; i++) mine[i] = i;
    PMPI_Group_translate_ranks(g, e->size, mine, world_group, e->world);
    PMPI_Group_free(&g);
    real_free(mine);
    return e;
}

static void comm_forget(MPI_Comm c) {
    for (int i = 0; i < n_comms; i++) {
        if (comms[i].h == c) {
            real_free(comms[i].world);
            comms[i] = comms[--n_comms];
            return;
        }
    }
}

/* A rank of communicator c as a world rank; -1 for MPI_PROC_NULL, -2 for MPI_ANY_SOURCE. */
static long world_of(MPI_Comm c, int r) {
    if (r == MPI_PROC_NULL) return -1;
    if (r == MPI_ANY_SOURCE) return -2;
    struct comm_entry *e = comm_of(c);
    if (e == NULL || r < 0 || r >= e->size) return -1;
    return e->world[r];
}

/* Outstanding requests by handle: the number the trace knows them by, their communicator, and
 * whether MPI_Cancel was asked to take them back (only then is a completion's status asked). */
#define MAX_REQS 65536
static struct req_entry { MPI_Request h; unsigned long seq; MPI_Comm comm; int cancel; } reqs[MAX_REQS];
static int n_reqs;
static unsigned long next_req = 1;

static unsigned long req_add(MPI_Request h, MPI_Comm c) {
    unsigned long s = next_req++;
    if (n_reqs < MAX_REQS) {
        reqs[n_reqs].h = h;
        reqs[n_reqs].seq = s;
        reqs[n_reqs].comm = c;
        reqs[n_reqs].cancel = 0;
        n_reqs++;
    }
    return s;
}

static struct req_entry req_take(MPI_Request h) {
    struct req_entry none = {MPI_REQUEST_NULL, 0, MPI_COMM_NULL, 0};
    for (int i = n_reqs - 1; i >= 0; i--) {
        if (reqs[i].h == h) {
            struct req_entry e = reqs[i];
            reqs[i] = reqs[--n_reqs];
            return e;
        }
    }
    return none;
}

static void req_cancel(MPI_Request h) {
    for (int i = n_reqs - 1; i >= 0; i--) {
        if (reqs[i].h == h) {
            reqs[i].cancel = 1;
            return;
        }
    }
}

/* Messages matched by MPI_Mprobe or MPI_Improbe and not yet received, by handle: the receive that
 * takes one (MPI_Mrecv, MPI_Imrecv) names no source or tag of its own. */
#define MAX_MSGS 4096
static struct msg_entry { MPI_Message h; MPI_Comm comm; long src; int tag; } msgs[MAX_MSGS];
static int n_msgs;

static void msg_add(MPI_Message h, MPI_Comm c, long src, int tag) {
    if (n_msgs < MAX_MSGS) msgs[n_msgs++] = (struct msg_entry){h, c, src, tag};
}

static struct msg_entry msg_take(MPI_Message h) {
    struct msg_entry none = {MPI_MESSAGE_NULL, MPI_COMM_NULL, -1, 0};
    for (int i = n_msgs - 1; i >= 0; i--) {
        if (msgs[i].h == h) {
            struct msg_entry e = msgs[i];
            msgs[i] = msgs[--n_msgs];
            return e;
        }
    }
    return none;
}

/* Windows by handle. */
#define MAX_WINS 1024
static struct win_entry { MPI_Win h; int id; MPI_Comm comm; } wins[MAX_WINS];
static int n_wins;
static int next_win;

static struct win_entry *win_of(MPI_Win w) {
    for (int i = 0; i < n_wins; i++) {
        if (wins[i].h == w) return &wins[i];
    }
    return NULL;
}

static long bytes(MPI_Datatype t, long count) {
    int s = 0;
    if (t == MPI_DATATYPE_NULL) return 0;
    PMPI_Type_size(t, &s);
    return (long) s * count;
}

/*
 * A run of polls that found nothing, not yet written: a program that spins on MPI_Test until a
 * message arrives makes millions of them, and one line for the run says all the replay needs
 * (how many, and how long they took). Any other MPI line, or a poll of another function, ends the
 * run; memory lines do not, as a poll names no buffer. Only MPI calls touch this state, and the
 * recorder refuses MPI_THREAD_MULTIPLE, so no two threads are in it at once.
 */
static int poll_call = -1;
static unsigned long poll_n, poll_t0, poll_t1;

static void poll_flush(void) {
    if (poll_n == 0) return;
    line_t l = {.n = 0};
    l_c(&l, 'E');
    l_u(&l, poll_t0);
    l_u(&l, poll_t1);
    l_s(&l, call_names[poll_call]);
    l_u(&l, poll_n);
    l_end(&l);
    poll_n = 0;
}

static void poll_missed(unsigned long t0, int call) {
    if (poll_n > 0 && poll_call != call) poll_flush();
    if (poll_n == 0) {
        poll_call = call;
        poll_t0 = t0;
    }
    poll_n++;
    poll_t1 = now_ns();
    __atomic_fetch_add(&tally[call], 1, __ATOMIC_RELAXED);
}

/*
 * The program called what the replay cannot carry: say so in the log, where `pagefabric record`
 * reads it, and stop the job now rather than let it run for minutes towards a trace that would
 * be refused anyway.
 */
static void refuse(const char *call) {
    if (!enabled) return;
    poll_flush();
    line_t l = {.n = 0};
    l_c(&l, 'Y');
    l_u(&l, now_ns());
    l_s(&l, call);
    l_end(&l);
    out_flush();
    enabled = 0;
    PMPI_Abort(MPI_COMM_WORLD, 3);
    _exit(3);
}

/* call -1: a further line of the call of the line before (MPI_Startall's second request), named '-' and not counted */
static void begin_line(line_t *l, char kind, unsigned long t0, int call) {
    poll_flush();
    l->n = 0;
    l_c(l, kind);
    l_u(l, t0);
    l_u(l, now_ns());
    l_s(l, call < 0 ? "-" : call_names[call]);
    if (call >= 0) __atomic_fetch_add(&tally[call], 1, __ATOMIC_RELAXED);
}

/* A signed number. */
static void l_sl(line_t *l, long v) {
    if (v < 0) {
        l_c(l, ' ');
        l_c(l, '-');
        char t[24]; int i = 0; unsigned long u = (unsigned long) -v;
        do { t[i++] = (char) ('0' + u % 10); u /= 10; } while (u);
        while (i) l_c(l, t[--i]);
    } else {
        l_u(l, (unsigned long) v);
    }
}

#define ENTER() unsigned long t0 = now_ns(); int rec = enabled && world_rank >= 0 && !busy; busy++
#define LEAVE() busy--

/* ---------------------------------------------------------------- init and finalize */

static void init_done(void) {
    if (!enabled) return;
    PMPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    int size;
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
    next_comm_id = 2;
    busy++;
    comm_of(MPI_COMM_WORLD);
    comm_of(MPI_COMM_SELF);
    busy--;
    line_t l = {.n = 0};
    l_c(&l, 'I');
    l_u(&l, now_ns());
    l_u(&l, (unsigned long) world_rank);
    l_u(&l, (unsigned long) size);
    l_end(&l);
}

int MPI_Init(int *argc, char ***argv) {
    int rc = PMPI_Init(argc, argv);
    init_done();
    return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    init_done();
    /* threads calling MPI at once would interleave in one log that reads as one sequence of calls */
    if (required == MPI_THREAD_MULTIPLE || (rc == MPI_SUCCESS && *provided == MPI_THREAD_MULTIPLE)) {
        refuse("MPI_Init_thread");
    }
    return rc;
}

int MPI_Finalize(void) {
    if (enabled && world_rank >= 0) {
        poll_flush();
        for (int i = 0; i < C_COUNT; i++) {
            if (tally[i] == 0) continue;
            line_t l = {.n = 0};
            l_c(&l, 'T');
            l_s(&l, call_names[i]);
            l_u(&l, tally[i]);
            l_end(&l);
        }
        line_t z = {.n = 0};
        l_c(&z, 'Z');
        l_u(&z, now_ns());
        l_end(&z);
        out_flush();
        /* what MPI_Finalize frees is teardown, not the program's work */
        enabled = 0;
    }
    return PMPI_Finalize();
}

__attribute__((constructor)) static void pfrec_start(void) {
    resolve();
    open_output();
}

__attribute__((destructor)) static void pfrec_stop(void) {
    out_flush();
}

/* ---------------------------------------------------------------- point to point */

static void p2p_line(char kind, unsigned long t0, int call, unsigned long req, MPI_Comm comm, const void *buf,
                     long len, long peer, int tag) {
    line_t l;
    begin_line(&l, kind, t0, call);
    l_u(&l, req);
    struct comm_entry *e = comm_of(comm);
    l_sl(&l, e ? e->id : -1);
    l_x(&l, (uintptr_t) buf);
    l_x(&l, (uintptr_t) len);
    l_sl(&l, peer);
    l_sl(&l, tag);
    l_end(&l);
}

/* The sender of a completed receive as a world rank (-1 for MPI_PROC_NULL), from its status. */
static long status_source(MPI_Comm comm, int posted, const MPI_Status *s) {
    return world_of(comm, posted == MPI_PROC_NULL ? MPI_PROC_NULL : s->MPI_SOURCE);
}

#define BLOCKING_SEND(NAME, CALL)                                                                          \
    int NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm) {               \
        ENTER();                                                                                           \
        int rc = P##NAME(buf, count, t, dest, tag, comm);                                                  \
        if (rec) p2p_line('S', t0, CALL, 0, comm, buf, bytes(t, count), world_of(comm, dest), tag);        \
        else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                        \
        LEAVE();                                                                                           \
        return rc;                                                                                         \
    }
BLOCKING_SEND(MPI_Send, C_SEND)
BLOCKING_SEND(MPI_Ssend, C_SSEND)
BLOCKING_SEND(MPI_Rsend, C_RSEND)
BLOCKING_SEND(MPI_Bsend, C_BSEND)

#define NONBLOCKING_SEND(NAME, CALL)                                                                       \
    int NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *r) { \
        ENTER();                                                                                           \
        int rc = P##NAME(buf, count, t, dest, tag, comm, r);                                               \
        if (rec && rc == MPI_SUCCESS) {                                                                    \
            p2p_line('S', t0, CALL, req_add(*r, comm), comm, buf, bytes(t, count), world_of(comm, dest), tag); \
        } else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                      \
        LEAVE();                                                                                           \
        return rc;                                                                                         \
    }
NONBLOCKING_SEND(MPI_Isend, C_ISEND)
NONBLOCKING_SEND(MPI_Issend, C_ISSEND)
NONBLOCKING_SEND(MPI_Irsend, C_IRSEND)
NONBLOCKING_SEND(MPI_Ibsend, C_IBSEND)

int MPI_Recv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st) {
    ENTER();
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Recv(buf, count, t, src, tag, comm, s);
    if (rec) p2p_line('V', t0, C_RECV, 0, comm, buf, bytes(t, count), status_source(comm, src, s), s->MPI_TAG);
    else __atomic_fetch_add(&tally[C_RECV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Irecv(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *r) {
    ENTER();
    int rc = PMPI_Irecv(buf, count, t, src, tag, comm, r);
    if (rec && rc == MPI_SUCCESS) {
        p2p_line('V', t0, C_IRECV, req_add(*r, comm), comm, buf, bytes(t, count), world_of(comm, src), tag);
    } else __atomic_fetch_add(&tally[C_IRECV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

static void sendrecv_line(unsigned long t0, int call, MPI_Comm comm, const void *sbuf, long slen, int dest, int stag,
                          void *rbuf, long rlen, int src, MPI_Status *s) {
    line_t l;
    begin_line(&l, 'X', t0, call);
    struct comm_entry *e = comm_of(comm);
    l_sl(&l, e ? e->id : -1);
    l_x(&l, (uintptr_t) sbuf);
    l_x(&l, (uintptr_t) slen);
    l_sl(&l, world_of(comm, dest));
    l_sl(&l, stag);
    l_x(&l, (uintptr_t) rbuf);
    l_x(&l, (uintptr_t) rlen);
    l_sl(&l, status_source(comm, src, s));
    l_sl(&l, s->MPI_TAG);
    l_end(&l);
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf, int rcount,
                 MPI_Datatype rtype, int src, int rtag, MPI_Comm comm, MPI_Status *st) {
    ENTER();
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, src, rtag, comm, s);
    if (rec) {
        sendrecv_line(t0, C_SENDRECV, comm, sbuf, bytes(stype, scount), dest, stag, rbuf, bytes(rtype, rcount), src, s);
    } else __atomic_fetch_add(&tally[C_SENDRECV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm comm,
                         MPI_Status *st) {
    ENTER();
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Sendrecv_replace(buf, count, t, dest, stag, src, rtag, comm, s);
    if (rec) {
        sendrecv_line(t0, C_SENDRECV_REPLACE, comm, buf, bytes(t, count), dest, stag, buf, bytes(t, count), src, s);
    } else __atomic_fetch_add(&tally[C_SENDRECV_REPLACE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* ---------------------------------------------------------------- probes and matched receives */

static void plain_line(unsigned long t0, int call);

/* A probe moves nothing; the receive it prepares is recorded when the program makes it. */
int MPI_Probe(int src, int tag, MPI_Comm comm, MPI_Status *st) {
    ENTER();
    int rc = PMPI_Probe(src, tag, comm, st);
    if (rec) plain_line(t0, C_PROBE);
    else __atomic_fetch_add(&tally[C_PROBE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Iprobe(int src, int tag, MPI_Comm comm, int *flag, MPI_Status *st) {
    ENTER();
    int rc = PMPI_Iprobe(src, tag, comm, flag, st);
    if (rec && rc == MPI_SUCCESS && !*flag) poll_missed(t0, C_IPROBE);
    else if (rec) plain_line(t0, C_IPROBE);
    else __atomic_fetch_add(&tally[C_IPROBE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* A matched probe takes the message out of matching: what it says of it is kept for its receive. */
static void matched(MPI_Comm comm, int src, const MPI_Message *m, const MPI_Status *s) {
    if (*m == MPI_MESSAGE_NULL) return;
    if (*m == MPI_MESSAGE_NO_PROC) {
        msg_add(*m, comm, -1, s->MPI_TAG);
        return;
    }
    msg_add(*m, comm, status_source(comm, src, s), s->MPI_TAG);
}

int MPI_Mprobe(int src, int tag, MPI_Comm comm, MPI_Message *m, MPI_Status *st) {
    ENTER();
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Mprobe(src, tag, comm, m, s);
    if (rec) {
        if (rc == MPI_SUCCESS) matched(comm, src, m, s);
        plain_line(t0, C_MPROBE);
    } else __atomic_fetch_add(&tally[C_MPROBE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Improbe(int src, int tag, MPI_Comm comm, int *flag, MPI_Message *m, MPI_Status *st) {
    ENTER();
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Improbe(src, tag, comm, flag, m, s);
    if (rec && rc == MPI_SUCCESS && !*flag) poll_missed(t0, C_IMPROBE);
    else if (rec) {
        if (rc == MPI_SUCCESS) matched(comm, src, m, s);
        plain_line(t0, C_IMPROBE);
    } else __atomic_fetch_add(&tally[C_IMPROBE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Mrecv(void *buf, int count, MPI_Datatype t, MPI_Message *m, MPI_Status *st) {
    ENTER();
    struct msg_entry e = msg_take(*m);
    int rc = PMPI_Mrecv(buf, count, t, m, st);
    if (rec) p2p_line('V', t0, C_MRECV, 0, e.comm, buf, bytes(t, count), e.src, e.tag);
    else __atomic_fetch_add(&tally[C_MRECV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Imrecv(void *buf, int count, MPI_Datatype t, MPI_Message *m, MPI_Request *r) {
    ENTER();
    struct msg_entry e = msg_take(*m);
    int rc = PMPI_Imrecv(buf, count, t, m, r);
    if (rec && rc == MPI_SUCCESS) {
        p2p_line('V', t0, C_IMRECV, req_add(*r, e.comm), e.comm, buf, bytes(t, count), e.src, e.tag);
    } else __atomic_fetch_add(&tally[C_IMRECV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Cancel(MPI_Request *r) {
    ENTER();
    MPI_Request h = *r;
    int rc = PMPI_Cancel(r);
    if (rec) {
        /* whether it was taken back shows in its completion's status */
        req_cancel(h);
        plain_line(t0, C_CANCEL);
    } else __atomic_fetch_add(&tally[C_CANCEL], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* ---------------------------------------------------------------- completions */

/* Statuses for callers that ignore them: from the real allocator, so they are not the program's memory. */
static MPI_Status *status_space(int n) {
    static MPI_Status *space;
    static int have;
    if (n > have) {
        real_free(space);
        space = real_malloc(sizeof(MPI_Status) * (size_t) n);
        have = n;
    }
    return space;
}

static MPI_Request *request_space(int n) {
    static MPI_Request *space;
    static int have;
    if (n > have) {
        real_free(space);
        space = real_malloc(sizeof(MPI_Request) * (size_t) n);
        have = n;
    }
    return space;
}

/* One finished request on a completion line: its number, its sender, tag and whether it was cancelled. */
static void done_entry(line_t *l, MPI_Request h, const MPI_Status *s) {
    struct req_entry e = req_take(h);
    int cancelled = 0;
    if (e.cancel) PMPI_Test_cancelled(s, &cancelled);
    l_u(l, e.seq);
    l_sl(l, e.seq == 0 ? -1 : world_of(e.comm, s->MPI_SOURCE));
    l_sl(l, e.seq == 0 ? 0 : s->MPI_TAG);
    l_u(l, (unsigned long) (cancelled != 0));
    if (l->n > sizeof l->b - 80) {
        /* a long list continues on a line of its own kind, so no request is lost */
        l_end(l);
        l->n = 0;
        l_c(l, '+');
    }
}

/*
 * A completion call's line: the requests of `before` that finished, those at `idx` (or the first
 * n), with the status of each at the same place in `st` (by index when `by_index`). A poll that
 * finished none joins the run of polls instead.
 */
static void done_line(unsigned long t0, int call, const MPI_Request *before, const int *idx, int n, MPI_Status *st,
                      int by_index, int poll) {
    if (poll && n == 0) {
        poll_missed(t0, call);
        return;
    }
    line_t l;
    begin_line(&l, 'D', t0, call);
    l_u(&l, (unsigned long) n);
    for (int k = 0; k < n; k++) {
        int i = idx ? idx[k] : k;
        done_entry(&l, before[i], st + (by_index ? i : k));
    }
    l_end(&l);
}

int MPI_Wait(MPI_Request *r, MPI_Status *st) {
    ENTER();
    MPI_Request before = *r;
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Wait(r, s);
    if (rec) done_line(t0, C_WAIT, &before, NULL, before == MPI_REQUEST_NULL ? 0 : 1, s, 0, 0);
    else __atomic_fetch_add(&tally[C_WAIT], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Test(MPI_Request *r, int *flag, MPI_Status *st) {
    ENTER();
    MPI_Request before = *r;
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Test(r, flag, s);
    if (rec) done_line(t0, C_TEST, &before, NULL, *flag && before != MPI_REQUEST_NULL ? 1 : 0, s, 0, 1);
    else __atomic_fetch_add(&tally[C_TEST], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* Waitall and Testall: every live request of `before` finished, each with the status at its index. */
static void all_line(unsigned long t0, int call, const MPI_Request *before, int n, MPI_Status *s, int finished,
                     int poll) {
    int live = 0;
    /* requests already null finish nothing */
    for (int i = 0; finished && i < n; i++) live += before[i] != MPI_REQUEST_NULL;
    if (poll && live == 0) {
        poll_missed(t0, call);
        return;
    }
    line_t l;
    begin_line(&l, 'D', t0, call);
    l_u(&l, (unsigned long) live);
    for (int i = 0; live > 0 && i < n; i++) {
        if (before[i] != MPI_REQUEST_NULL) done_entry(&l, before[i], &s[i]);
    }
    l_end(&l);
}

int MPI_Waitall(int n, MPI_Request rs[], MPI_Status sts[]) {
    ENTER();
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    MPI_Status *s = sts == MPI_STATUSES_IGNORE ? status_space(n) : sts;
    int rc = PMPI_Waitall(n, rs, s);
    if (rec) all_line(t0, C_WAITALL, before, n, s, 1, 0);
    else __atomic_fetch_add(&tally[C_WAITALL], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Testall(int n, MPI_Request rs[], int *flag, MPI_Status sts[]) {
    ENTER();
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    MPI_Status *s = sts == MPI_STATUSES_IGNORE ? status_space(n) : sts;
    int rc = PMPI_Testall(n, rs, flag, s);
    if (rec) all_line(t0, C_TESTALL, before, n, s, *flag, 1);
    else __atomic_fetch_add(&tally[C_TESTALL], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Waitany(int n, MPI_Request rs[], int *index, MPI_Status *st) {
    ENTER();
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Waitany(n, rs, index, s);
    if (rec) done_line(t0, C_WAITANY, before, index, *index == MPI_UNDEFINED ? 0 : 1, s, 0, 0);
    else __atomic_fetch_add(&tally[C_WAITANY], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Testany(int n, MPI_Request rs[], int *index, int *flag, MPI_Status *st) {
    ENTER();
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    MPI_Status mine;
    MPI_Status *s = st == MPI_STATUS_IGNORE ? &mine : st;
    int rc = PMPI_Testany(n, rs, index, flag, s);
    if (rec) done_line(t0, C_TESTANY, before, index, *flag && *index != MPI_UNDEFINED ? 1 : 0, s, 0, 1);
    else __atomic_fetch_add(&tally[C_TESTANY], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

static int some(int call, int n, MPI_Request rs[], int *outcount, int idx[], MPI_Status sts[], int test) {
    unsigned long t0 = now_ns();
    int rec = enabled && world_rank >= 0 && !busy;
    busy++;
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    MPI_Status *s = sts == MPI_STATUSES_IGNORE ? status_space(n) : sts;
    int rc = test ? PMPI_Testsome(n, rs, outcount, idx, s) : PMPI_Waitsome(n, rs, outcount, idx, s);
    if (rec) done_line(t0, call, before, idx, *outcount == MPI_UNDEFINED ? 0 : *outcount, s, 0, test);
    else __atomic_fetch_add(&tally[call], 1, __ATOMIC_RELAXED);
    busy--;
    return rc;
}

int MPI_Waitsome(int n, MPI_Request rs[], int *outcount, int idx[], MPI_Status sts[]) {
    return some(C_WAITSOME, n, rs, outcount, idx, sts, 0);
}

int MPI_Testsome(int n, MPI_Request rs[], int *outcount, int idx[], MPI_Status sts[]) {
    return some(C_TESTSOME, n, rs, outcount, idx, sts, 1);
}

/* ---------------------------------------------------------------- persistent requests */

/* Persistent requests by handle: what each MPI_Start of it posts. */
#define MAX_PERSISTENT 4096
static struct persistent_entry {
    MPI_Request h; char kind; const void *buf; long len; long peer; int tag; MPI_Comm comm;
} persistents[MAX_PERSISTENT];
static int n_persistent;

static struct persistent_entry *persistent_of(MPI_Request h) {
    for (int i = 0; i < n_persistent; i++) {
        if (persistents[i].h == h) return &persistents[i];
    }
    return NULL;
}

static void persistent_forget(MPI_Request h) {
    for (int i = 0; i < n_persistent; i++) {
        if (persistents[i].h == h) {
            persistents[i] = persistents[--n_persistent];
            return;
        }
    }
}

static void persistent_add(MPI_Request h, char kind, const void *buf, long len, long peer, int tag, MPI_Comm comm) {
    /* a handle Open MPI hands out again after a free names the new request */
    persistent_forget(h);
    if (n_persistent == MAX_PERSISTENT) return;
    persistents[n_persistent++] = (struct persistent_entry){h, kind, buf, len, peer, tag, comm};
}

/* An init creates the request and moves nothing: a plain line; each MPI_Start of it posts the operation. */
#define SEND_INIT(NAME, CALL)                                                                              \
    int NAME(const void *buf, int count, MPI_Datatype t, int dest, int tag, MPI_Comm comm, MPI_Request *r) { \
        ENTER();                                                                                           \
        int rc = P##NAME(buf, count, t, dest, tag, comm, r);                                               \
        if (rec && rc == MPI_SUCCESS) {                                                                    \
            persistent_add(*r, 'S', buf, bytes(t, count), world_of(comm, dest), tag, comm);                \
            plain_line(t0, CALL);                                                                          \
        } else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                      \
        LEAVE();                                                                                           \
        return rc;                                                                                         \
    }
SEND_INIT(MPI_Send_init, C_SEND_INIT)
SEND_INIT(MPI_Ssend_init, C_SSEND_INIT)
SEND_INIT(MPI_Rsend_init, C_RSEND_INIT)
SEND_INIT(MPI_Bsend_init, C_BSEND_INIT)

int MPI_Recv_init(void *buf, int count, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *r) {
    ENTER();
    int rc = PMPI_Recv_init(buf, count, t, src, tag, comm, r);
    if (rec && rc == MPI_SUCCESS) {
        persistent_add(*r, 'V', buf, bytes(t, count), world_of(comm, src), tag, comm);
        plain_line(t0, C_RECV_INIT);
    } else __atomic_fetch_add(&tally[C_RECV_INIT], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* The operation a start of persistent request h posts, as its nonblocking call would; 0 if h is not known. */
static int start_line(unsigned long t0, int call, MPI_Request h) {
    struct persistent_entry *p = persistent_of(h);
    if (p == NULL) return 0;
    p2p_line(p->kind, t0, call, req_add(h, p->comm), p->comm, p->buf, p->len, p->peer, p->tag);
    return 1;
}

int MPI_Start(MPI_Request *r) {
    ENTER();
    MPI_Request h = *r;
    int rc = PMPI_Start(r);
    if (rec && rc == MPI_SUCCESS) {
        if (!start_line(t0, C_START, h)) plain_line(t0, C_START);
    } else __atomic_fetch_add(&tally[C_START], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Startall(int n, MPI_Request rs[]) {
    ENTER();
    MPI_Request *before = request_space(n);
    memcpy(before, rs, sizeof(MPI_Request) * (size_t) n);
    int rc = PMPI_Startall(n, rs);
    if (rec && rc == MPI_SUCCESS) {
        /* one call: its first operation's line carries it, the others continue it */
        int lines = 0;
        for (int i = 0; i < n; i++) lines += start_line(t0, lines == 0 ? C_STARTALL : -1, before[i]);
        if (lines == 0) plain_line(t0, C_STARTALL);
    } else __atomic_fetch_add(&tally[C_STARTALL], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Request_free(MPI_Request *r) {
    ENTER();
    MPI_Request before = *r;
    int rc = PMPI_Request_free(r);
    if (rec) {
        /* the operation still happens; the trace completes it later, where nothing waits for it */
        struct req_entry e = req_take(before);
        persistent_forget(before);
        line_t l;
        begin_line(&l, 'Q', t0, C_REQUEST_FREE);
        l_u(&l, e.seq);
        l_end(&l);
    } else __atomic_fetch_add(&tally[C_REQUEST_FREE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* ---------------------------------------------------------------- collectives */

static void coll_line(unsigned long t0, int call, MPI_Comm comm, int root, const void *sbuf, const void *rbuf,
                      long m, int n, const long *blocks) {
    line_t l;
    begin_line(&l, 'C', t0, call);
    struct comm_entry *e = comm_of(comm);
    l_sl(&l, e ? e->id : -1);
    l_sl(&l, root);
    l_x(&l, sbuf == MPI_IN_PLACE ? 0 : (uintptr_t) sbuf);
    l_x(&l, (uintptr_t) rbuf);
    l_x(&l, (uintptr_t) m);
    l_u(&l, (unsigned long) n);
    for (int i = 0; i < 4 * n; i++) {
        l_x(&l, (uintptr_t) blocks[i]);
        if (l.n > sizeof l.b - 32) {
            l_end(&l);
            l.n = 0;
            l_c(&l, '+');
        }
    }
    l_end(&l);
}

#define COLL_PLAIN(CALL, comm, root, sbuf, rbuf, m)                                                        \
    do {                                                                                                   \
        if (rec) coll_line(t0, CALL, comm, root, sbuf, rbuf, m, 0, NULL);                                  \
        else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                        \
    } while (0)

int MPI_Barrier(MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Barrier(comm);
    COLL_PLAIN(C_BARRIER, comm, 0, NULL, NULL, 0);
    LEAVE();
    return rc;
}

int MPI_Bcast(void *buf, int count, MPI_Datatype t, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Bcast(buf, count, t, root, comm);
    COLL_PLAIN(C_BCAST, comm, root, buf, buf, bytes(t, count));
    LEAVE();
    return rc;
}

int MPI_Reduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Reduce(s, r, count, t, op, root, comm);
    COLL_PLAIN(C_REDUCE, comm, root, s, r, bytes(t, count));
    LEAVE();
    return rc;
}

int MPI_Allreduce(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Allreduce(s, r, count, t, op, comm);
    COLL_PLAIN(C_ALLREDUCE, comm, 0, s, r, bytes(t, count));
    LEAVE();
    return rc;
}

int MPI_Scan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Scan(s, r, count, t, op, comm);
    COLL_PLAIN(C_SCAN, comm, 0, s, r, bytes(t, count));
    LEAVE();
    return rc;
}

int MPI_Exscan(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Exscan(s, r, count, t, op, comm);
    COLL_PLAIN(C_EXSCAN, comm, 0, s, r, bytes(t, count));
    LEAVE();
    return rc;
}

int MPI_Allgather(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Allgather(s, sc, st, r, rc_, rt, comm);
    COLL_PLAIN(C_ALLGATHER, comm, 0, s, r, bytes(rt, rc_));
    LEAVE();
    return rc;
}

int MPI_Alltoall(const void *s, int sc, MPI_Datatype st, void *r, int rc_, MPI_Datatype rt, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Alltoall(s, sc, st, r, rc_, rt, comm);
    COLL_PLAIN(C_ALLTOALL, comm, 0, s, r, bytes(rt, rc_));
    LEAVE();
    return rc;
}

int MPI_Reduce_scatter_block(const void *s, void *r, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Reduce_scatter_block(s, r, count, t, op, comm);
    COLL_PLAIN(C_REDUCE_SCATTER_BLOCK, comm, 0, s, r, bytes(t, count));
    LEAVE();
    return rc;
}

/* Collectives whose blocks differ per member: each member's send and receive block, in bytes. */
static long *block_space(int n) {
    static long *space;
    static int have;
    if (n > have) {
        real_free(space);
        space = real_malloc(sizeof(long) * 4 * (size_t) n);
        have = n;
    }
    memset(space, 0, sizeof(long) * 4 * (size_t) n);
    return space;
}

static int comm_size(MPI_Comm c) {
    int n;
    PMPI_Comm_size(c, &n);
    return n;
}

static int comm_rank(MPI_Comm c) {
    int n;
    PMPI_Comm_rank(c, &n);
    return n;
}

int MPI_Gather(const void *s, int sc, MPI_Datatype st, void *r, int rcount, MPI_Datatype rt, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Gather(s, sc, st, r, rcount, rt, root, comm);
    long m = comm_rank(comm) == root ? bytes(rt, rcount) : bytes(st, sc);
    COLL_PLAIN(C_GATHER, comm, root, s, r, m);
    LEAVE();
    return rc;
}

int MPI_Scatter(const void *s, int sc, MPI_Datatype st, void *r, int rcount, MPI_Datatype rt, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Scatter(s, sc, st, r, rcount, rt, root, comm);
    long m = comm_rank(comm) == root ? bytes(st, sc) : bytes(rt, rcount);
    COLL_PLAIN(C_SCATTER, comm, root, s, r, m);
    LEAVE();
    return rc;
}

int MPI_Allgatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcounts[], const int displs[],
                   MPI_Datatype rt, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Allgatherv(s, sc, st, r, rcounts, displs, rt, comm);
    if (rec) {
        int n = comm_size(comm);
        long *b = block_space(n);
        long own = s == MPI_IN_PLACE ? bytes(rt, rcounts[comm_rank(comm)]) : bytes(st, sc);
        for (int j = 0; j < n; j++) {
            b[4 * j] = own;
            b[4 * j + 2] = bytes(rt, rcounts[j]);
            b[4 * j + 3] = bytes(rt, displs[j]);
        }
        coll_line(t0, C_ALLGATHERV, comm, 0, s, r, own, n, b);
    } else __atomic_fetch_add(&tally[C_ALLGATHERV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Gatherv(const void *s, int sc, MPI_Datatype st, void *r, const int rcounts[], const int displs[],
                MPI_Datatype rt, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Gatherv(s, sc, st, r, rcounts, displs, rt, root, comm);
    if (rec) {
        int n = comm_size(comm);
        long *b = block_space(n);
        int me = comm_rank(comm);
        for (int j = 0; j < n; j++) {
            b[4 * j] = bytes(st, sc);
            if (me == root) {
                b[4 * j + 2] = bytes(rt, rcounts[j]);
                b[4 * j + 3] = bytes(rt, displs[j]);
            }
        }
        coll_line(t0, C_GATHERV, comm, root, s, r, bytes(st, sc), n, b);
    } else __atomic_fetch_add(&tally[C_GATHERV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Scatterv(const void *s, const int scounts[], const int displs[], MPI_Datatype st, void *r, int rcount,
                 MPI_Datatype rt, int root, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Scatterv(s, scounts, displs, st, r, rcount, rt, root, comm);
    if (rec) {
        int n = comm_size(comm);
        long *b = block_space(n);
        int me = comm_rank(comm);
        for (int j = 0; j < n; j++) {
            if (me == root) {
                b[4 * j] = bytes(st, scounts[j]);
                b[4 * j + 1] = bytes(st, displs[j]);
            }
            b[4 * j + 2] = bytes(rt, rcount);
        }
        coll_line(t0, C_SCATTERV, comm, root, s, r, bytes(rt, rcount), n, b);
    } else __atomic_fetch_add(&tally[C_SCATTERV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Alltoallv(const void *s, const int scounts[], const int sdispls[], MPI_Datatype st, void *r,
                  const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Alltoallv(s, scounts, sdispls, st, r, rcounts, rdispls, rt, comm);
    if (rec) {
        int n = comm_size(comm);
        long *b = block_space(n);
        long most = 0;
        for (int j = 0; j < n; j++) {
            if (s != MPI_IN_PLACE) {
                b[4 * j] = bytes(st, scounts[j]);
                b[4 * j + 1] = bytes(st, sdispls[j]);
            } else {
                b[4 * j] = bytes(rt, rcounts[j]);
                b[4 * j + 1] = bytes(rt, rdispls[j]);
            }
            b[4 * j + 2] = bytes(rt, rcounts[j]);
            b[4 * j + 3] = bytes(rt, rdispls[j]);
            if (b[4 * j] > most) most = b[4 * j];
        }
        coll_line(t0, C_ALLTOALLV, comm, 0, s, r, most, n, b);
    } else __atomic_fetch_add(&tally[C_ALLTOALLV], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Reduce_scatter(const void *s, void *r, const int rcounts[], MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
    ENTER();
    int rc = PMPI_Reduce_scatter(s, r, rcounts, t, op, comm);
    if (rec) {
        int n = comm_size(comm);
        long *b = block_space(n);
        long off = 0;
        for (int j = 0; j < n; j++) {
            b[4 * j] = bytes(t, rcounts[j]);
            b[4 * j + 1] = off;
            b[4 * j + 2] = bytes(t, rcounts[j]);
            off += b[4 * j];
        }
        coll_line(t0, C_REDUCE_SCATTER, comm, 0, s, r, off, n, b);
    } else __atomic_fetch_add(&tally[C_REDUCE_SCATTER], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

/* ---------------------------------------------------------------- communicators */

static void comm_line(unsigned long t0, int call, MPI_Comm parent, MPI_Comm made) {
    line_t l;
    begin_line(&l, 'K', t0, call);
    struct comm_entry *p = comm_of(parent);
    l_sl(&l, p ? p->id : -1);
    if (made == MPI_COMM_NULL) {
        l_sl(&l, -1);
        l_u(&l, 0);
        l_end(&l);
        return;
    }
    comm_forget(made); /* a handle reused after a free is a new communicator */
    struct comm_entry *e = comm_of(made);
    l_sl(&l, e ? e->id : -1);
    l_u(&l, (unsigned long) (e ? e->size : 0));
    for (int i = 0; e && i < e->size; i++) {
        l_u(&l, (unsigned long) e->world[i]);
        if (l.n > sizeof l.b - 32) {
            l_end(&l);
            l.n = 0;
            l_c(&l, '+');
        }
    }
    l_end(&l);
}

#define COMM_MADE(CALL, parent, out)                                                                       \
    do {                                                                                                   \
        if (rec && rc == MPI_SUCCESS) comm_line(t0, CALL, parent, *(out));                                 \
        else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                        \
    } while (0)

int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Comm_split(c, color, key, out);
    COMM_MADE(C_COMM_SPLIT, c, out);
    LEAVE();
    return rc;
}

int MPI_Comm_split_type(MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Comm_split_type(c, type, key, info, out);
    COMM_MADE(C_COMM_SPLIT_TYPE, c, out);
    LEAVE();
    return rc;
}

int MPI_Comm_dup(MPI_Comm c, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Comm_dup(c, out);
    COMM_MADE(C_COMM_DUP, c, out);
    LEAVE();
    return rc;
}

int MPI_Comm_create(MPI_Comm c, MPI_Group g, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Comm_create(c, g, out);
    COMM_MADE(C_COMM_CREATE, c, out);
    LEAVE();
    return rc;
}

int MPI_Cart_create(MPI_Comm c, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Cart_create(c, ndims, dims, periods, reorder, out);
    COMM_MADE(C_CART_CREATE, c, out);
    LEAVE();
    return rc;
}

int MPI_Cart_sub(MPI_Comm c, const int remain[], MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Cart_sub(c, remain, out);
    COMM_MADE(C_CART_SUB, c, out);
    LEAVE();
    return rc;
}

int MPI_Comm_dup_with_info(MPI_Comm c, MPI_Info info, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Comm_dup_with_info(c, info, out);
    COMM_MADE(C_COMM_DUP_WITH_INFO, c, out);
    LEAVE();
    return rc;
}

int MPI_Graph_create(MPI_Comm c, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Graph_create(c, nnodes, index, edges, reorder, out);
    COMM_MADE(C_GRAPH_CREATE, c, out);
    LEAVE();
    return rc;
}

int MPI_Dist_graph_create(MPI_Comm c, int n, const int nodes[], const int degrees[], const int targets[],
                          const int weights[], MPI_Info info, int reorder, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Dist_graph_create(c, n, nodes, degrees, targets, weights, info, reorder, out);
    COMM_MADE(C_DIST_GRAPH_CREATE, c, out);
    LEAVE();
    return rc;
}

int MPI_Dist_graph_create_adjacent(MPI_Comm c, int indegree, const int sources[], const int sourceweights[],
                                   int outdegree, const int dests[], const int destweights[], MPI_Info info,
                                   int reorder, MPI_Comm *out) {
    ENTER();
    int rc = PMPI_Dist_graph_create_adjacent(c, indegree, sources, sourceweights, outdegree, dests, destweights,
                                             info, reorder, out);
    COMM_MADE(C_DIST_GRAPH_CREATE_ADJACENT, c, out);
    LEAVE();
    return rc;
}

static void plain_line(unsigned long t0, int call) {
    line_t l;
    begin_line(&l, 'N', t0, call);
    l_end(&l);
}

int MPI_Comm_free(MPI_Comm *c) {
    ENTER();
    MPI_Comm before = *c;
    int rc = PMPI_Comm_free(c);
    if (rec) plain_line(t0, C_COMM_FREE);
    else __atomic_fetch_add(&tally[C_COMM_FREE], 1, __ATOMIC_RELAXED);
    comm_forget(before);
    LEAVE();
    return rc;
}

/* ---------------------------------------------------------------- one-sided */

static void win_line(unsigned long t0, int call, MPI_Win w, MPI_Comm comm, const void *base, MPI_Aint size, int unit) {
    if (n_wins < MAX_WINS) {
        wins[n_wins].h = w;
        wins[n_wins].id = next_win++;
        wins[n_wins].comm = comm;
        n_wins++;
    }
    line_t l;
    begin_line(&l, 'W', t0, call);
    l_u(&l, (unsigned long) wins[n_wins - 1].id);
    struct comm_entry *e = comm_of(comm);
    l_sl(&l, e ? e->id : -1);
    l_x(&l, (uintptr_t) base);
    l_x(&l, (uintptr_t) size);
    l_u(&l, (unsigned long) unit);
    l_end(&l);
}

int MPI_Win_create(void *base, MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, MPI_Win *win) {
    ENTER();
    int rc = PMPI_Win_create(base, size, unit, info, comm, win);
    if (rec && rc == MPI_SUCCESS) win_line(t0, C_WIN_CREATE, *win, comm, base, size, unit);
    else __atomic_fetch_add(&tally[C_WIN_CREATE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Win_allocate(MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, void *baseptr, MPI_Win *win) {
    ENTER();
    int rc = PMPI_Win_allocate(size, unit, info, comm, baseptr, win);
    if (rec && rc == MPI_SUCCESS) win_line(t0, C_WIN_ALLOCATE, *win, comm, *(void **) baseptr, size, unit);
    else __atomic_fetch_add(&tally[C_WIN_ALLOCATE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

static void sync_line(unsigned long t0, int call, MPI_Win w, int target) {
    struct win_entry *e = win_of(w);
    line_t l;
    begin_line(&l, 'F', t0, call);
    l_sl(&l, e ? e->id : -1);
    /* -2: a lock, which completes nothing; -1: every target */
    l_sl(&l, target == -2 ? -2 : target < 0 || e == NULL ? -1 : world_of(e->comm, target));
    l_end(&l);
}

int MPI_Win_free(MPI_Win *w) {
    ENTER();
    MPI_Win before = *w;
    int rc = PMPI_Win_free(w);
    if (rec) sync_line(t0, C_WIN_FREE, before, -1);
    else __atomic_fetch_add(&tally[C_WIN_FREE], 1, __ATOMIC_RELAXED);
    for (int i = 0; i < n_wins; i++) {
        if (wins[i].h == before) {
            wins[i] = wins[--n_wins];
            break;
        }
    }
    LEAVE();
    return rc;
}

static void rma_line(unsigned long t0, int call, char kind, MPI_Win w, const void *addr, long len, int target,
                     MPI_Aint disp) {
    struct win_entry *e = win_of(w);
    line_t l;
    begin_line(&l, 'P', t0, call);
    l_sl(&l, e ? e->id : -1);
    l_c(&l, ' ');
    l_c(&l, kind);
    l_x(&l, (uintptr_t) addr);
    l_x(&l, (uintptr_t) len);
    l_sl(&l, e ? world_of(e->comm, target) : -1);
    l_x(&l, (uintptr_t) disp);
    l_end(&l);
}

int MPI_Put(const void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Win w) {
    ENTER();
    int rc = PMPI_Put(o, oc, ot, target, disp, tc, tt, w);
    if (rec) rma_line(t0, C_PUT, 'p', w, o, bytes(ot, oc), target, disp);
    else __atomic_fetch_add(&tally[C_PUT], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Get(void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Win w) {
    ENTER();
    int rc = PMPI_Get(o, oc, ot, target, disp, tc, tt, w);
    if (rec) rma_line(t0, C_GET, 'g', w, o, bytes(ot, oc), target, disp);
    else __atomic_fetch_add(&tally[C_GET], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

int MPI_Accumulate(const void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt,
                   MPI_Op op, MPI_Win w) {
    ENTER();
    int rc = PMPI_Accumulate(o, oc, ot, target, disp, tc, tt, op, w);
    if (rec) rma_line(t0, C_ACCUMULATE, 'a', w, o, bytes(ot, oc), target, disp);
    else __atomic_fetch_add(&tally[C_ACCUMULATE], 1, __ATOMIC_RELAXED);
    LEAVE();
    return rc;
}

#define SYNC(CALL, w, target, expr)                                                                        \
    do {                                                                                                   \
        ENTER();                                                                                           \
        int rc = expr;                                                                                     \
        if (rec) sync_line(t0, CALL, w, target);                                                           \
        else __atomic_fetch_add(&tally[CALL], 1, __ATOMIC_RELAXED);                                        \
        LEAVE();                                                                                           \
        return rc;                                                                                         \
    } while (0)

int MPI_Win_fence(int a, MPI_Win w) { SYNC(C_WIN_FENCE, w, -1, PMPI_Win_fence(a, w)); }
int MPI_Win_lock(int type, int r, int a, MPI_Win w) { SYNC(C_WIN_LOCK, w, -2, PMPI_Win_lock(type, r, a, w)); }
int MPI_Win_unlock(int r, MPI_Win w) { SYNC(C_WIN_UNLOCK, w, r, PMPI_Win_unlock(r, w)); }
int MPI_Win_lock_all(int a, MPI_Win w) { SYNC(C_WIN_LOCK_ALL, w, -2, PMPI_Win_lock_all(a, w)); }
int MPI_Win_unlock_all(MPI_Win w) { SYNC(C_WIN_UNLOCK_ALL, w, -1, PMPI_Win_unlock_all(w)); }
int MPI_Win_flush(int r, MPI_Win w) { SYNC(C_WIN_FLUSH, w, r, PMPI_Win_flush(r, w)); }
int MPI_Win_flush_all(MPI_Win w) { SYNC(C_WIN_FLUSH_ALL, w, -1, PMPI_Win_flush_all(w)); }
int MPI_Win_flush_local(int r, MPI_Win w) { SYNC(C_WIN_FLUSH_LOCAL, w, r, PMPI_Win_flush_local(r, w)); }

/* ---------------------------------------------------------------- refused */

/*
 * Calls the replay cannot carry. Each is refused where the program makes it (refuse() writes the
 * log line and aborts the job); forwarded unchanged when the library is loaded without a log to
 * write.
 */
#define REFUSED(NAME, FORWARD)                                                                             \
    do {                                                                                                   \
        if (enabled && world_rank >= 0) refuse(NAME);                                                      \
        return FORWARD;                                                                                    \
    } while (0)

/* nonblocking collectives: the replay has only blocking ones */
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *r) { REFUSED("MPI_Ibarrier", PMPI_Ibarrier(comm, r)); }
int MPI_Ibcast(void *b, int count, MPI_Datatype t, int root, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Ibcast", PMPI_Ibcast(b, count, t, root, comm, r));
}
int MPI_Ireduce(const void *s, void *rb, int count, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm,
                MPI_Request *r) {
    REFUSED("MPI_Ireduce", PMPI_Ireduce(s, rb, count, t, op, root, comm, r));
}
int MPI_Iallreduce(const void *s, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Iallreduce", PMPI_Iallreduce(s, rb, count, t, op, comm, r));
}
int MPI_Iscan(const void *s, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Iscan", PMPI_Iscan(s, rb, count, t, op, comm, r));
}
int MPI_Iexscan(const void *s, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Iexscan", PMPI_Iexscan(s, rb, count, t, op, comm, r));
}
int MPI_Ireduce_scatter(const void *s, void *rb, const int counts[], MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                        MPI_Request *r) {
    REFUSED("MPI_Ireduce_scatter", PMPI_Ireduce_scatter(s, rb, counts, t, op, comm, r));
}
int MPI_Ireduce_scatter_block(const void *s, void *rb, int count, MPI_Datatype t, MPI_Op op, MPI_Comm comm,
                              MPI_Request *r) {
    REFUSED("MPI_Ireduce_scatter_block", PMPI_Ireduce_scatter_block(s, rb, count, t, op, comm, r));
}
int MPI_Iallgather(const void *s, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, MPI_Comm comm,
                   MPI_Request *r) {
    REFUSED("MPI_Iallgather", PMPI_Iallgather(s, sc, st, rb, rc_, rt, comm, r));
}
int MPI_Iallgatherv(const void *s, int sc, MPI_Datatype st, void *rb, const int rcounts[], const int displs[],
                    MPI_Datatype rt, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Iallgatherv", PMPI_Iallgatherv(s, sc, st, rb, rcounts, displs, rt, comm, r));
}
int MPI_Igather(const void *s, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root, MPI_Comm comm,
                MPI_Request *r) {
    REFUSED("MPI_Igather", PMPI_Igather(s, sc, st, rb, rc_, rt, root, comm, r));
}
int MPI_Igatherv(const void *s, int sc, MPI_Datatype st, void *rb, const int rcounts[], const int displs[],
                 MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Igatherv", PMPI_Igatherv(s, sc, st, rb, rcounts, displs, rt, root, comm, r));
}
int MPI_Iscatter(const void *s, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, int root, MPI_Comm comm,
                 MPI_Request *r) {
    REFUSED("MPI_Iscatter", PMPI_Iscatter(s, sc, st, rb, rc_, rt, root, comm, r));
}
int MPI_Iscatterv(const void *s, const int scounts[], const int displs[], MPI_Datatype st, void *rb, int rc_,
                  MPI_Datatype rt, int root, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Iscatterv", PMPI_Iscatterv(s, scounts, displs, st, rb, rc_, rt, root, comm, r));
}
int MPI_Ialltoall(const void *s, int sc, MPI_Datatype st, void *rb, int rc_, MPI_Datatype rt, MPI_Comm comm,
                  MPI_Request *r) {
    REFUSED("MPI_Ialltoall", PMPI_Ialltoall(s, sc, st, rb, rc_, rt, comm, r));
}
int MPI_Ialltoallv(const void *s, const int scounts[], const int sdispls[], MPI_Datatype st, void *rb,
                   const int rcounts[], const int rdispls[], MPI_Datatype rt, MPI_Comm comm, MPI_Request *r) {
    REFUSED("MPI_Ialltoallv", PMPI_Ialltoallv(s, scounts, sdispls, st, rb, rcounts, rdispls, rt, comm, r));
}

/* MPI-IO: every other MPI_File_ call needs the handle MPI_File_open makes */
int MPI_File_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh) {
    REFUSED("MPI_File_open", PMPI_File_open(comm, name, amode, info, fh));
}
int MPI_File_delete(const char *name, MPI_Info info) { REFUSED("MPI_File_delete", PMPI_File_delete(name, info)); }

/* dynamic processes: the replay's job has the ranks it started with */
int MPI_Comm_spawn(const char *command, char *argv[], int maxprocs, MPI_Info info, int root, MPI_Comm comm,
                   MPI_Comm *inter, int errcodes[]) {
    REFUSED("MPI_Comm_spawn", PMPI_Comm_spawn(command, argv, maxprocs, info, root, comm, inter, errcodes));
}
int MPI_Comm_spawn_multiple(int count, char *commands[], char **argvs[], const int maxprocs[], const MPI_Info infos[],
                            int root, MPI_Comm comm, MPI_Comm *inter, int errcodes[]) {
    REFUSED("MPI_Comm_spawn_multiple",
            PMPI_Comm_spawn_multiple(count, commands, argvs, maxprocs, infos, root, comm, inter, errcodes));
}
int MPI_Comm_connect(const char *port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *out) {
    REFUSED("MPI_Comm_connect", PMPI_Comm_connect(port, info, root, comm, out));
}
int MPI_Comm_accept(const char *port, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *out) {
    REFUSED("MPI_Comm_accept", PMPI_Comm_accept(port, info, root, comm, out));
}
int MPI_Comm_join(int fd, MPI_Comm *out) { REFUSED("MPI_Comm_join", PMPI_Comm_join(fd, out)); }
int MPI_Intercomm_create(MPI_Comm local, int local_leader, MPI_Comm bridge, int remote_leader, int tag,
                         MPI_Comm *out) {
    REFUSED("MPI_Intercomm_create", PMPI_Intercomm_create(local, local_leader, bridge, remote_leader, tag, out));
}

/* one-sided calls the replay has no operation for: atomics, request-based operations, windows
 * whose memory is attached later or shared by load and store, and post-start-complete-wait */
int MPI_Fetch_and_op(const void *o, void *res, MPI_Datatype t, int target, MPI_Aint disp, MPI_Op op, MPI_Win w) {
    REFUSED("MPI_Fetch_and_op", PMPI_Fetch_and_op(o, res, t, target, disp, op, w));
}
int MPI_Compare_and_swap(const void *o, const void *cmp, void *res, MPI_Datatype t, int target, MPI_Aint disp,
                         MPI_Win w) {
    REFUSED("MPI_Compare_and_swap", PMPI_Compare_and_swap(o, cmp, res, t, target, disp, w));
}
int MPI_Get_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc_, MPI_Datatype rt, int target,
                       MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w) {
    REFUSED("MPI_Get_accumulate", PMPI_Get_accumulate(o, oc, ot, res, rc_, rt, target, disp, tc, tt, op, w));
}
int MPI_Rput(const void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Win w,
             MPI_Request *r) {
    REFUSED("MPI_Rput", PMPI_Rput(o, oc, ot, target, disp, tc, tt, w, r));
}
int MPI_Rget(void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Win w,
             MPI_Request *r) {
    REFUSED("MPI_Rget", PMPI_Rget(o, oc, ot, target, disp, tc, tt, w, r));
}
int MPI_Raccumulate(const void *o, int oc, MPI_Datatype ot, int target, MPI_Aint disp, int tc, MPI_Datatype tt,
                    MPI_Op op, MPI_Win w, MPI_Request *r) {
    REFUSED("MPI_Raccumulate", PMPI_Raccumulate(o, oc, ot, target, disp, tc, tt, op, w, r));
}
int MPI_Rget_accumulate(const void *o, int oc, MPI_Datatype ot, void *res, int rc_, MPI_Datatype rt, int target,
                        MPI_Aint disp, int tc, MPI_Datatype tt, MPI_Op op, MPI_Win w, MPI_Request *r) {
    REFUSED("MPI_Rget_accumulate", PMPI_Rget_accumulate(o, oc, ot, res, rc_, rt, target, disp, tc, tt, op, w, r));
}
int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *w) {
    REFUSED("MPI_Win_create_dynamic", PMPI_Win_create_dynamic(info, comm, w));
}
int MPI_Win_allocate_shared(MPI_Aint size, int unit, MPI_Info info, MPI_Comm comm, void *base, MPI_Win *w) {
    REFUSED("MPI_Win_allocate_shared", PMPI_Win_allocate_shared(size, unit, info, comm, base, w));
}
int MPI_Win_post(MPI_Group g, int a, MPI_Win w) { REFUSED("MPI_Win_post", PMPI_Win_post(g, a, w)); }
int MPI_Win_start(MPI_Group g, int a, MPI_Win w) { REFUSED("MPI_Win_start", PMPI_Win_start(g, a, w)); }
int MPI_Win_complete(MPI_Win w) { REFUSED("MPI_Win_complete", PMPI_Win_complete(w)); }
int MPI_Win_wait(MPI_Win w) { REFUSED("MPI_Win_wait", PMPI_Win_wait(w)); }
int MPI_Win_test(MPI_Win w, int *flag) { REFUSED("MPI_Win_test", PMPI_Win_test(w, flag)); }
