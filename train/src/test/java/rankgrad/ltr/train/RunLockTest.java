package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLockTest {
    @TempDir
    Path dir;

    @Test
    void aHeldFolderRefusesASecondRunUntilReleased() throws Exception {
        Path folder = dir.resolve("out");
        try (RunLock first = RunLock.acquire(folder)) {
            FolderLockedException e = assertThrows(FolderLockedException.class, () -> RunLock.acquire(folder));
            assertEquals(folder, e.folder());
            assertEquals("another rankgrad run is using " + folder + " (process " + ProcessHandle.current().pid()
                    + "); wait for it to finish or write to another folder", e.getMessage());
        }
        try (RunLock again = RunLock.acquire(folder)) {
            assertTrue(Files.exists(folder.resolve(RunLock.FILE_NAME)), "the lock file stays; only the lock is released");
        }
    }

    @Test
    void aKilledHolderLeavesTheFolderFree() throws Exception {
        Path folder = dir.resolve("out");
        Path ready = dir.resolve("ready");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), LockHoldingChild.class.getName(), folder.toString(), ready.toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (Files.notExists(ready) && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(ready), "the child took no lock: " + Files.readString(dir.resolve("child.log")));
            FolderLockedException e = assertThrows(FolderLockedException.class, () -> RunLock.acquire(folder));
            assertTrue(e.getMessage().contains("(process " + child.pid() + ")"), e.getMessage());
        } finally {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        try (RunLock mine = RunLock.acquire(folder)) {
            assertTrue(Files.exists(folder.resolve(RunLock.FILE_NAME)));
        }
    }
}
