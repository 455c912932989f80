package rankgrad.simd;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntConsumer;

/**
 * Runs independent tasks on a fixed team of threads, for kernels that split work over rows or queries.
 *
 * <p>Determinism: callers choose the number of tasks and what each covers from the problem size
 * alone, never from the thread count, and each task writes only its own outputs. Then results are
 * bit-identical for any number of threads; only the wall time changes.
 *
 * <p>The thread count is read once from the system property {@code rankgrad.threads} (default: the
 * available processors) and can be changed with {@link #setThreads(int)}.
 *
 * <p>Why not a {@code ForkJoinPool}: a training step runs about a hundred passes of 10 to 500
 * microseconds. A pool parks its workers after each pass, and the caller parks in {@code join}, so
 * every pass paid three park/unpark round trips through the kernel. Here the caller is a member
 * of the team and claims tasks itself; the {@code threads - 1} workers claim from a shared counter
 * and, after a pass, spin for at most {@link #SPIN_NANOS} before they park, long enough to bridge
 * the gaps between the passes of one step and short enough that an idle or oversubscribed machine
 * loses little. A caller whose tasks are still running on a worker spins as briefly, then parks
 * until the worker that finishes the last task wakes it. A call from inside a task, or from a
 * second thread while a pass runs, executes its tasks on the calling thread (same results).
 */
public final class Parallel {
    /** How long a thread spins for work (or for the end of a pass) before it parks. */
    static final long SPIN_NANOS = 50_000;

    private static volatile Team team = new Team(Integer.getInteger("rankgrad.threads",
            Runtime.getRuntime().availableProcessors()));

    private Parallel() {
    }

    /** The number of threads that run tasks (the caller and the workers). */
    public static int threads() {
        return team.size;
    }

    /** Replaces the team with one of {@code n} threads (n >= 1). */
    public static synchronized void setThreads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + n);
        }
        if (n != threads()) {
            Team old = team;
            team = new Team(n);
            old.shutdown();
        }
    }

    /**
     * Runs {@code body.accept(t)} for t = 0 .. tasks-1, in parallel when there are several tasks and
     * threads, and returns when all are done. An exception in a task is rethrown (the first one).
     */
    public static void forEach(int tasks, IntConsumer body) {
        Team t = team;
        if (tasks <= 1 || t.size == 1 || !t.tryRun(tasks, body)) {
            for (int i = 0; i < tasks; i++) {
                body.accept(i);
            }
        }
    }

    /** The number of tasks of about {@code grain} items each that cover {@code n} items (at least 1). */
    public static int tasksFor(long n, long grain) {
        return (int) Math.max(1, Math.min(4096, (n + grain - 1) / grain));
    }

    /** One parallel pass: tasks are claimed from {@code next}; {@code done} counts finished ones. */
    private static final class Job {
        final int tasks;
        final IntConsumer body;
        final Thread caller = Thread.currentThread();
        final AtomicInteger next = new AtomicInteger();
        final AtomicInteger done = new AtomicInteger();
        volatile boolean callerParked;
        volatile Throwable error;

        Job(int tasks, IntConsumer body) {
            this.tasks = tasks;
            this.body = body;
        }

        void work() {
            for (int t = next.getAndIncrement(); t < tasks; t = next.getAndIncrement()) {
                try {
                    if (error == null) {
                        body.accept(t);
                    }
                } catch (Throwable e) {
                    if (error == null) {
                        error = e;
                    }
                } finally {
                    if (done.incrementAndGet() == tasks && callerParked) {
                        LockSupport.unpark(caller);
                    }
                }
            }
        }

        /** Returns when every task has finished: spins briefly, then parks until the last one wakes it. */
        void awaitDone() {
            long start = System.nanoTime();
            while (done.get() < tasks) {
                if (System.nanoTime() - start < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    callerParked = true;
                    // Re-checked after announcing: a last task that finished before this read is seen
                    // here, one that finishes after it sees callerParked and unparks the caller.
                    if (done.get() < tasks) {
                        LockSupport.park(this);
                    }
                }
            }
        }

        void rethrow() {
            Throwable e = error;
            if (e instanceof RuntimeException r) {
                throw r;
            }
            if (e instanceof Error err) {
                throw err;
            }
            if (e != null) {
                throw new RuntimeException(e);
            }
        }
    }

    private static final class Team {
        final int size;
        private final Worker[] workers;
        private final ReentrantLock lock = new ReentrantLock();
        private volatile Job job;
        private volatile boolean shutdown;

        Team(int size) {
            this.size = Math.max(1, size);
            workers = new Worker[this.size - 1];
            for (int i = 0; i < workers.length; i++) {
                workers[i] = new Worker(this, i + 1);
                workers[i].start();
            }
        }

        /** Runs the pass with the team; false when the caller must run it alone (busy team, nested call). */
        boolean tryRun(int tasks, IntConsumer body) {
            if (Thread.currentThread() instanceof Worker || lock.isHeldByCurrentThread() || !lock.tryLock()) {
                return false;
            }
            try {
                Job j = new Job(tasks, body);
                job = j;
                for (Worker w : workers) {
                    if (w.parked) {
                        LockSupport.unpark(w);
                    }
                }
                j.work();
                j.awaitDone();
                job = null;
                j.rethrow();
                return true;
            } finally {
                lock.unlock();
            }
        }

        void shutdown() {
            shutdown = true;
            for (Worker w : workers) {
                LockSupport.unpark(w);
            }
        }
    }

    private static final class Worker extends Thread {
        private final Team team;
        /** Set before the worker parks; the caller unparks it after publishing a job. */
        volatile boolean parked;

        Worker(Team team, int index) {
            super("rankgrad-" + index);
            this.team = team;
            setDaemon(true);
        }

        @Override
        public void run() {
            Job last = null;
            long idleSince = System.nanoTime();
            while (!team.shutdown) {
                Job j = team.job;
                if (j != null && j != last) {
                    last = j;
                    j.work();
                    idleSince = System.nanoTime();
                } else if (System.nanoTime() - idleSince < SPIN_NANOS) {
                    Thread.onSpinWait();
                } else {
                    parked = true;
                    // Re-read after announcing: a job published before this read is seen here, one
                    // published after it finds parked set and unparks this thread.
                    Job again = team.job;
                    if ((again == null || again == last) && !team.shutdown) {
                        LockSupport.park(this);
                    }
                    parked = false;
                    idleSince = System.nanoTime();
                }
            }
        }
    }
}
