package rankgrad.spark;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.eval.DocIds;

/**
 * Seeded LETOR text for the tests: queries of 1 to 40 documents (a few hundred bytes a line, so a
 * query spans kilobytes), sparse features, grades 0-4 with some queries all 0, duplicate documents
 * (tied scores), {@code docid} comments, and comment-only and blank lines between queries.
 */
public final class LetorFixtures {
    public static final int FEATURES = 12;

    private LetorFixtures() {
    }

    public static String text(int queries, long seed) {
        Random r = new Random(seed);
        StringBuilder b = new StringBuilder("# generated for the spark tests\n");
        for (int q = 0; q < queries; q++) {
            int m = 1 + r.nextInt(40);
            boolean none = r.nextInt(6) == 0;
            String prev = null;
            for (int d = 0; d < m; d++) {
                String line;
                if (prev != null && r.nextInt(8) == 0) {
                    line = prev;
                } else {
                    StringBuilder l = new StringBuilder();
                    l.append(none ? 0 : r.nextInt(5)).append(" qid:").append(100 + q * 7);
                    for (int f = 1; f <= FEATURES; f++) {
                        if (r.nextInt(4) != 0) {
                            l.append(' ').append(f).append(':').append(Math.round(r.nextGaussian() * 1e4) / 1e4f);
                        }
                    }
                    line = l.toString();
                }
                prev = line;
                b.append(line).append(" # docid = D").append(q).append('-').append(d).append(" inc = 1\n");
            }
            if (r.nextInt(5) == 0) {
                b.append(r.nextBoolean() ? "\n" : "# between queries\n");
            }
        }
        return b.toString();
    }

    public static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    static Path writeGzip(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return p;
    }

    /** The file as one JVM reads it ({@code predict}'s reader and document names), as rows. */
    static List<QueryRow> readInOneJvm(Path file, int width, boolean dropWider) throws IOException {
        List<QueryRow> out = new ArrayList<>();
        DocIds ids = new DocIds(null);
        LetorReader.streamWithComments(file, width, LetorOptions.DEFAULT, dropWider, (q, comments) -> out.add(
                new QueryRow(file.toString(), out.size(), q.qid(), q.labels(), q.x(), width, ids.names(file, q.qid(), comments))));
        return out;
    }

    /** The feature columns of {@link #documentRows}: f1 .. f{@value #FEATURES}. */
    static String[] columns() {
        String[] c = new String[FEATURES];
        for (int f = 0; f < FEATURES; f++) {
            c[f] = "f" + (f + 1);
        }
        return c;
    }

    /**
     * The file's documents as one row per document, as one JVM reads them: qid, label, f1 ..
     * f{@value #FEATURES} (doubles holding the float32 values) and pos (the document's place in the file).
     */
    static Dataset<Row> documentRows(SparkSession spark, Path file) throws IOException {
        List<StructField> fields = new ArrayList<>(List.of(DataTypes.createStructField("qid", DataTypes.StringType, false),
                DataTypes.createStructField("label", DataTypes.DoubleType, false)));
        for (String c : columns()) {
            fields.add(DataTypes.createStructField(c, DataTypes.DoubleType, false));
        }
        fields.add(DataTypes.createStructField("pos", DataTypes.LongType, false));
        List<Row> rows = new ArrayList<>();
        long pos = 0;
        for (QueryRow q : readInOneJvm(file, FEATURES, false)) {
            for (int d = 0; d < q.getLabels().length; d++) {
                Object[] v = new Object[fields.size()];
                v[0] = q.getQid();
                v[1] = (double) q.getLabels()[d];
                for (int f = 0; f < FEATURES; f++) {
                    v[2 + f] = (double) q.getFeatures()[d * FEATURES + f];
                }
                v[2 + FEATURES] = pos++;
                rows.add(RowFactory.create(v));
            }
        }
        return spark.createDataFrame(rows, DataTypes.createStructType(fields));
    }
}
