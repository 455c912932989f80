package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps a folder to one training run at a time: an exclusive operating-system lock on the file
 * {@code .rankgrad.lock} in it, held until {@link #close()}. The operating system releases the
 * lock when the process ends in any way (a kill included), so a killed run never leaves the folder
 * locked; the lock file itself stays, holding the process id of the last run for messages.
 *
 * <pre>{@code
 * try (RunLock lock = RunLock.acquire(outDir)) {
 *     ... train with checkpoints in outDir, write results there ...
 * }
 * }</pre>
 *
 * <p>Within one JVM a second acquire of a locked folder fails the same way as from another process.
 */
public final class RunLock implements AutoCloseable {
    /** The lock file's name inside the folder. */
    public static final String FILE_NAME = ".rankgrad.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private RunLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Creates {@code folder} if needed and locks it, or fails at once if another run holds it.
     *
     * @throws FolderLockedException naming the folder and the process that holds it
     */
    public static RunLock acquire(Path folder) throws IOException {
        Files.createDirectories(folder);
        Path file = folder.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            String holder = holder(channel);
            channel.close();
            throw new FolderLockedException(folder, holder);
        }
        byte[] pid = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII);
        channel.truncate(0);
        channel.write(ByteBuffer.wrap(pid), 0);
        return new RunLock(channel, lock);
    }

    private static String holder(FileChannel channel) {
        try {
            ByteBuffer buf = ByteBuffer.allocate(32);
            int n = channel.read(buf, 0);
            String pid = n <= 0 ? "" : new String(buf.array(), 0, n, StandardCharsets.US_ASCII).strip();
            return pid.matches("\\d+") ? pid : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** Releases the lock (the file stays). */
    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
