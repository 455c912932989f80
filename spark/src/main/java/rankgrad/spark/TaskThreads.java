package rankgrad.spark;

import java.util.HashSet;
import java.util.Set;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;
import rankgrad.simd.Parallel;

/**
 * Keeps rankgrad's own thread pool within the cores Spark gives a task, and gives it back when the
 * tasks are done. rankgrad splits large kernels over a pool of {@code rankgrad.threads} threads
 * (default: every processor of the machine), while Spark runs {@code spark.executor.cores /
 * spark.task.cpus} tasks at once in an executor: left alone, each task would fan out over the whole
 * machine and oversubscribe it.
 *
 * <p>So while a task runs, the pool is sized to the task's {@code spark.task.cpus}
 * ({@link TaskContext#cpus()}; 1 by default, where kernels then run on the task's own thread)
 * unless {@code -Drankgrad.threads=N} was given to the executor JVM, which wins. The pool is per
 * JVM and shared by the tasks running in it: the first task to start records its size, and the
 * last one to end restores it. That matters in local mode, where the tasks run in the driver's
 * JVM: without it the application's own rankgrad calls (and the training step's optimizer on the
 * driver) would run on one thread after the first Spark job. Results are bit-identical for any
 * thread count.
 */
final class TaskThreads {
    /** The system property that fixes the pool size and turns this adjustment off. */
    static final String PROPERTY = "rankgrad.threads";

    /** The task attempts of this JVM that hold the pool at their size (each counted once). */
    private static final Set<Long> RUNNING = new HashSet<>();
    /** The pool's size before the first of {@link #RUNNING} started. */
    private static int before;

    private TaskThreads() {
    }

    /**
     * Sizes the pool for the current task until it ends (no-op outside a task or with the
     * property set). Cheap to call once per query: a task is counted once.
     */
    static void limit() {
        TaskContext task = TaskContext.get();
        if (task == null || System.getProperty(PROPERTY) != null) {
            return;
        }
        int cpus = Math.max(1, task.cpus());
        long attempt = task.taskAttemptId();
        synchronized (TaskThreads.class) {
            if (!RUNNING.add(attempt)) {
                return;
            }
            if (RUNNING.size() == 1) {
                before = Parallel.threads();
            }
            if (Parallel.threads() != cpus) {
                Parallel.setThreads(cpus);
            }
        }
        // Completion listeners run when the task ends in any way: success, failure or kill.
        task.addTaskCompletionListener((TaskCompletionListener) ended -> release(attempt));
    }

    private static synchronized void release(long attempt) {
        if (RUNNING.remove(attempt) && RUNNING.isEmpty() && Parallel.threads() != before) {
            Parallel.setThreads(before);
        }
    }
}
