package rankgrad.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What the first pass learns about one chunk, enough for the driver to cut the files into regions
 * of whole queries: the line breaks in the chunk (for line numbers in messages), and the data lines
 * that start in the chunk where a query may start. A line belongs to the chunk its first byte is in.
 * Only the first two fields of each line are looked at (label and {@code qid:}), and the feature
 * indices when the width is to be found; the full check is the second pass's.
 *
 * @param newlines line breaks in [start, end)
 * @param firstStart offset of the first data line starting in the chunk, or -1 if none
 * @param firstNl line breaks in [start, firstStart)
 * @param firstQid that line's qid
 * @param firstComment that line's comment (text after '#', stripped)
 * @param secondStart offset of the first data line in the chunk whose qid differs from the data
 *        line before it in the chunk, or -1
 * @param secondNl line breaks in [start, secondStart)
 * @param lastQid the qid of the last data line starting in the chunk
 * @param noQidNl line breaks before the first data line without {@code qid:}, or -1
 * @param maxIndex the largest feature index seen (0 unless asked for)
 */
record ChunkScan(long newlines, long firstStart, long firstNl, String firstQid, String firstComment, long secondStart,
        long secondNl, String lastQid, long noQidNl, int maxIndex) implements Serializable {

    private static final byte[] QID = "qid:".getBytes(StandardCharsets.US_ASCII);

    /** Scans {@code chunk}; reads on past its end only to finish its last line. */
    static ChunkScan of(FileChunk chunk, HadoopConf conf, boolean findWidth) throws IOException {
        Path path = new Path(chunk.uri());
        FileSystem fs = path.getFileSystem(conf.toConfiguration());
        try (FSDataInputStream raw = fs.open(path)) {
            boolean atLineStart = true;
            if (chunk.start() > 0) {
                raw.seek(chunk.start() - 1);
                atLineStart = raw.read() == '\n';
            }
            InputStream in = chunk.gzip() ? new GZIPInputStream(raw, 1 << 16) : raw;
            long end = chunk.gzip() ? Long.MAX_VALUE : chunk.end();
            return new Scanner(in, chunk.start(), end, findWidth).run(atLineStart);
        }
    }

    /** One pass over a chunk's bytes. */
    private static final class Scanner {
        private final InputStream in;
        private final long end;
        private final boolean findWidth;
        private final byte[] buf = new byte[1 << 16];
        private int n;
        private int i;
        private long pos;
        private byte[] line = new byte[256];
        private int length;

        Scanner(InputStream in, long start, long end, boolean findWidth) {
            this.in = in;
            this.pos = start;
            this.end = end;
            this.findWidth = findWidth;
        }

        ChunkScan run(boolean atLineStart) throws IOException {
            long newlines = 0;
            if (!atLineStart) {
                int ended = readLine();
                if (ended == '\n' && pos - 1 < end) {
                    newlines++;
                }
            }
            long firstStart = -1;
            long firstNl = -1;
            String firstQid = null;
            String firstComment = null;
            long secondStart = -1;
            long secondNl = -1;
            String lastQid = null;
            long noQidNl = -1;
            int maxIndex = 0;
            while (pos < end) {
                long lineStart = pos;
                long nl = newlines;
                int ended = readLine();
                if (ended == -1 && length == 0) {
                    break;
                }
                if (ended == '\n' && pos - 1 < end) {
                    newlines++;
                }
                int t0 = skipSpace(0);
                if (t0 == length || line[t0] == '#') {
                    continue;
                }
                int t0end = tokenEnd(t0);
                int t1 = skipSpace(t0end);
                String qid;
                if (t1 + QID.length <= length && Arrays.equals(line, t1, t1 + QID.length, QID, 0, QID.length)) {
                    int qEnd = tokenEnd(t1);
                    qid = new String(line, t1 + QID.length, qEnd - t1 - QID.length, StandardCharsets.UTF_8);
                    if (findWidth) {
                        maxIndex = Math.max(maxIndex, maxIndex(qEnd));
                    }
                } else {
                    if (noQidNl < 0) {
                        noQidNl = nl;
                    }
                    qid = "";
                }
                if (firstStart < 0) {
                    firstStart = lineStart;
                    firstNl = nl;
                    firstQid = qid;
                    firstComment = comment();
                } else if (secondStart < 0 && !qid.equals(lastQid)) {
                    secondStart = lineStart;
                    secondNl = nl;
                }
                lastQid = qid;
                if (ended == -1) {
                    break;
                }
            }
            return new ChunkScan(newlines, firstStart, firstNl, firstQid, firstComment, secondStart, secondNl, lastQid,
                    noQidNl, maxIndex);
        }

        /** Reads one line into {@code line} (without its '\n'); returns '\n', or -1 at the end of the data. */
        private int readLine() throws IOException {
            length = 0;
            while (true) {
                if (i == n) {
                    n = in.read(buf, 0, buf.length);
                    i = 0;
                    if (n <= 0) {
                        n = 0;
                        return -1;
                    }
                }
                byte b = buf[i++];
                pos++;
                if (b == '\n') {
                    return '\n';
                }
                if (length == line.length) {
                    line = Arrays.copyOf(line, line.length * 2);
                }
                line[length++] = b;
            }
        }

        private int skipSpace(int from) {
            int k = from;
            while (k < length && isSpace(line[k])) {
                k++;
            }
            return k;
        }

        private int tokenEnd(int from) {
            int k = from;
            while (k < length && !isSpace(line[k]) && line[k] != '#') {
                k++;
            }
            return k;
        }

        /** The largest {@code index} of the {@code index:value} fields from {@code from} on (lenient). */
        private int maxIndex(int from) {
            int max = 0;
            int k = skipSpace(from);
            while (k < length && line[k] != '#') {
                int e = tokenEnd(k);
                long v = 0;
                int d = k;
                while (d < e && line[d] >= '0' && line[d] <= '9' && v <= Integer.MAX_VALUE) {
                    v = v * 10 + (line[d] - '0');
                    d++;
                }
                if (d > k && d < e && line[d] == ':' && v <= Integer.MAX_VALUE) {
                    max = Math.max(max, (int) v);
                }
                k = skipSpace(e);
            }
            return max;
        }

        private String comment() {
            for (int k = 0; k < length; k++) {
                if (line[k] == '#') {
                    return new String(line, k + 1, length - k - 1, StandardCharsets.UTF_8).strip();
                }
            }
            return "";
        }

        private static boolean isSpace(byte c) {
            return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b;
        }
    }
}
