package rankgrad.ltr.letor;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PushbackInputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * The lines of a text data file as bytes, numbered from 1, without decoding them to Strings.
 *
 * <p>Opening checks everything that makes a file unreadable as text and names the file: a
 * directory, a file that cannot be read, a compressed or binary file ({@link FileKind}). Gzip data
 * is decompressed (recognized by its magic bytes, whatever the file's name), and a UTF-8
 * byte-order mark at the start is skipped. Damaged gzip data is reported at the line it cuts:
 * the complete lines before it are read. A line is the bytes up to {@code '\n'}; a {@code '\r'} before it stays (callers
 * treat it as white space).
 */
final class ByteLines implements Closeable {
    /** The longest line read; a longer one means binary data or a file without line breaks. */
    static final int MAX_LINE_BYTES = 1 << 26;

    private final String name;
    private final InputStream in;
    private final boolean gzip;
    private byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private boolean eof;
    /** What ends the data early (damaged gzip data), or null; with why, reported at the line it cuts. */
    private String damage;
    private String damageWhy;
    private int start;
    private int end;
    private long line;

    private ByteLines(String name, InputStream in, boolean gzip) {
        this.name = name;
        this.in = in;
        this.gzip = gzip;
    }

    /** Opens {@code file}; every error names it. */
    static ByteLines open(Path file) throws IOException {
        String name = file.toString();
        if (Files.isDirectory(file)) {
            throw new FileSystemException(name, null, "a directory, not a file");
        }
        InputStream raw;
        try {
            raw = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file");
        } catch (AccessDeniedException e) {
            throw new AccessDeniedException(name, null, "permission denied: the file cannot be read");
        } catch (FileSystemException e) {
            throw new FileSystemException(name, null, "cannot be read: " + e.getReason());
        }
        ByteLines lines;
        try {
            PushbackInputStream peek = new PushbackInputStream(raw, 2);
            byte[] magic = peek.readNBytes(2);
            peek.unread(magic);
            if (FileKind.of(magic, magic.length) == FileKind.GZIP) {
                lines = new ByteLines(name, new GZIPInputStream(peek, 1 << 16), true);
            } else {
                lines = new ByteLines(name, peek, false);
            }
        } catch (EOFException | ZipException e) {
            raw.close();
            throw new LetorFormatException(name, 0, "the gzip header is damaged or cut short (" + e.getMessage() + ")");
        } catch (IOException e) {
            raw.close();
            throw new FileSystemException(name, null, "cannot be read: " + e.getMessage());
        }
        try {
            lines.sniff();
        } catch (IOException e) {
            lines.close();
            throw e;
        }
        return lines;
    }

    private void sniff() throws IOException {
        while (limit < FileKind.SNIFF_BYTES && !eof) {
            fill();
        }
        FileKind kind = FileKind.of(buf, Math.min(limit, FileKind.SNIFF_BYTES));
        if (kind != FileKind.TEXT) {
            throw new LetorFormatException(name, 0, kind.problem(gzip));
        }
        if (FileKind.hasUtf8Bom(buf, limit)) {
            pos = 3;
        }
    }

    /** The file's name as given. */
    String name() {
        return name;
    }

    /** Advances to the next line; false at the end of the file. */
    boolean next() throws IOException {
        int k = pos;
        while (true) {
            while (k < limit && buf[k] != '\n') {
                k++;
            }
            if (k < limit) {
                start = pos;
                end = k;
                pos = k + 1;
                line++;
                return true;
            }
            if (eof) {
                if (damage != null) {
                    throw new LetorFormatException(name, line + 1, damage + " in this line (" + damageWhy + ")");
                }
                if (pos < limit) {
                    start = pos;
                    end = limit;
                    pos = limit;
                    line++;
                    return true;
                }
                return false;
            }
            int scanned = k - pos;
            fill();
            k = pos + scanned;
        }
    }

    /** The buffer holding the current line at {@link #start()} to {@link #end()}. */
    byte[] bytes() {
        return buf;
    }

    /** Where the current line starts in {@link #bytes()}. */
    int start() {
        return start;
    }

    /** Where the current line ends (exclusive, before its {@code '\n'}). */
    int end() {
        return end;
    }

    /** The current line's 1-based number. */
    long line() {
        return line;
    }

    /**
     * For gzip data: reads on to the end and says what damages the data, or null when it is
     * whole (always null for plain text). A bad line in damaged gzip data is the damage's doing,
     * which the gzip checksum at the end shows.
     */
    String damageAhead() throws IOException {
        if (!gzip) {
            return null;
        }
        while (damage == null && !eof) {
            pos = limit;
            fill();
        }
        return damage == null ? null : damage + " (" + damageWhy + ")";
    }

    /** Moves the unread bytes to the front, grows the buffer when one line fills it, reads more. */
    private void fill() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        if (limit == buf.length) {
            if (buf.length >= MAX_LINE_BYTES) {
                throw new LetorFormatException(name, line + 1, "a line longer than " + (MAX_LINE_BYTES >> 20)
                        + " MiB: not LETOR text (binary data, or no line breaks?)");
            }
            buf = Arrays.copyOf(buf, Math.min(2 * buf.length, MAX_LINE_BYTES));
        }
        int n;
        try {
            n = in.read(buf, limit, buf.length - limit);
        } catch (EOFException e) {
            if (!gzip) {
                throw new FileSystemException(name, null, "cannot be read: " + e.getMessage());
            }
            n = -1;
            damage = "the gzip data is cut short";
            damageWhy = "a truncated file or download?";
        } catch (ZipException e) {
            n = -1;
            damage = "the gzip data is damaged";
            damageWhy = e.getMessage();
        } catch (IOException e) {
            throw new FileSystemException(name, null, "cannot be read: " + e.getMessage());
        }
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
