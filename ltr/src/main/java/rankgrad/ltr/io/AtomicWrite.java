package rankgrad.ltr.io;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
        Path tmp = Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp");
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
            try (var channel = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
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

    /** Writes a UTF-8 string atomically. */
    public static void writeString(Path target, String content) throws IOException {
        write(target, out -> out.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }
}
