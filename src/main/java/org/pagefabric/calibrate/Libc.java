package org.pagefabric.calibrate;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;

/**
 * The C library calls the probes make, as Foreign Function &amp; Memory downcalls (no JNI). Every
 * call that can fail captures {@code errno} into this instance's own segment, so one instance
 * belongs to one thread: the userfaultfd handler thread has its own, allocated before it waits
 * for a fault, and none of its calls allocates on the Java heap.
 *
 * <p>Methods return what the C function returns; a failure is {@code -1} (or
 * {@link #MAP_FAILED} for mmap) with {@link #errno()} set, as in C, because the probes decide
 * per call whether a failure means "skip this measurement" or "a bug".
 */
public final class Libc {
    /** mmap's failure value. */
    public static final long MAP_FAILED = -1L;
    /** Linux base page size on the hosts the probes support. */
    public static final long PAGE = 4096;

    static final int PROT_READ_WRITE = 0x3;
    static final int MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20;
    static final int MADV_DONTNEED = 4;
    static final int MADV_HUGEPAGE = 14;
    static final int MADV_NOHUGEPAGE = 15;
    static final int RLIMIT_MEMLOCK = 8;
    static final int O_RDWR = 02;
    static final int O_NONBLOCK = 04000;
    static final int O_CLOEXEC = 02000000;
    static final short POLLIN = 0x1;
    static final int EPERM = 1;
    static final int EINTR = 4;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EEXIST = 17;
    static final int EINVAL = 22;
    static final int ENOSYS = 38;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final long ERRNO_OFFSET = CAPTURE.byteOffset(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO = Linker.Option.captureCallState("errno");

    private static final MethodHandle MMAP = handle("mmap",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG), ERRNO);
    private static final MethodHandle MUNMAP = handle("munmap",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    private static final MethodHandle MLOCK = handle("mlock",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    private static final MethodHandle MUNLOCK = handle("munlock",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    private static final MethodHandle MADVISE = handle("madvise",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT), ERRNO);
    private static final MethodHandle MINCORE = handle("mincore",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG), ERRNO);
    private static final MethodHandle GETRLIMIT = handle("getrlimit",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS), ERRNO);
    /** {@code long syscall(long number, ...)} with one variadic argument. */
    private static final MethodHandle SYSCALL1 = handle("syscall",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG), ERRNO, Linker.Option.firstVariadicArg(1));
    /** {@code int ioctl(int fd, unsigned long request, ...)} with one pointer-sized argument. */
    private static final MethodHandle IOCTL = handle("ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO, Linker.Option.firstVariadicArg(2));
    /** {@code int open(const char *path, int flags, ...)} with the mode argument. */
    private static final MethodHandle OPEN = handle("open",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), ERRNO, Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = handle("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT), ERRNO);
    private static final MethodHandle READ = handle("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG), ERRNO);
    private static final MethodHandle POLL = handle("poll",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT), ERRNO);
    /*
     * The same three calls without errno capture, for the userfaultfd handler: a capturing
     * downcall allocates a small object per call until the JIT's escape analysis removes it, and
     * the handler must not allocate. It needs no errno: it retries poll and read, and the
     * resolving ioctls report their error in the structure they are given.
     */
    private static final MethodHandle IOCTL_PLAIN = handle("ioctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, JAVA_LONG), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle READ_PLAIN = handle("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle POLL_PLAIN = handle("poll",
            FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    /** memchr and memset touch memory from native code: a thread faulting there is in native state. */
    private static final MethodHandle MEMCHR = handle("memchr",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MEMSET = handle("memset",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_LONG));

    private final MemorySegment state;

    /** A call context with its own errno slot, for one thread. */
    public Libc(Arena arena) {
        this.state = arena.allocate(CAPTURE);
    }

    private static MethodHandle handle(String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment symbol = LINKER.defaultLookup().find(name)
                .orElseThrow(() -> new UnsatisfiedLinkError("the C library has no " + name));
        return LINKER.downcallHandle(symbol, fd, options);
    }

    /** The errno the last failing call of this instance left. */
    public int errno() {
        return state.get(JAVA_INT, ERRNO_OFFSET);
    }

    /** Anonymous private read-write mapping; {@link #MAP_FAILED} on failure. */
    public long mmapAnonymous(long length) {
        try {
            return (long) MMAP.invokeExact(state, 0L, length, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS, -1, 0L);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** munmap. */
    public int munmap(long addr, long length) {
        try {
            return (int) MUNMAP.invokeExact(state, addr, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mlock. */
    public int mlock(long addr, long length) {
        try {
            return (int) MLOCK.invokeExact(state, addr, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** munlock. */
    public int munlock(long addr, long length) {
        try {
            return (int) MUNLOCK.invokeExact(state, addr, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** madvise. */
    public int madvise(long addr, long length, int advice) {
        try {
            return (int) MADVISE.invokeExact(state, addr, length, advice);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** mincore into the byte vector at {@code vec} (one byte per page). */
    public int mincore(long addr, long length, long vec) {
        try {
            return (int) MINCORE.invokeExact(state, addr, length, vec);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** getrlimit into a 16-byte {@code struct rlimit}. */
    public int getrlimit(int resource, MemorySegment rlimit) {
        try {
            return (int) GETRLIMIT.invokeExact(state, resource, rlimit);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A raw system call with one argument. */
    public long syscall(long number, long arg) {
        try {
            return (long) SYSCALL1.invokeExact(state, number, arg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ioctl with a pointer or integer argument. */
    public int ioctl(int fd, long request, long arg) {
        try {
            return (int) IOCTL.invokeExact(state, fd, request, arg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** open with a NUL-terminated path. */
    public int open(MemorySegment path, int flags) {
        try {
            return (int) OPEN.invokeExact(state, path, flags, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** close. */
    public int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(state, fd);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** read into native memory. */
    public long read(int fd, long buf, long count) {
        try {
            return (long) READ.invokeExact(state, fd, buf, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** poll over {@code nfds} pollfd structures at {@code fds}. */
    public int poll(long fds, long nfds, int timeoutMillis) {
        try {
            return (int) POLL.invokeExact(state, fds, nfds, timeoutMillis);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ioctl without errno capture (allocation-free even when interpreted). */
    public static int ioctlNoErrno(int fd, long request, long arg) {
        try {
            return (int) IOCTL_PLAIN.invokeExact(fd, request, arg);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** read without errno capture. */
    public static long readNoErrno(int fd, long buf, long count) {
        try {
            return (long) READ_PLAIN.invokeExact(fd, buf, count);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** poll without errno capture. */
    public static int pollNoErrno(long fds, long nfds, int timeoutMillis) {
        try {
            return (int) POLL_PLAIN.invokeExact(fds, nfds, timeoutMillis);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Reads {@code length} bytes at {@code addr} from native code (memchr for a byte never there). */
    public static long readFromNative(long addr, long length) {
        try {
            return (long) MEMCHR.invokeExact(addr, 0x100 - 1, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Writes {@code length} bytes at {@code addr} from native code. */
    public static void memset(long addr, int value, long length) {
        try {
            long ignored = (long) MEMSET.invokeExact(addr, value, length);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("native call failed", t);
    }
}
