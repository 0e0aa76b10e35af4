package org.pagefabric.hw.cpu;

import java.util.Arrays;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.collect.IntDeque;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.TimeWeightedAverage;

/**
 * One CPU core: it runs one work item at a time, and a busy core delays everything else that
 * needs it.
 *
 * <p><b>Scheduling.</b> Work comes in three priority classes, each a FIFO run queue:
 * {@link #INTERRUPT} (hard interrupt handlers), {@link #TASKLET} (softirq work) and
 * {@link #THREAD} (kernel and user threads). The highest non-empty class runs. Scheduling is
 * preemptive across classes, as in Linux: an arriving interrupt suspends a running tasklet or
 * thread item at once, and a tasklet suspends a running thread item (softirqs run on interrupt
 * exit, before the interrupted task resumes). The suspended item goes back to the head of its
 * queue with its remaining cost, so it resumes before later work of its class. Items of the
 * same class never preempt each other: interrupt handlers run with interrupts masked,
 * tasklets are serialised per core, and thread items model the code between two scheduling
 * points. Threads are pinned to their core (no migration).
 *
 * <p><b>Overheads</b>, from {@link CpuCosts}: an interrupt pays its entry cost once; a thread
 * item pays a context switch when its {@link CpuThread} differs from the last thread that ran
 * on this core (interrupts and tasklets borrow the current context and switch nothing, so a
 * thread resuming after an interrupt pays nothing); an idle core pays its idle-exit cost.
 *
 * <p><b>Polling.</b> A started {@link PollingThread} owns the core's thread class: while it
 * spins, other threads' items wait (interrupts and tasklets still preempt it). Work posted to
 * it is noticed at the end of the current poll iteration; the spin counts as busy time.
 *
 * <p><b>Continuations</b> run synchronously inside the core's completion event (band
 * {@link Band#KERNEL}) before the core picks its next item, so work they submit to this core
 * competes by priority at once. A {@link Completion} is completed with the item's argument.
 *
 * <p>Work items live in primitive arrays reused through a free list: no allocation per item in
 * steady state.
 */
public final class Core extends Component {
    /** Priority class of hard interrupt handlers. */
    public static final int INTERRUPT = 0;
    /** Priority class of tasklets (softirq). */
    public static final int TASKLET = 1;
    /** Priority class of thread work. */
    public static final int THREAD = 2;

    /** Run queue of a polling thread's own work: thread class, but owned by the poller. */
    private static final int POLL_QUEUE = 3;
    private static final int THREAD_QUEUE = 2;
    private static final int QUEUES = 4;
    private static final int NONE = -1;

    private static final int EV_FINISH = 0;
    private static final int EV_POLL_CHECK = 1;

    private final int index;
    private final CpuCosts costs;

    // Work item pool: one slot per item in flight on this core.
    private long[] cost = new long[16];
    private long[] submitted = new long[16];
    private long[] arg = new long[16];
    private int[] type = new int[16];
    private int[] queueOf = new int[16];
    private int[] threadId = new int[16];
    private boolean[] started = new boolean[16];
    private EventHandler[] onDone = new EventHandler[16];
    private WorkBody[] body = new WorkBody[16];
    private Completion[] completion = new Completion[16];
    private int[] free = new int[16];
    private int freeCount;
    private int capacity;

    private final IntDeque[] queues = new IntDeque[QUEUES];

    private int running = NONE;
    private long runEnd;
    private long runEvent = Simulator.NO_EVENT;
    private int lastThread = NONE;
    private boolean inCallback;

    private PollingThread poller;
    private boolean spinning;
    private long spinStart;
    private long pollCheckEvent = Simulator.NO_EVENT;

    private boolean busy;
    private long busySince;
    private long busyAccumulated;

    private final TimeWeightedAverage busyLevel;
    private final LatencyHistogram queueDelay;
    private final Counter contextSwitches;
    private final Counter interrupts;
    private final Counter tasklets;
    private final Counter threadItems;
    private final Counter preemptions;

    Core(Cpu cpu, int index, CpuCosts costs) {
        super(cpu.simulator(), cpu, "core" + index);
        this.index = index;
        this.costs = costs;
        for (int q = 0; q < QUEUES; q++) {
            queues[q] = new IntDeque();
        }
        busyLevel = level("busy", "cores", "1 while the core runs or spins, 0 while idle");
        queueDelay = latency("queueDelay", "time from submission until a work item first gets the core");
        contextSwitches = counter("contextSwitches", "switches", "switches between different threads");
        interrupts = counter("interrupts", "interrupts", "interrupt handlers started");
        tasklets = counter("tasklets", "tasklets", "tasklet runs started");
        threadItems = counter("threadItems", "items", "thread work items completed");
        preemptions = counter("preemptions", "items", "items suspended by higher-priority work");
    }

    /** This core's index in its CPU. */
    public int index() {
        return index;
    }

    /**
     * Submits work to this core.
     *
     * @param priorityClass {@link #INTERRUPT}, {@link #TASKLET} or {@link #THREAD}
     * @param thread        the thread the work runs in (required for {@link #THREAD}, else null)
     * @param costPs        the work's cost in picoseconds, used when {@code workBody} is null
     * @param workBody      asked for the cost when the work starts, or null
     * @param done          run when the work finishes, or null
     * @param doneType      type given to {@code workBody} and {@code done}
     * @param doneArg       argument given to {@code workBody} and {@code done}, and value of
     *                      {@code completion}
     * @param completion    completed when the work finishes, or null
     */
    public void submit(int priorityClass, CpuThread thread, long costPs, WorkBody workBody, EventHandler done,
            int doneType, long doneArg, Completion completion) {
        int q;
        switch (priorityClass) {
            case INTERRUPT -> q = INTERRUPT;
            case TASKLET -> q = TASKLET;
            case THREAD -> {
                if (thread == null) {
                    throw new IllegalArgumentException("thread work needs a CpuThread");
                }
                q = THREAD_QUEUE;
            }
            default -> throw new IllegalArgumentException("priority class " + priorityClass + " is not 0..2");
        }
        enqueue(q, thread, costPs, workBody, done, doneType, doneArg, completion);
    }

    /** Queues work of a polling thread; called by {@link PollingThread}. */
    void submitPolled(CpuThread thread, long costPs, EventHandler done, int doneType, long doneArg,
            Completion completion) {
        enqueue(POLL_QUEUE, thread, costPs, null, done, doneType, doneArg, completion);
    }

    private void enqueue(int q, CpuThread thread, long costPs, WorkBody workBody, EventHandler done, int doneType,
            long doneArg, Completion c) {
        if (workBody == null && costPs < 0) {
            throw new IllegalArgumentException("negative cost " + costPs + " ps");
        }
        if (thread != null && thread.core() != this) {
            throw new IllegalArgumentException("thread " + thread.name() + " is pinned to " + thread.core().name()
                    + ", not " + name());
        }
        int id = allocate();
        cost[id] = costPs;
        submitted[id] = sim.now();
        arg[id] = doneArg;
        type[id] = doneType;
        queueOf[id] = q;
        threadId[id] = thread == null ? NONE : thread.id();
        started[id] = false;
        onDone[id] = done;
        body[id] = workBody;
        completion[id] = c;
        queues[q].addLast(id);
        if (inCallback) {
            return; // the finishing item's event dispatches after its continuation returns
        }
        if (running != NONE) {
            if (classOf(q) < classOf(queueOf[running])) {
                preempt();
                dispatch();
            }
        } else if (spinning) {
            if (q == POLL_QUEUE) {
                schedulePollCheck();
            } else if (q != THREAD_QUEUE) {
                stopSpinning();
                dispatch();
            }
        } else {
            dispatch();
        }
    }

    private static int classOf(int queue) {
        return queue >= THREAD_QUEUE ? THREAD : queue;
    }

    @Override
    public void handle(int eventType, long eventArg) {
        switch (eventType) {
            case EV_FINISH -> finish((int) eventArg);
            case EV_POLL_CHECK -> {
                pollCheckEvent = Simulator.NO_EVENT;
                if (spinning && !queues[POLL_QUEUE].isEmpty()) {
                    stopSpinning();
                    dispatch();
                }
            }
            default -> throw new IllegalStateException("unknown event type " + eventType);
        }
    }

    private void finish(int id) {
        running = NONE;
        runEvent = Simulator.NO_EVENT;
        EventHandler done = onDone[id];
        Completion c = completion[id];
        int t = type[id];
        long a = arg[id];
        if (classOf(queueOf[id]) == THREAD) {
            threadItems.increment();
        }
        release(id);
        inCallback = true;
        try {
            if (c != null) {
                c.complete(a);
            }
            if (done != null) {
                done.handle(t, a);
            }
        } finally {
            inCallback = false;
        }
        dispatch();
    }

    /** Starts the most urgent work, spins for a poller, or goes idle. */
    private void dispatch() {
        if (running != NONE || spinning) {
            return;
        }
        int q;
        if (!queues[INTERRUPT].isEmpty()) {
            q = INTERRUPT;
        } else if (!queues[TASKLET].isEmpty()) {
            q = TASKLET;
        } else if (poller != null && poller.isRunning()) {
            if (queues[POLL_QUEUE].isEmpty()) {
                startSpinning();
                return;
            }
            q = POLL_QUEUE;
        } else if (!queues[THREAD_QUEUE].isEmpty()) {
            q = THREAD_QUEUE;
        } else {
            goIdle();
            return;
        }
        start(queues[q].pollFirst());
    }

    private void start(int id) {
        long overhead = becomeBusy();
        int q = queueOf[id];
        if (q == INTERRUPT && !started[id]) {
            overhead += costs.interruptEntryPs();
            interrupts.increment();
        } else if (q == TASKLET && !started[id]) {
            tasklets.increment();
        }
        if (classOf(q) == THREAD) {
            overhead += switchTo(threadId[id]);
        }
        if (!started[id]) {
            started[id] = true;
            queueDelay.record(sim.now() - submitted[id]);
            if (body[id] != null) {
                long c = body[id].begin(type[id], arg[id]);
                if (c < 0) {
                    throw new IllegalStateException("work body returned a negative cost " + c + " ps");
                }
                cost[id] = c;
            }
        }
        running = id;
        long delay = overhead + cost[id];
        runEnd = sim.now() + delay;
        runEvent = schedule(delay, Band.KERNEL, EV_FINISH, id);
    }

    /** Charges a context switch if {@code thread} is not the last thread on this core. */
    private long switchTo(int thread) {
        if (thread == lastThread) {
            return 0;
        }
        lastThread = thread;
        contextSwitches.increment();
        return costs.contextSwitchPs();
    }

    private void preempt() {
        int id = running;
        sim.cancel(runEvent);
        runEvent = Simulator.NO_EVENT;
        cost[id] = runEnd - sim.now();
        running = NONE;
        queues[queueOf[id]].addFirst(id);
        preemptions.increment();
    }

    private void startSpinning() {
        long overhead = becomeBusy() + switchTo(poller.thread().id());
        spinning = true;
        spinStart = sim.now() + overhead;
    }

    private void stopSpinning() {
        spinning = false;
        if (pollCheckEvent != Simulator.NO_EVENT) {
            sim.cancel(pollCheckEvent);
            pollCheckEvent = Simulator.NO_EVENT;
        }
    }

    /** The poller looks at its queue at the end of each iteration of its loop. */
    private void schedulePollCheck() {
        if (pollCheckEvent != Simulator.NO_EVENT) {
            return; // an earlier check is pending and will see this work too
        }
        long now = sim.now();
        long delay;
        if (now <= spinStart) {
            delay = spinStart - now;
        } else {
            long iteration = costs.pollIterationPs();
            delay = (iteration - (now - spinStart) % iteration) % iteration;
        }
        pollCheckEvent = schedule(delay, Band.KERNEL, EV_POLL_CHECK, 0);
    }

    /** Marks the core busy and returns the idle-exit cost if it was idle. */
    private long becomeBusy() {
        if (busy) {
            return 0;
        }
        busy = true;
        busySince = sim.now();
        busyLevel.set(1);
        return costs.idleExitPs();
    }

    private void goIdle() {
        if (busy) {
            busy = false;
            busyAccumulated += sim.now() - busySince;
            busyLevel.set(0);
        }
    }

    void attachPoller(PollingThread p) {
        if (poller != null && poller != p) {
            throw new IllegalStateException(name() + " already has polling thread " + poller.thread().name());
        }
        poller = p;
    }

    /** Called when the poller starts or stops. */
    void pollerChanged() {
        if (spinning && !poller.isRunning()) {
            stopSpinning();
        }
        if (running == NONE && !inCallback) {
            dispatch();
        }
    }

    private int allocate() {
        if (freeCount == 0) {
            if (capacity == cost.length) {
                int n = capacity * 2;
                cost = Arrays.copyOf(cost, n);
                submitted = Arrays.copyOf(submitted, n);
                arg = Arrays.copyOf(arg, n);
                type = Arrays.copyOf(type, n);
                queueOf = Arrays.copyOf(queueOf, n);
                threadId = Arrays.copyOf(threadId, n);
                started = Arrays.copyOf(started, n);
                onDone = Arrays.copyOf(onDone, n);
                body = Arrays.copyOf(body, n);
                completion = Arrays.copyOf(completion, n);
                free = Arrays.copyOf(free, n);
            }
            return capacity++;
        }
        return free[--freeCount];
    }

    private void release(int id) {
        onDone[id] = null;
        body[id] = null;
        completion[id] = null;
        free[freeCount++] = id;
    }

    /** Whether the core neither runs work nor spins. */
    public boolean isIdle() {
        return !busy;
    }

    /** Whether a polling thread spins on this core right now. */
    public boolean isSpinning() {
        return spinning;
    }

    /** The priority class of the running item, or -1 if none runs. */
    public int runningClass() {
        return running == NONE ? NONE : classOf(queueOf[running]);
    }

    /** Items waiting in the run queues (not counting the running one). */
    public int queued() {
        int n = 0;
        for (IntDeque q : queues) {
            n += q.size();
        }
        return n;
    }

    /** Picoseconds this core has been busy (running or spinning) so far. */
    public long busyPs() {
        return busyAccumulated + (busy ? sim.now() - busySince : 0);
    }

    /** Context switches so far. */
    public long contextSwitches() {
        return contextSwitches.value();
    }

    /** Interrupt handlers started so far. */
    public long interruptsTaken() {
        return interrupts.value();
    }

    /** Tasklet runs started so far. */
    public long taskletRuns() {
        return tasklets.value();
    }

    /** Items suspended by higher-priority work so far. */
    public long preemptions() {
        return preemptions.value();
    }

    /** The queue-delay histogram. */
    public LatencyHistogram queueDelay() {
        return queueDelay;
    }

    /** The busy level (1 busy, 0 idle) whose time average is the utilisation. */
    public TimeWeightedAverage busyLevel() {
        return busyLevel;
    }
}
