package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import rankgrad.ltr.io.AtomicWrite;

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
 * <p>Within one JVM a second acquire of a locked folder fails the same way as from another process
 * (without opening the lock file again: on Linux, closing any channel of a file drops every lock
 * the process holds on it). A folder inside the folder of another live run is refused too: that
 * run owns everything below its folder.
 *
 * <p>The lock file is opened without following a symbolic link, and refused when it is a link, not
 * a regular file, or has other hard links: the process id written into it must never land in
 * another file (as root, a link planted there could name any file on the machine).
 *
 * <p>Holding the folder, the run owns every temporary file {@link AtomicWrite} left there: acquiring
 * removes those of killed writers ({@link AtomicWrite#removeStale(Path)}) in the folder and its
 * direct subfolders (ensemble members, folds).
 */
public final class RunLock implements AutoCloseable {
    /** The lock file's name inside the folder. */
    public static final String FILE_NAME = ".rankgrad.lock";

    /** The lock files this JVM holds (absolute, normalized, real folders). */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

    private final FileChannel channel;
    private final FileLock lock;
    private final Path file;

    private RunLock(FileChannel channel, FileLock lock, Path file) {
        this.channel = channel;
        this.lock = lock;
        this.file = file;
    }

    /**
     * Creates {@code folder} if needed and locks it, or fails at once if another run holds it.
     *
     * @throws FolderLockedException naming the folder and the process that holds it
     */
    public static RunLock acquire(Path folder) throws IOException {
        Files.createDirectories(folder);
        Path real = folder.toRealPath();
        Path file = real.resolve(FILE_NAME);
        if (!HELD.add(file)) {
            throw new FolderLockedException(folder, Long.toString(ProcessHandle.current().pid()));
        }
        try {
            return acquire(folder, real, file);
        } catch (IOException | RuntimeException e) {
            HELD.remove(file);
            throw e;
        }
    }

    private static RunLock acquire(Path folder, Path real, Path file) throws IOException {
        FileChannel channel = open(file);
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
        try {
            requirePlainFile(file);
            requireNoRunAbove(folder, real);
            byte[] pid = Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII);
            channel.truncate(0);
            channel.write(ByteBuffer.wrap(pid), 0);
            AtomicWrite.removeStale(folder);
            try (var children = Files.newDirectoryStream(folder, child -> Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS))) {
                for (Path child : children) {
                    AtomicWrite.removeStale(child);
                }
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new RunLock(channel, lock, file);
    }

    /** Refuses a folder inside the folder of another live run (in this JVM or another process). */
    private static void requireNoRunAbove(Path folder, Path real) throws IOException {
        for (Path p = real.getParent(); p != null; p = p.getParent()) {
            Path other = p.resolve(FILE_NAME);
            if (HELD.contains(other)) {
                throw new FolderLockedException(folder, p, Long.toString(ProcessHandle.current().pid()));
            }
            if (!Files.isRegularFile(other, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            FileChannel c;
            try {
                c = FileChannel.open(other, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                continue; // not ours to open (another user's, read-only): no run of ours holds it
            }
            try (c) {
                FileLock probe = c.tryLock();
                if (probe == null) {
                    throw new FolderLockedException(folder, p, holder(c));
                }
                probe.release();
            }
        }
    }

    /** Opens (creating) the lock file, never through a symbolic link. */
    private static FileChannel open(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) {
            throw refused(file, "is a symbolic link");
        }
        try {
            return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            // a link planted between the check and the open
            if (Files.isSymbolicLink(file)) {
                throw refused(file, "is a symbolic link");
            }
            throw e;
        }
    }

    /**
     * Refuses a lock file that is not a regular file of its own: a hard link to another file would
     * have that file overwritten with the process id.
     */
    private static void requirePlainFile(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw refused(file, "is not a regular file");
        }
        Object links;
        try {
            links = Files.getAttribute(file, "unix:nlink", LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return; // no link count on this file system (Windows): hard links cannot be checked
        }
        if (links instanceof Integer n && n > 1) {
            throw refused(file, "has " + n + " hard links (it is also another file)");
        }
    }

    private static IOException refused(Path file, String problem) {
        return new IOException(file + " " + problem + "; rankgrad writes its process id there and does not write into"
                + " another file: remove it (rm " + file + ") and run again");
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
            HELD.remove(file);
            channel.close();
        }
    }
}
