package rankgrad.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import rankgrad.ltr.letor.LetorFormatException;
import rankgrad.ltr.eval.DocIds;

/**
 * Cuts LETOR files into regions of whole queries, on the driver: lists the files, cuts each into
 * chunks of at most {@code splitBytes} (a gzip file is one chunk), and from the chunks' scans
 * ({@link ChunkScan}, run as tasks) finds where each chunk's first query starts. A query belongs to
 * the chunk where its first line starts; its lines in later chunks go with it. So however small the
 * chunks, every region holds whole queries, and line numbers are those of the whole file.
 */
final class LetorSplits {
    private LetorSplits() {
    }

    /**
     * The input files in order: each path as given; a directory's files sorted by name, without
     * hidden ones ({@code _SUCCESS}, {@code .crc}); a glob's matches sorted by name.
     */
    static List<FileChunk> chunks(Configuration conf, List<String> paths, long splitBytes) throws IOException {
        if (splitBytes < 1) {
            throw new IllegalArgumentException("split size must be >= 1 byte, got " + splitBytes);
        }
        List<FileChunk> out = new ArrayList<>();
        int file = 0;
        for (String given : paths) {
            Path p = new Path(given);
            FileSystem fs = p.getFileSystem(conf);
            FileStatus[] matched = fs.globStatus(p);
            if (matched == null || matched.length == 0) {
                throw new LetorFormatException(given, 0, "no such file");
            }
            List<FileStatus> files = new ArrayList<>();
            for (FileStatus s : sorted(matched)) {
                if (s.isDirectory()) {
                    for (FileStatus child : sorted(fs.listStatus(s.getPath()))) {
                        String n = child.getPath().getName();
                        if (child.isFile() && !n.startsWith("_") && !n.startsWith(".")) {
                            files.add(child);
                        }
                    }
                } else {
                    files.add(s);
                }
            }
            if (files.isEmpty()) {
                throw new LetorFormatException(given, 0, "a directory without data files");
            }
            for (FileStatus s : files) {
                String name = files.size() == 1 && matched.length == 1 && !matched[0].isDirectory() ? given
                        : s.getPath().toString();
                long len = s.getLen();
                boolean gzip = isGzip(fs, s.getPath());
                String uri = s.getPath().toString();
                if (gzip || len <= splitBytes) {
                    out.add(new FileChunk(file, name, uri, 0, len, len, gzip));
                } else {
                    for (long at = 0; at < len; at += splitBytes) {
                        out.add(new FileChunk(file, name, uri, at, Math.min(len, at + splitBytes), len, false));
                    }
                }
                file++;
            }
        }
        return out;
    }

    /**
     * The regions of whole queries, from the chunks in order and their scans. The first region of
     * a file starts at its first byte (its leading comments and blank lines with it).
     *
     * @param docIdKey the comment key naming documents, or null for {@code docid} decided by the
     *        file's first document
     */
    static List<QueryRegion> regions(List<FileChunk> chunks, List<ChunkScan> scans, String docIdKey)
            throws LetorFormatException {
        List<QueryRegion> out = new ArrayList<>();
        int c = 0;
        while (c < chunks.size()) {
            FileChunk head = chunks.get(c);
            List<long[]> starts = new ArrayList<>();
            long lineBase = 0;
            String prevQid = null;
            Boolean fromComments = docIdKey != null ? Boolean.TRUE : null;
            for (; c < chunks.size() && chunks.get(c).file() == head.file(); c++) {
                ChunkScan s = scans.get(c);
                if (s.noQidNl() >= 0) {
                    throw new LetorFormatException(head.name(), lineBase + s.noQidNl() + 1, "no 'qid:' after the label:"
                            + " whole-query frames need 'qid:' on every line (grouped libsvm with a .query/.group file"
                            + " is read by one JVM: rankgrad's LetorReader)");
                }
                if (s.firstStart() >= 0) {
                    if (fromComments == null) {
                        DocIds ids = new DocIds(null);
                        // The first document decides, as in DocIds; naming it cannot fail.
                        ids.names(null, s.firstQid(), List.of(s.firstComment()));
                        fromComments = ids.fromComments();
                    }
                    if (!s.firstQid().equals(prevQid)) {
                        starts.add(new long[] {s.firstStart(), lineBase + s.firstNl() + 1});
                    } else if (s.secondStart() >= 0) {
                        starts.add(new long[] {s.secondStart(), lineBase + s.secondNl() + 1});
                    }
                    prevQid = s.lastQid();
                }
                lineBase += s.newlines();
            }
            if (starts.isEmpty()) {
                throw new LetorFormatException(head.name(), 0, "the file has no data lines");
            }
            starts.set(0, new long[] {0, 1});
            for (int r = 0; r < starts.size(); r++) {
                long end = r + 1 < starts.size() ? starts.get(r + 1)[0] : head.length();
                out.add(new QueryRegion(out.size(), head, starts.get(r)[0], end, starts.get(r)[1],
                        r == 0 ? (docIdKey != null ? Boolean.TRUE : null) : fromComments));
            }
        }
        return out;
    }

    private static FileStatus[] sorted(FileStatus[] s) {
        FileStatus[] copy = s.clone();
        Arrays.sort(copy, Comparator.comparing(f -> f.getPath().toString()));
        return copy;
    }

    private static boolean isGzip(FileSystem fs, Path p) throws IOException {
        try (FSDataInputStream in = fs.open(p)) {
            return in.read() == 0x1f && in.read() == 0x8b;
        }
    }
}
