package rankgrad.ltr.train;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
            assertThrows(FolderLockedException.class, () -> RunLock.acquire(folder.resolve("inner")));
            // The refused second acquire must not have dropped the held lock (closing a second channel of the
            // lock file would, on Linux): another process would now get the folder.
            assertThrows(FolderLockedException.class, () -> RunLock.acquire(folder));
        }
        try (RunLock inner = RunLock.acquire(folder.resolve("inner"))) {
            assertTrue(Files.exists(folder.resolve("inner").resolve(RunLock.FILE_NAME)), "free once the outer run ended");
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
            Path inner = folder.resolve("compare");
            FolderLockedException nested = assertThrows(FolderLockedException.class, () -> RunLock.acquire(inner));
            assertEquals("another rankgrad run is using " + folder.toRealPath() + " (process " + child.pid() + "), and "
                    + inner + " is inside it; wait for that run to finish or write outside its folder", nested.getMessage());
        } finally {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        try (RunLock mine = RunLock.acquire(folder)) {
            assertTrue(Files.exists(folder.resolve(RunLock.FILE_NAME)));
        }
    }

    @Test
    void aSymbolicLinkAtTheLockFileIsRefusedAndItsTargetKept() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("out"));
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createSymbolicLink(folder.resolve(RunLock.FILE_NAME), victim);
        Exception e = assertThrows(java.io.IOException.class, () -> RunLock.acquire(folder));
        assertEquals(folder.resolve(RunLock.FILE_NAME) + " is a symbolic link; rankgrad writes its process id there and does"
                + " not write into another file: remove it (rm " + folder.resolve(RunLock.FILE_NAME) + ") and run again",
                e.getMessage());
        assertEquals("precious\n", Files.readString(victim));
    }

    @Test
    void aHardLinkAtTheLockFileIsRefusedAndTheOtherNameKept() throws Exception {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("unix"));
        Path folder = Files.createDirectories(dir.resolve("out"));
        Path victim = Files.writeString(dir.resolve("victim"), "precious\n");
        Files.createLink(folder.resolve(RunLock.FILE_NAME), victim);
        Exception e = assertThrows(java.io.IOException.class, () -> RunLock.acquire(folder));
        assertTrue(e.getMessage().contains("has 2 hard links"), e.getMessage());
        assertEquals("precious\n", Files.readString(victim));
    }

    @Test
    void acquiringRemovesTheTemporariesKilledWritersLeftInTheFolderAndItsSubfolders() throws Exception {
        Path folder = Files.createDirectories(dir.resolve("out"));
        Path member = Files.createDirectories(folder.resolve("member-1"));
        Path top = Files.writeString(folder.resolve(".checkpoint.json.1f2e3d4c5b6a7988.tmp"), "half");
        Path inner = Files.writeString(member.resolve(".model.json.abc.tmp"), "half");
        Path other = Files.writeString(folder.resolve("notes.tmp"), "the user's");
        try (RunLock lock = RunLock.acquire(folder)) {
            assertTrue(Files.notExists(top) && Files.notExists(inner));
            assertEquals("the user's", Files.readString(other), "only the atomic writes' own temporaries go");
        }
    }
}
