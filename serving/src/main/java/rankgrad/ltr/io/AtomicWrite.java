package rankgrad.ltr.io;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a file so that readers see either the old content or the complete new content, never a
 * partial file: the bytes go to a temporary file {@code .NAME.<hex>.tmp} in the same directory, are
 * forced to disk, the temporary file is renamed over the target and the directory is forced to disk
 * (so that the rename itself survives a power cut). If writing fails the temporary file is removed
 * and the target is untouched. Names ending in {@code .gz} are gzip-compressed.
 *
 * <p>Links: the temporary file is created new ({@code O_EXCL}, which never follows a link) and
 * written through that one open channel; the rename replaces a link at the target instead of
 * writing through it. No write lands in another file.
 *
 * <p>Killed writers: a kill -9 skips every clean-up, so a temporary file can outlive its writer.
 * While writing, a writer holds an operating-system lock on its temporary file (released by the
 * kernel when the process dies, like {@code RunLock}'s); {@link #removeStale(Path)} removes the
 * temporaries nobody holds, and every write first removes the stale temporaries of its own target.
 *
 * <p>Shutdown: {@link #abandonAll()} (a shutdown hook's call, on SIGTERM or SIGINT) deletes the
 * temporaries being written and refuses new writes and renames, so that a signal leaves every
 * target either complete or as it was, and no temporary file.
 */
public final class AtomicWrite {
    /** {@code .NAME.<hex>.tmp}: what {@link #createTemporary} makes (group 1 is NAME). */
    private static final Pattern TEMPORARY = Pattern.compile("\\.(.+)\\.[0-9a-f]{1,16}\\.tmp");

    /** The temporaries this JVM is writing; guards {@link #abandoned} and every rename. */
    private static final Set<Path> LIVE = new HashSet<>();
    private static boolean abandoned;

    /** What writes the content. */
    @FunctionalInterface
    public interface Body {
        void writeTo(OutputStream out) throws IOException;
    }

    private AtomicWrite() {
    }

    /**
     * Writes {@code target} atomically with the bytes {@code body} produces. A failure of the
     * writing itself (a full disk, a read-only folder) names the target; what {@code body} throws
     * (a malformed input it reads, say) passes through unchanged.
     */
    public static void write(Path target, Body body) throws IOException {
        Path abs = target.toAbsolutePath();
        try {
            writeOrFail(abs, body);
        } catch (OutputFailure e) {
            throw named(abs, e.getCause());
        }
    }

    private static IOException named(Path target, IOException e) {
        return new IOException(target + ": cannot be written: " + (e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getMessage()), e);
    }

    /** An I/O failure of the output itself, as opposed to one {@code body} raised. */
    private static final class OutputFailure extends IOException {
        OutputFailure(IOException cause) {
            super(cause);
        }

        @Override
        public synchronized IOException getCause() {
            return (IOException) super.getCause();
        }
    }

    /**
     * The temporary's channel as a stream whose failures are the output's ({@link OutputFailure});
     * closing it leaves the channel open: its lock keeps the temporary from being taken for stale
     * until the rename.
     */
    private static final class ChannelStream extends FilterOutputStream {
        ChannelStream(FileChannel channel) {
            super(Channels.newOutputStream(channel));
        }

        @Override
        public void write(int b) throws IOException {
            output(() -> {
                out.write(b);
                return null;
            });
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            output(() -> {
                out.write(b, off, len);
                return null;
            });
        }

        @Override
        public void flush() throws IOException {
            output(() -> {
                out.flush();
                return null;
            });
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }

    /** Runs one output step, marking its I/O failure as the output's. */
    private interface OutputStep<T> {
        T run() throws IOException;
    }

    private static <T> T output(OutputStep<T> step) throws OutputFailure {
        try {
            return step.run();
        } catch (OutputFailure e) {
            throw e;
        } catch (IOException e) {
            throw new OutputFailure(e);
        }
    }

    private static void writeOrFail(Path abs, Body body) throws IOException {
        Path dir = abs.getParent();
        output(() -> Files.createDirectories(dir));
        String name = abs.getFileName().toString();
        output(() -> removeStale(dir, name));
        FileChannel channel = null;
        Path tmp = null;
        boolean moved = false;
        try {
            while (channel == null) {
                Temporary t = output(() -> createTemporary(dir, name));
                tmp = t.path();
                channel = output(() -> lockedIfStillThere(t));
                if (channel == null) {
                    synchronized (LIVE) {
                        LIVE.remove(tmp);
                    }
                }
            }
            try (OutputStream file = new ChannelStream(channel);
                    OutputStream buffered = new BufferedOutputStream(file, 1 << 16)) {
                if (name.endsWith(".gz")) {
                    try (GZIPOutputStream gz = new GZIPOutputStream(buffered, 1 << 16)) {
                        body.writeTo(gz);
                    }
                } else {
                    body.writeTo(buffered);
                }
            }
            FileChannel written = channel;
            Path from = tmp;
            output(() -> {
                written.force(true);
                rename(from, abs);
                return null;
            });
            moved = true;
            syncDirectory(dir);
        } finally {
            if (channel != null) {
                channel.close();
            }
            if (tmp != null) {
                synchronized (LIVE) {
                    LIVE.remove(tmp);
                }
                if (!moved) {
                    Files.deleteIfExists(tmp);
                }
            }
        }
    }

    /**
     * Opens and locks a temporary just created; null when a cleaner in another process took it for
     * stale and removed it between the create and the lock (then the caller draws a new name).
     */
    private static FileChannel lockedIfStillThere(Temporary t) throws IOException {
        FileChannel channel = t.channel();
        try {
            channel.lock();
            // A cleaner deletes only while holding the lock; now that this writer holds it, the file is safe.
            if (Files.exists(t.path(), LinkOption.NOFOLLOW_LINKS)) {
                return channel;
            }
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        channel.close();
        return null;
    }

    private static void rename(Path tmp, Path target) throws IOException {
        synchronized (LIVE) {
            if (abandoned) {
                throw new IOException("not renamed into place: the process is shutting down");
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /**
     * Forces the directory entry of the rename to disk. Some systems (Windows) cannot open a
     * directory for this; there the rename is as durable as the file system makes it.
     */
    private static void syncDirectory(Path dir) {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // not supported here: nothing more to do
        }
    }

    /** A temporary file and the one channel it is written through. */
    private record Temporary(Path path, FileChannel channel) {
    }

    /**
     * A new empty file beside the target, created and opened in one step (so nothing can swap a
     * link in between) and registered as live. Not {@code Files.createTempFile}: that makes the file
     * owner-only (0600), and the rename would hand that mode to the result; a plain create gets the
     * user's umask, like any other file the user writes.
     */
    private static Temporary createTemporary(Path dir, String name) throws IOException {
        while (true) {
            Path tmp = dir.resolve("." + name + "." + Long.toHexString(ThreadLocalRandom.current().nextLong()) + ".tmp");
            synchronized (LIVE) {
                if (abandoned) {
                    throw new IOException("not written: the process is shutting down");
                }
                try {
                    FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    LIVE.add(tmp);
                    return new Temporary(tmp, channel);
                } catch (FileAlreadyExistsException e) {
                    // another writer drew the same name: draw again
                }
            }
        }
    }

    /** Writes a UTF-8 string atomically. */
    public static void writeString(Path target, String content) throws IOException {
        write(target, out -> out.write(content.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    /**
     * Removes from {@code dir} the temporary files of atomic writes whose writer is gone (killed):
     * those no process holds locked. Temporaries being written, by this JVM or another process, stay.
     * Returns how many were removed; a missing folder has none.
     */
    public static int removeStale(Path dir) throws IOException {
        return removeStale(dir, null);
    }

    /** {@link #removeStale(Path)} for the temporaries of target {@code name} only (null: every target). */
    private static int removeStale(Path dir, String name) throws IOException {
        List<Path> candidates = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> {
            var m = TEMPORARY.matcher(p.getFileName().toString());
            return m.matches() && (name == null || m.group(1).equals(name));
        })) {
            entries.forEach(candidates::add);
        } catch (NoSuchFileException e) {
            return 0;
        }
        int removed = 0;
        for (Path p : candidates) {
            if (removeIfStale(p)) {
                removed++;
            }
        }
        return removed;
    }

    private static boolean removeIfStale(Path tmp) throws IOException {
        synchronized (LIVE) {
            if (LIVE.contains(tmp)) {
                // This JVM writes it; opening and closing a second channel would drop the writer's lock (POSIX).
                return false;
            }
        }
        if (Files.isSymbolicLink(tmp)) {
            return Files.deleteIfExists(tmp); // a planted link: remove the link, never its target
        }
        if (!Files.isRegularFile(tmp, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                return false;
            }
            if (lock == null) {
                return false; // a live writer in another process
            }
            return Files.deleteIfExists(tmp);
        } catch (NoSuchFileException e) {
            return false; // renamed or removed meanwhile
        }
    }

    /**
     * Deletes every temporary this JVM is writing and makes every later write and rename fail: for
     * a shutdown hook, so that a process ended by a signal leaves no temporary file and no target
     * half-replaced. Returns the targets whose writes were abandoned (their old content stays).
     */
    public static List<Path> abandonAll() {
        synchronized (LIVE) {
            abandoned = true;
            List<Path> out = new ArrayList<>();
            for (Path tmp : LIVE) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // the process is ending; nothing else can be done about it
                }
                var m = TEMPORARY.matcher(tmp.getFileName().toString());
                out.add(m.matches() ? tmp.resolveSibling(m.group(1)) : tmp);
            }
            LIVE.clear();
            return out;
        }
    }
}
