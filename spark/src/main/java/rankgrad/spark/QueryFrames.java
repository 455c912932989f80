package rankgrad.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sort_array;
import static org.apache.spark.sql.functions.struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.network.util.JavaUtils;
import rankgrad.ltr.letor.LetorFormatException;

/**
 * Datasets with one row per query ({@link QueryRow}), from LETOR/SVMlight text or from a table of
 * documents. A query is never split across rows or partitions, so scoring with query-level
 * normalization and exact metrics see it whole.
 *
 * <pre>{@code
 * Dataset<QueryRow> test = QueryFrames.readLetor(spark, LetorInput.of("hdfs:///letor/test.txt"));
 * Dataset<QueryRow> fromTable = QueryFrames.fromDocuments(docs, "qid", "label", "features", "pos", null);
 * }</pre>
 *
 * <p>Reading text is two passes, both Spark jobs. The first scans chunks of at most
 * {@link LetorInput#splitBytes()} bytes (the session's {@code spark.sql.files.maxPartitionBytes}
 * by default) for line breaks and where queries start; the driver then cuts each file into regions
 * of whole queries (a query belongs to the chunk its first line starts in), and the second pass
 * reads each region with rankgrad's {@code LetorReader}: the same rules, the same messages, with
 * the file's name and its line numbers. One partition per region; rows keep the files' order
 * ({@link QueryRow#getOrder()}). Non-contiguous lines of one query are refused within a region,
 * not across regions. The first pass runs when this method is called; the second when the
 * Dataset is used.
 *
 * <p>Memory: a task holds its region's queries densely ({@code 4 x documents x width} bytes), at
 * most about the split size in text times the ratio of dense floats to text.
 */
public final class QueryFrames {
    private QueryFrames() {
    }

    /** The encoder of query rows. */
    public static Encoder<QueryRow> encoder() {
        return Encoders.bean(QueryRow.class);
    }

    /**
     * Reads LETOR/SVMlight text into one row per query.
     *
     * @throws LetorFormatException naming file and line, for what the first pass finds (lines
     *     without {@code qid:}, files without data); the second pass's errors (everything
     *     {@code LetorReader} refuses) surface when the Dataset is used, wrapped by Spark
     */
    public static Dataset<QueryRow> readLetor(SparkSession spark, LetorInput input) throws IOException {
        long split = input.splitBytes() > 0 ? input.splitBytes()
                : JavaUtils.byteStringAsBytes(spark.conf().get("spark.sql.files.maxPartitionBytes", "128m"));
        org.apache.hadoop.conf.Configuration hadoop = spark.sparkContext().hadoopConfiguration();
        List<FileChunk> chunks = LetorSplits.chunks(hadoop, input.paths(), split);
        HadoopConf conf = HadoopConf.of(hadoop);
        boolean findWidth = input.width() == 0;
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> toScan = new ArrayList<>();
        for (int c = 0; c < chunks.size(); c++) {
            FileChunk k = chunks.get(c);
            boolean alone = k.start() == 0 && k.end() == k.length();
            if (findWidth || !alone) {
                toScan.add(c);
            }
        }
        List<ChunkScan> scanned = toScan.isEmpty() ? List.of()
                : jsc.parallelize(toScan, toScan.size()).map(c -> ChunkScan.of(chunks.get(c), conf, findWidth)).collect();
        List<ChunkScan> scans = new ArrayList<>();
        int next = 0;
        for (int c = 0; c < chunks.size(); c++) {
            if (next < toScan.size() && toScan.get(next) == c) {
                scans.add(scanned.get(next++));
            } else {
                // A file in one chunk: one region from its first byte; the reader checks the rest.
                scans.add(new ChunkScan(0, 0, 0, "", "", -1, -1, "", -1, 0));
            }
        }
        int width = input.width();
        if (findWidth) {
            for (ChunkScan s : scans) {
                width = Math.max(width, s.maxIndex());
            }
            if (width == 0) {
                throw new LetorFormatException(String.join(", ", input.paths()), 0, "no feature index in the data: give the width");
            }
        }
        List<QueryRegion> regions = LetorSplits.regions(chunks, scans, input.docIdKey());
        int w = width;
        JavaRDD<QueryRow> rows = jsc.parallelize(regions, regions.size()).flatMap(r -> RegionReader.read(r, conf, w,
                input.options(), input.dropWider(), input.docIdKey()).iterator());
        return spark.createDataset(rows.rdd(), encoder());
    }

    /**
     * Gathers a table of documents into one row per query: documents grouped by {@code query}
     * (cast to string) and ordered by {@code order} (cast to long; unique within a query), the
     * query's order being its smallest document order. {@code features} is an array of numbers
     * (cast to float; a Spark ML vector: {@code vector_to_array} first), one per document, all of
     * the same length.
     *
     * @param docId a column naming documents, or null for their 0-based positions in the query
     * @throws IllegalArgumentException (when the Dataset is used) naming the query and document for
     *     a null, non-finite or wrongly sized value
     */
    public static Dataset<QueryRow> fromDocuments(Dataset<Row> docs, String query, String label, String features,
            String order, String docId) {
        Column id = docId == null ? lit(null).cast("string") : col(docId).cast("string");
        Dataset<Row> grouped = docs.select(col(query).cast("string").as("q"), struct(col(order).cast("long").as("o"),
                col(label).cast("float").as("l"), col(features).cast("array<float>").as("x"), id.as("d")).as("doc"))
                .groupBy("q").agg(min("doc.o").as("order"), sort_array(collect_list("doc")).as("docs"));
        return grouped.map((MapFunction<Row, QueryRow>) QueryFrames::queryOf, encoder());
    }

    private static QueryRow queryOf(Row g) {
        String qid = g.getString(0);
        if (qid == null) {
            throw new IllegalArgumentException("a document has no query (null query column)");
        }
        List<Row> docs = g.getList(2);
        int m = docs.size();
        float[] labels = new float[m];
        String[] names = new String[m];
        int width = -1;
        float[] x = null;
        for (int i = 0; i < m; i++) {
            Row d = docs.get(i);
            String where = "query " + qid + ", document " + i + " (0-based)";
            if (d.isNullAt(0)) {
                throw new IllegalArgumentException(where + ": null order");
            }
            if (i > 0 && d.getLong(0) == docs.get(i - 1).getLong(0)) {
                throw new IllegalArgumentException(where + ": order " + d.getLong(0) + " is also the previous document's;"
                        + " the order column must be unique within a query");
            }
            if (d.isNullAt(1) || !Float.isFinite(d.getFloat(1)) || d.getFloat(1) < 0) {
                throw new IllegalArgumentException(where + ": the label must be a finite number >= 0, got "
                        + (d.isNullAt(1) ? "null" : d.getFloat(1)));
            }
            labels[i] = d.getFloat(1);
            if (d.isNullAt(2)) {
                throw new IllegalArgumentException(where + ": null feature vector");
            }
            List<Object> v = d.getList(2);
            if (width < 0) {
                width = v.size();
                x = new float[m * width];
            } else if (v.size() != width) {
                throw new IllegalArgumentException(where + ": " + v.size() + " features, the query's first document has "
                        + width);
            }
            for (int f = 0; f < width; f++) {
                Object o = v.get(f);
                if (o == null || !Float.isFinite((Float) o)) {
                    throw new IllegalArgumentException(where + ", feature " + (f + 1) + ": not a finite float32 ("
                            + o + ")");
                }
                x[i * width + f] = (Float) o;
            }
            names[i] = d.isNullAt(3) ? Integer.toString(i) : d.getString(3);
        }
        return new QueryRow("table", g.getLong(1), qid, labels, x, width, names);
    }
}
