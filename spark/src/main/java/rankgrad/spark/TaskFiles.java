package rankgrad.spark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.util.Utils;

/**
 * Temporary files of a Spark task, in the executor's local directories (Spark's own choice among
 * {@code spark.local.dir}, {@code SPARK_LOCAL_DIRS}, or the cluster manager's directories such as
 * YARN's container directories: the disks Spark spills and shuffles to), never in
 * {@code java.io.tmpdir} blindly, which on a cluster node is often a small system partition.
 * Each file is deleted when its task ends, whether it succeeds, fails or is killed; a caller that
 * is done earlier deletes it itself. A killed executor JVM leaves them to Spark's clean-up of its
 * local directories.
 */
final class TaskFiles {
    private TaskFiles() {
    }

    /**
     * A new empty file named {@code prefix...suffix} in one of this executor's local directories,
     * deleted when the current task ends.
     *
     * @throws IllegalStateException outside a Spark task
     */
    static Path create(String prefix, String suffix) throws IOException {
        TaskContext task = TaskContext.get();
        SparkEnv env = SparkEnv.get();
        if (task == null || env == null) {
            throw new IllegalStateException("a task file is made inside a Spark task only");
        }
        // The executor's local root directories (created on first use, removed when its JVM stops).
        Path dir = Path.of(Utils.getLocalDir(env.conf()));
        Path file = Files.createTempFile(dir, prefix, suffix);
        task.addTaskCompletionListener((TaskCompletionListener) ended -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // Not worth failing a finished task for: the directory is Spark's, removed with the executor.
            }
        });
        return file;
    }
}
