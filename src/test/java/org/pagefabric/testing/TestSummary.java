package org.pagefabric.testing;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Ends a test run with one line, pass or fail: {@code tests: 812 run, 0 failed, 3 skipped in 7 min
 * 42 s}. {@code ./mvnw -q verify} is otherwise silent for minutes, and a failure's line must say how
 * much else passed. Registered through {@code META-INF/services}, so every JUnit Platform launcher
 * (surefire, an IDE) prints it; it writes to the process's own standard error, which surefire shows
 * even where it sends the tests' output to files.
 */
public final class TestSummary implements TestExecutionListener {
    private final AtomicLong run = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private long started;

    @Override
    public void testPlanExecutionStarted(TestPlan plan) {
        started = System.nanoTime();
    }

    @Override
    public void executionSkipped(TestIdentifier id, String reason) {
        if (id.isTest()) {
            skipped.incrementAndGet();
        }
    }

    @Override
    public void executionFinished(TestIdentifier id, TestExecutionResult result) {
        if (!id.isTest()) {
            // a class whose set-up failed fails its tests without running them
            if (result.getStatus() == TestExecutionResult.Status.FAILED && id.isContainer()) {
                failed.incrementAndGet();
            }
            return;
        }
        switch (result.getStatus()) {
            case SUCCESSFUL -> run.incrementAndGet();
            case ABORTED -> skipped.incrementAndGet();
            case FAILED -> {
                run.incrementAndGet();
                failed.incrementAndGet();
            }
        }
    }

    @Override
    public void testPlanExecutionFinished(TestPlan plan) {
        // not System.err: surefire redirects it to a file; the descriptor reaches the console
        PrintStream err = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
        err.println(line(run.get(), failed.get(), skipped.get(), (System.nanoTime() - started) / 1_000_000_000L));
        err.flush();
    }

    /** {@code tests: 812 run, 0 failed, 3 skipped in 7 min 42 s}. */
    static String line(long run, long failed, long skipped, long seconds) {
        String time = seconds >= 60 ? String.format(Locale.ROOT, "%d min %d s", seconds / 60, seconds % 60)
                : seconds + " s";
        return "tests: " + run + " run, " + failed + " failed, " + skipped + " skipped in " + time
                + (failed > 0 ? " (FAILED; details above and in target/surefire-reports)" : "");
    }
}
