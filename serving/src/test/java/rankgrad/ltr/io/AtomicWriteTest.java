package rankgrad.ltr.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicWriteTest {
    @TempDir
    Path dir;

    @Test
    void aFailedWriteLeavesTheOldFileAndNoTemporaryFile() throws IOException {
        Path target = dir.resolve("model.json");
        AtomicWrite.writeString(target, "old");
        IOException e = assertThrows(IOException.class, () -> AtomicWrite.write(target, out -> {
            out.write("partial new content".getBytes());
            throw new IOException("disk full");
        }));
        assertEquals("disk full", e.getMessage(), "what the body throws (about its own input, say) passes unchanged");
        assertEquals("old", Files.readString(target));
        try (var files = Files.list(dir)) {
            assertEquals(1, files.count());
        }
        AtomicWrite.writeString(target, "new");
        assertEquals("new", Files.readString(target));
    }

    @Test
    void theWrittenFileGetsTheUmaskPermissionsOfAnyNewFile() throws IOException {
        assumeTrue(dir.getFileSystem().supportedFileAttributeViews().contains("posix"));
        Path plain = Files.createFile(dir.resolve("plain.txt"));
        Path written = dir.resolve("written.txt");
        AtomicWrite.writeString(written, "x");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(written));
    }

    @Test
    void aFailureOfTheWritingItselfNamesTheTarget() throws IOException {
        Path target = Files.createDirectories(dir.resolve("taken"));
        Files.writeString(target.resolve("inside"), "x");
        IOException e = assertThrows(IOException.class, () -> AtomicWrite.writeString(target, "new"));
        assertTrue(e.getMessage().startsWith(target + ": cannot be written: "), e.getMessage());
        Path underFile = Files.writeString(dir.resolve("plain"), "x").resolve("scores.txt");
        IOException f = assertThrows(IOException.class, () -> AtomicWrite.writeString(underFile, "new"));
        assertTrue(f.getMessage().startsWith(underFile + ": cannot be written: "), f.getMessage());
        try (var files = Files.list(dir)) {
            assertEquals(0, files.filter(p -> p.getFileName().toString().endsWith(".tmp")).count());
        }
    }

    @Test
    void aSymbolicLinkAtTheTargetIsReplacedNotWrittenThrough() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), "precious");
        Path target = dir.resolve("scores.txt");
        Files.createSymbolicLink(target, victim);
        AtomicWrite.writeString(target, "scores");
        assertEquals("precious", Files.readString(victim));
        assertTrue(!Files.isSymbolicLink(target));
        assertEquals("scores", Files.readString(target));
    }

    @Test
    void aWriteRemovesTheStaleTemporariesOfItsTargetOnly() throws IOException {
        Path stale = Files.writeString(dir.resolve(".model.json.0123456789abcdef.tmp"), "a killed write");
        Path otherTarget = Files.writeString(dir.resolve(".metrics.csv.42.tmp"), "another target's");
        AtomicWrite.writeString(dir.resolve("model.json"), "{}");
        assertTrue(Files.notExists(stale));
        assertTrue(Files.exists(otherTarget));
        assertEquals(1, AtomicWrite.removeStale(dir));
        assertTrue(Files.notExists(otherTarget));
    }

    @Test
    void aLiveWriterInAnotherProcessKeepsItsTemporaryUntilKilled() throws Exception {
        Path target = dir.resolve("checkpoint.json");
        Path ready = dir.resolve("ready");
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), SlowWriterChild.class.getName(), target.toString(), ready.toString());
        Process child = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile())
                .start();
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (Files.notExists(ready) && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(Files.exists(ready), "the child wrote nothing: " + Files.readString(dir.resolve("child.log")));
            assertEquals(0, AtomicWrite.removeStale(dir), "the child holds its temporary: it is not stale");
            assertEquals(1, temporaries());
        } finally {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
        assertEquals(1, temporaries(), "kill -9 skips the writer's clean-up");
        assertEquals(1, AtomicWrite.removeStale(dir), "the kernel released the dead writer's lock");
        assertEquals(0, temporaries());
    }

    private long temporaries() throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tmp")).count();
        }
    }
}
