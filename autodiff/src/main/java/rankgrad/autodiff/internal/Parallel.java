package rankgrad.autodiff.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.function.IntConsumer;
import java.util.stream.IntStream;

/**
 * Runs independent tasks on a fixed-size pool, for kernels that split work over rows or queries.
 *
 * <p>Determinism: callers choose the number of tasks and what each covers from the problem size
 * alone, never from the thread count, and each task writes only its own outputs. Then results are
 * bit-identical for any number of threads; only the wall time changes.
 *
 * <p>The thread count is read once from the system property {@code rankgrad.threads} (default: the
 * available processors) and can be changed with {@link #setThreads(int)}.
 */
public final class Parallel {
    private static volatile ForkJoinPool pool = newPool(Integer.getInteger("rankgrad.threads",
            Runtime.getRuntime().availableProcessors()));

    private Parallel() {
    }

    /** The number of worker threads. */
    public static int threads() {
        return pool.getParallelism();
    }

    /** Replaces the pool with one of {@code n} threads (n >= 1). */
    public static synchronized void setThreads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + n);
        }
        if (n != threads()) {
            ForkJoinPool old = pool;
            pool = newPool(n);
            old.shutdown();
        }
    }

    /**
     * Runs {@code body.accept(t)} for t = 0 .. tasks-1, in parallel when there are several tasks and
     * threads, and returns when all are done. An exception in a task is rethrown.
     */
    public static void forEach(int tasks, IntConsumer body) {
        ForkJoinPool p = pool;
        if (tasks <= 1 || p.getParallelism() == 1 || Thread.currentThread() instanceof ForkJoinWorkerThread) {
            for (int t = 0; t < tasks; t++) {
                body.accept(t);
            }
            return;
        }
        p.submit(() -> IntStream.range(0, tasks).parallel().forEach(body)).join();
    }

    /** The number of tasks of about {@code grain} items each that cover {@code n} items (at least 1). */
    public static int tasksFor(long n, long grain) {
        return (int) Math.max(1, Math.min(4096, (n + grain - 1) / grain));
    }

    private static ForkJoinPool newPool(int n) {
        return new ForkJoinPool(Math.max(1, n), p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            t.setName("rankgrad-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, false);
    }
}
