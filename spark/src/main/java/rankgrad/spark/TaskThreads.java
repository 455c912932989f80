package rankgrad.spark;

import org.apache.spark.TaskContext;
import rankgrad.simd.Parallel;

/**
 * Keeps rankgrad's own thread pool within the cores Spark gives a task. rankgrad splits large
 * kernels over a pool of {@code rankgrad.threads} threads (default: every processor of the
 * machine), while Spark runs {@code spark.executor.cores / spark.task.cpus} tasks at once in an
 * executor: left alone, each task would fan out over the whole machine and oversubscribe it.
 *
 * <p>So before a task scores, the pool is sized to the task's {@code spark.task.cpus}
 * ({@link TaskContext#cpus()}; 1 by default, where kernels then run on the task's own thread)
 * unless {@code -Drankgrad.threads=N} was given to the executor JVM, which wins. The pool is per
 * JVM and shared by the tasks running in it; results are bit-identical for any thread count.
 */
final class TaskThreads {
    /** The system property that fixes the pool size and turns this adjustment off. */
    static final String PROPERTY = "rankgrad.threads";

    private TaskThreads() {
    }

    /** Sizes the pool for the current task (no-op outside a task or with the property set). */
    static void limit() {
        TaskContext task = TaskContext.get();
        if (task == null || System.getProperty(PROPERTY) != null) {
            return;
        }
        int cpus = Math.max(1, task.cpus());
        if (Parallel.threads() != cpus) {
            Parallel.setThreads(cpus);
        }
    }
}
