package rankgrad.ltr.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
        assertEquals("disk full", e.getMessage());
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
}
