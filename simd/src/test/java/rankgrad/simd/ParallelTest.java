package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The team runs every task exactly once, from any caller, and reports a task's failure. A lost
 * wake-up hangs a pass forever; the timeout runs each test on its own thread (an interrupt alone
 * would not end such a pass) and turns the hang into a failure.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
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
                Arrays.fill(expected, 1);
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
        Arrays.fill(expected, 200);
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
        assertSame(boom, thrown);
        // The team still works afterwards.
        int[] ones = new int[20];
        Arrays.fill(ones, 1);
        assertArrayEquals(ones, runCounts(20));
    }

    @Test
    void aCallerThatParkedWhileAWorkerFinishesIsWoken() {
        // Each thread holds one of the two tasks until both have started; then the worker's task
        // outlasts the spin window twenty times over, so the caller, done first, parks in every pass
        // and only the worker finishing the last task can wake it (the 50 passes take about 50 ms).
        Parallel.setThreads(2);
        Thread caller = Thread.currentThread();
        for (int pass = 0; pass < 50; pass++) {
            AtomicIntegerArray runs = new AtomicIntegerArray(2);
            CountDownLatch started = new CountDownLatch(2);
            Parallel.forEach(2, t -> {
                started.countDown();
                awaitOrFail(started);
                if (Thread.currentThread() != caller) {
                    LockSupport.parkNanos(20 * Parallel.SPIN_NANOS);
                }
                runs.incrementAndGet(t);
            });
            assertEquals(1, runs.get(0), "pass " + pass);
            assertEquals(1, runs.get(1), "pass " + pass);
        }
    }

    @Test
    void workersThatParkedAfterAnIdleGapTakeTheNextPass() throws InterruptedException {
        Parallel.setThreads(3);
        for (int pass = 0; pass < 20; pass++) {
            // Longer than the spin window: the workers park between passes and must be unparked.
            Thread.sleep(1);
            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            CountDownLatch all = new CountDownLatch(3);
            Parallel.forEach(3, t -> {
                ran.add(Thread.currentThread());
                all.countDown();
                // Holds each thread until all three tasks have started, so three threads ran them.
                awaitOrFail(all);
            });
            assertEquals(3, ran.size(), "pass " + pass);
        }
    }

    /** Waits for the latch; a thread that never arrives fails the task, and so the pass. */
    private static void awaitOrFail(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS), "a worker never took its task");
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
