package rankgrad.ltr.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a file so that readers see either the old content or the complete new content, never a
 * partial file: the bytes go to a temporary file in the same directory, are forced to disk, and
 * the temporary file is renamed over the target. If writing fails the temporary file is removed
 * and the target is untouched. Names ending in {@code .gz} are gzip-compressed.
 */
public final class AtomicWrite {

    /** What writes the content. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicWrite() {
    }

    /** Writes {@code target} atomically with the bytes {@code body} produces. */
    public static void write(Path target, Body body) throws IOException {
        Path abs = target.toAbsolutePath();
        Path dir = abs.getParent();
        Files.createDirectories(dir);
        Path tmp = createTemporary(dir, abs.getFileName().toString());
        try {
            try (OutputStream file = Files.newOutputStream(tmp);
                    OutputStream buffered = new BufferedOutputStream(file, 1 << 16)) {
                if (abs.getFileName().toString().endsWith(".gz")) {
                    try (GZIPOutputStream gz = new GZIPOutputStream(buffered, 1 << 16)) {
                        body.writeTo(gz);
                    }
                } else {
                    body.writeTo(buffered);
                }
            }
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
            try {
                Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * A new empty file beside the target. Not {@code Files.createTempFile}: that makes the file
     * owner-only (0600), and the rename would hand that mode to the result; a plain create gets the
     * user's umask, like any other file the user writes.
     */
    private static Path createTemporary(Path dir, String name) throws IOException {
        while (true) {
            Path tmp = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (FileAlreadyExistsException e) {
                // another writer drew the same name: draw again
            }
        }
    }

    /** Writes a UTF-8 string atomically. */
    public static void writeString(Path target, String content) throws IOException {
        write(target, out -> out.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
