package rankgrad.ltr.train;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process {@link RunLockTest} kills with SIGKILL: it locks the folder {@code args[0]}, creates
 * the file {@code args[1]} to say so, and waits to be killed.
 */
public final class LockHoldingChild {
    private LockHoldingChild() {
    }

    public static void main(String[] args) throws Exception {
        RunLock lock = RunLock.acquire(Path.of(args[0]));
        Files.createFile(Path.of(args[1]));
        Thread.sleep(600_000);
        lock.close();
    }
}
