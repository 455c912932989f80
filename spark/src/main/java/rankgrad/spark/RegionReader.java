package rankgrad.spark;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import rankgrad.ltr.letor.LetorFormatException;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.eval.DocIds;

/**
 * The second pass: reads one region of whole queries with rankgrad's own {@link LetorReader}, so
 * that every rule and every message is the reader's; only the file name and the line numbers are
 * put back to those of the whole file. The region's bytes are copied to a temporary file first
 * (the reader reads local files; the copy costs one sequential write of at most a split), in the
 * executor's local directories ({@link TaskFiles}), deleted as soon as the region is read and in
 * any case when the task ends.
 */
final class RegionReader {
    private RegionReader() {
    }

    /**
     * The region's queries in file order, densified to {@code width} columns.
     *
     * @param dropWider skip feature indices above {@code width} instead of refusing them
     * @param docIdKey the comment key naming documents (null: {@code docid})
     */
    static List<QueryRow> read(QueryRegion region, HadoopConf conf, int width, LetorOptions options, boolean dropWider,
            String docIdKey) throws IOException {
        FileChunk chunk = region.chunk();
        java.nio.file.Path tmp = TaskFiles.create("rankgrad-region-", ".txt");
        try {
            Path path = new Path(chunk.uri());
            FileSystem fs = path.getFileSystem(conf.toConfiguration());
            try (FSDataInputStream in = fs.open(path); OutputStream out = Files.newOutputStream(tmp)) {
                in.seek(region.start());
                copy(in, out, region.end() - region.start());
            }
            DocIds ids = region.docIdsFromComments() == null ? new DocIds(docIdKey)
                    : region.docIdsFromComments() ? new DocIds(docIdKey == null ? DocIds.DEFAULT_KEY : docIdKey) : null;
            List<QueryRow> rows = new ArrayList<>();
            long base = (long) region.index() << 32;
            try {
                LetorReader.streamWithComments(tmp, width, options, dropWider, (q, comments) -> {
                    String[] names;
                    if (ids == null) {
                        names = new String[q.docs()];
                        for (int i = 0; i < names.length; i++) {
                            names[i] = Integer.toString(i);
                        }
                    } else {
                        names = ids.names(tmp, q.qid(), comments);
                    }
                    rows.add(new QueryRow(chunk.name(), base + rows.size(), q.qid(), q.labels(), q.x(), width, names));
                });
            } catch (LetorFormatException e) {
                throw new LetorFormatException(chunk.name(), e.line() > 0 ? e.line() + region.firstLine() - 1 : 0,
                        e.problem().replace(tmp.toString(), chunk.name()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(String.valueOf(e.getMessage()).replace(tmp.toString(), chunk.name()), e);
            }
            return rows;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void copy(InputStream in, OutputStream out, long bytes) throws IOException {
        byte[] buf = new byte[1 << 16];
        long left = bytes;
        while (left > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (r < 0) {
                break;
            }
            out.write(buf, 0, r);
            left -= r;
        }
    }
}
