package rankgrad.autodiff.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pool runs every task exactly once, from any caller, and reports a task's failure. */
class ParallelTest {
    private final int before = Parallel.threads();

    @AfterEach
    void restore() {
        Parallel.setThreads(before);
    }

    private static int[] runCounts(int tasks) {
        AtomicIntegerArray runs = new AtomicIntegerArray(tasks);
        Parallel.forEach(tasks, runs::incrementAndGet);
        int[] out = new int[tasks];
        for (int t = 0; t < tasks; t++) {
            out[t] = runs.get(t);
        }
        return out;
    }

    @Test
    void everyTaskRunsExactlyOnceForOneToFourThreadsAcrossManyPasses() {
        for (int threads = 1; threads <= 4; threads++) {
            Parallel.setThreads(threads);
            for (int pass = 0; pass < 2000; pass++) {
                int tasks = pass % 37;
                int[] expected = new int[tasks];
                java.util.Arrays.fill(expected, 1);
                assertArrayEquals(expected, runCounts(tasks), threads + " threads, pass " + pass);
            }
        }
    }

    @Test
    void aNestedCallRunsItsTasksToo() {
        Parallel.setThreads(3);
        AtomicIntegerArray runs = new AtomicIntegerArray(8 * 5);
        Parallel.forEach(8, outer -> Parallel.forEach(5, inner -> runs.incrementAndGet(outer * 5 + inner)));
        for (int i = 0; i < runs.length(); i++) {
            assertEquals(1, runs.get(i), "task " + i);
        }
    }

    @Test
    void concurrentCallersEachGetAllTheirTasks() throws InterruptedException {
        Parallel.setThreads(2);
        int[][] results = new int[4][];
        Thread[] callers = new Thread[4];
        for (int c = 0; c < callers.length; c++) {
            int id = c;
            callers[c] = new Thread(() -> {
                int[] sum = new int[100];
                for (int pass = 0; pass < 200; pass++) {
                    int[] counts = runCounts(100);
                    for (int t = 0; t < 100; t++) {
                        sum[t] += counts[t];
                    }
                }
                results[id] = sum;
            });
            callers[c].start();
        }
        int[] expected = new int[100];
        java.util.Arrays.fill(expected, 200);
        for (int c = 0; c < callers.length; c++) {
            callers[c].join();
            assertArrayEquals(expected, results[c], "caller " + c);
        }
    }

    @Test
    void aFailingTaskRethrowsItsException() {
        Parallel.setThreads(2);
        IllegalStateException boom = new IllegalStateException("task 7");
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Parallel.forEach(20, t -> {
            if (t == 7) {
                throw boom;
            }
        }));
        // The pool may rethrow a copy made in the calling thread, with the original as its cause.
        assertTrue(thrown == boom || thrown.getCause() == boom, "rethrown: " + thrown);
        // The pool still works afterwards.
        int[] ones = new int[20];
        java.util.Arrays.fill(ones, 1);
        assertArrayEquals(ones, runCounts(20));
    }
}
