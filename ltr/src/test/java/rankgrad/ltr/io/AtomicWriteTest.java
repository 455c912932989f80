package rankgrad.ltr.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
