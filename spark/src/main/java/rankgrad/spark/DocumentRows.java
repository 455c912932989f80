package rankgrad.spark;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.collect_list;
import static org.apache.spark.sql.functions.monotonically_increasing_id;
import static org.apache.spark.sql.functions.struct;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Document rows (one row per document, Spark ML's shape) gathered into whole queries: the rows of
 * one group value, in document order. The Spark ML stages ({@link RankgradRanker},
 * {@link RankgradRankingModel}, {@link RankingEvaluator}) share it, so that training, scoring and
 * evaluation see a query's documents in the same order, the order a LETOR file would list them in,
 * on which query normalization's float sums, stable tie-breaks and the epoch's query numbering
 * depend.
 *
 * <p>Document order is the {@code orderCol}'s value (cast to long, unique within a query) when one
 * is set; otherwise the row's place in the input ({@code monotonically_increasing_id}: partition,
 * then position), which follows a file read in order but changes when the rows are shuffled. A
 * query's order is its smallest document order.
 */
final class DocumentRows {
    /** The order column added to the input rows: a name no user column is expected to have. */
    static final String ORDER = "__rankgrad_order";
    /** The grouped frame's column of the query's rows. */
    static final String DOCS = "__rankgrad_docs";

    /** {@link QueryRow#getFile()} of the queries of a frame without a validation indicator. */
    static final String TABLE = "dataframe";
    /** {@link QueryRow#getFile()} of the training queries (validation indicator false). */
    static final String TRAIN = "training rows";
    /** {@link QueryRow#getFile()} of the validation queries (validation indicator true). */
    static final String VALID = "validation rows";

    private DocumentRows() {
    }

    /**
     * The documents as whole queries: labels from {@code labelCol}, features from {@code
     * featuresCol} (null: none, width 0), scores from {@code predictionCol} (null: unscored), and
     * with an {@code indicatorCol} the file name {@link #TRAIN} or {@link #VALID} (a query's rows
     * must agree), else {@link #TABLE}. Document ids are the 0-based positions in the query.
     */
    static Dataset<QueryRow> queries(Dataset<?> documents, String groupCol, String orderCol, String featuresCol,
            String labelCol, String predictionCol, String indicatorCol) {
        Dataset<Row> g = grouped(documents, groupCol, orderCol);
        StructType doc = docSchema(g);
        int f = featuresCol == null ? -1 : index(doc, featuresCol, "featuresCol");
        int l = index(doc, labelCol, "labelCol");
        int p = predictionCol == null ? -1 : index(doc, predictionCol, "predictionCol");
        int v = indicatorCol == null ? -1 : index(doc, indicatorCol, "validationIndicatorCol");
        return g.map((MapFunction<Row, QueryRow>) group -> {
            String qid = qid(group);
            Row[] docs = sorted(group, qid);
            float[] x = f < 0 ? new float[0] : features(docs, f, qid);
            String[] ids = new String[docs.length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = Integer.toString(i);
            }
            QueryRow q = new QueryRow(v < 0 ? TABLE : side(docs, v, qid), order(docs), qid,
                    numbers(docs, l, "label", qid, true), x, x.length / docs.length, ids);
            if (p >= 0) {
                q.setScores(numbers(docs, p, "prediction", qid, false));
            }
            return q;
        }, QueryFrames.encoder());
    }

    private static String side(Row[] docs, int column, String qid) {
        boolean first = !docs[0].isNullAt(column) && docs[0].getBoolean(column);
        for (Row d : docs) {
            if (d.isNullAt(column) || d.getBoolean(column) != first) {
                throw new IllegalArgumentException("query " + qid + ": validationIndicatorCol must be one non-null value"
                        + " for all rows of a query (a query is never split between training and validation)");
            }
        }
        return first ? VALID : TRAIN;
    }

    /**
     * The rows grouped by {@code groupCol}: one row per query with the group value (column 0) and
     * the query's rows (column 1, {@link #DOCS}, an array of the input's columns plus {@link #ORDER}
     * last), in no particular order; {@link #sorted} orders them.
     */
    static Dataset<Row> grouped(Dataset<?> documents, String groupCol, String orderCol) {
        if (Arrays.asList(documents.columns()).contains(ORDER)) {
            throw new IllegalArgumentException("the input already has a column " + ORDER + " (reserved by rankgrad)");
        }
        Column order = orderCol == null || orderCol.isEmpty() ? monotonically_increasing_id() : col(orderCol).cast("long");
        Dataset<Row> withOrder = documents.toDF().withColumn(ORDER, order);
        Column[] all = Arrays.stream(withOrder.columns()).map(c -> col("`" + c + "`")).toArray(Column[]::new);
        return withOrder.groupBy(col(groupCol)).agg(collect_list(struct(all)).as(DOCS));
    }

    /** The schema of a row of {@link #DOCS}: the input's columns and {@link #ORDER}. */
    static StructType docSchema(Dataset<Row> grouped) {
        DataType t = grouped.schema().apply(DOCS).dataType();
        return (StructType) ((org.apache.spark.sql.types.ArrayType) t).elementType();
    }

    /** The query's rows sorted by document order; refuses a null or repeated order value. */
    static Row[] sorted(Row group, String qid) {
        List<Row> list = group.getList(1);
        Row[] docs = list.toArray(Row[]::new);
        int o = docs.length == 0 ? 0 : docs[0].length() - 1;
        for (Row d : docs) {
            if (d.isNullAt(o)) {
                throw new IllegalArgumentException("query " + qid + ": a document has a null order value");
            }
        }
        Arrays.sort(docs, Comparator.comparingLong(d -> d.getLong(o)));
        for (int i = 1; i < docs.length; i++) {
            if (docs[i].getLong(o) == docs[i - 1].getLong(o)) {
                throw new IllegalArgumentException("query " + qid + ": order " + docs[i].getLong(o) + " is given to two"
                        + " documents; the order column must be unique within a query");
            }
        }
        return docs;
    }

    /** The query's id as text: the group value as a string. */
    static String qid(Row group) {
        if (group.isNullAt(0)) {
            throw new IllegalArgumentException("a document has no query (null group column)");
        }
        return String.valueOf(group.get(0));
    }

    /** The query's order: its first document's (the docs sorted). */
    static long order(Row[] sortedDocs) {
        return sortedDocs[0].getLong(sortedDocs[0].length() - 1);
    }

    /**
     * The documents' feature vectors (dense or sparse ML vectors) as one {@code docs x width}
     * row-major float array, each value rounded to float32 as a LETOR reader rounds it; refuses a
     * null vector, vectors of different sizes and values that are not finite in float32.
     */
    static float[] features(Row[] docs, int column, String qid) {
        int width = -1;
        float[] x = null;
        for (int i = 0; i < docs.length; i++) {
            if (docs[i].isNullAt(column)) {
                throw new IllegalArgumentException("query " + qid + ", document " + i + " (0-based): null feature vector");
            }
            Vector v = (Vector) docs[i].get(column);
            if (width < 0) {
                width = v.size();
                x = new float[docs.length * width];
            } else if (v.size() != width) {
                throw new IllegalArgumentException("query " + qid + ", document " + i + " (0-based): " + v.size()
                        + " features, the query's first document has " + width);
            }
            for (int f = 0; f < width; f++) {
                float value = (float) v.apply(f);
                if (!Float.isFinite(value)) {
                    throw new IllegalArgumentException("query " + qid + ", document " + i + " (0-based), feature "
                            + (f + 1) + ": not a finite float32 (" + v.apply(f) + "); missing values are not supported");
                }
                x[i * width + f] = value;
            }
        }
        return x;
    }

    /** The documents' numbers in {@code column} (a label or a score) as floats; refuses null or non-finite ones. */
    static float[] numbers(Row[] docs, int column, String what, String qid, boolean nonNegative) {
        float[] out = new float[docs.length];
        for (int i = 0; i < docs.length; i++) {
            Object o = docs[i].isNullAt(column) ? null : docs[i].get(column);
            float v = o instanceof Number n ? n.floatValue() : Float.NaN;
            if (!Float.isFinite(v) || nonNegative && v < 0) {
                throw new IllegalArgumentException("query " + qid + ", document " + i + " (0-based): the " + what
                        + " must be a finite number" + (nonNegative ? " >= 0" : "") + ", got " + o);
            }
            out[i] = v;
        }
        return out;
    }

    /** The index of {@code name} in {@code schema}, with a message naming the parameter when absent. */
    static int index(StructType schema, String name, String param) {
        for (int i = 0; i < schema.fields().length; i++) {
            StructField f = schema.fields()[i];
            if (f.name().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(param + ": no column '" + name + "' in the input (columns: "
                + String.join(", ", schema.fieldNames()) + ")");
    }
}
