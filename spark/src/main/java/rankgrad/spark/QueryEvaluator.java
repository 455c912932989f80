package rankgrad.spark;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.MetricKind;
import rankgrad.ltr.metric.MetricResult;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.metric.Ties;

/**
 * The library's exact metrics over a scored query frame, with the library's conventions and
 * numbers: each query's value is {@link Metric#value(float[], float[], MetricConventions)} of its
 * scores and labels (computed in the tasks), and the mean is the one {@code Metric.evaluate} and
 * {@code rankgrad eval} report, the same floating-point sum in the same order: the per-query values
 * are streamed to the driver in query order ({@link QueryRow#getOrder()}, then qid) and added one
 * by one. So the numbers are identical to {@code eval}'s on the same file, whatever the
 * partitioning; the driver holds one partition's per-query values at a time.
 *
 * <pre>{@code
 * SparkEvaluation e = QueryEvaluator.evaluate(scored, List.of(Metric.parse("ndcg@10")),
 *         MetricConventions.defaults());
 * e.results().forEach(r -> System.out.println(r.report()));
 * }</pre>
 */
public final class QueryEvaluator {
    private QueryEvaluator() {
    }

    /** Evaluates {@code metrics} over {@code scored} (every row scored) under {@code conventions}. */
    public static SparkEvaluation evaluate(Dataset<QueryRow> scored, List<Metric> metrics, MetricConventions conventions) {
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("no metric to evaluate");
        }
        List<Metric> list = List.copyOf(metrics);
        List<StructField> fields = new ArrayList<>(List.of(DataTypes.createStructField("order", DataTypes.LongType, false),
                DataTypes.createStructField("qid", DataTypes.StringType, false),
                DataTypes.createStructField("relevant", DataTypes.BooleanType, false)));
        for (Metric m : list) {
            fields.add(DataTypes.createStructField(m.toString(), DataTypes.DoubleType, false));
        }
        StructType schema = DataTypes.createStructType(fields);
        // Metric and MetricConventions are not Serializable: tasks rebuild them from enums and numbers.
        MetricKind[] kinds = list.stream().map(Metric::kind).toArray(MetricKind[]::new);
        int[] cutoffs = list.stream().mapToInt(Metric::cutoff).toArray();
        Ties ties = conventions.ties();
        NoRelevantPolicy noRelevant = conventions.noRelevant();
        double ymax = conventions.ymax();
        Gain gain = conventions.gain();
        Dataset<Row> perQuery = scored.mapPartitions((MapPartitionsFunction<QueryRow, Row>) rows -> {
            Metric[] metricsHere = new Metric[kinds.length];
            for (int c = 0; c < kinds.length; c++) {
                metricsHere[c] = new Metric(kinds[c], cutoffs[c]);
            }
            return values(rows, metricsHere, new MetricConventions(ties, noRelevant, ymax, gain));
        }, Encoders.row(schema)).persist(StorageLevel.MEMORY_AND_DISK());
        // Cached before the sort: its sampling job and its shuffle (and a caller's second pass, the
        // per-query listing) would otherwise each read and score the input again.
        return new SparkEvaluation(means(perQuery, list, conventions), perQuery);
    }

    /**
     * The per-query rows (order, qid, has a relevant document, one value per metric) of scored
     * rows, one at a time as they are asked for: a task holds the query it evaluates, never its
     * partition a second time.
     */
    static Iterator<Row> values(Iterator<QueryRow> rows, Metric[] metrics, MetricConventions conv) {
        return Streamed.map(rows, q -> {
            float[] s = QueryScorer.requireScores(q);
            Object[] v = new Object[3 + metrics.length];
            v[0] = q.getOrder();
            v[1] = q.getQid();
            v[2] = hasRelevant(q.getLabels());
            for (int c = 0; c < metrics.length; c++) {
                try {
                    v[3 + c] = metrics[c].value(s, q.getLabels(), conv);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(q.getFile() + ": query " + q.getQid() + ": " + e.getMessage(), e);
                }
            }
            return RowFactory.create(v);
        });
    }

    /** Sums the per-query values in query order, as {@code Metric.evaluate} sums them. */
    private static List<MetricResult> means(Dataset<Row> perQuery, List<Metric> metrics, MetricConventions conventions) {
        int k = metrics.size();
        double[] sum = new double[k];
        int[] counted = new int[k];
        int withoutRelevant = 0;
        Iterator<Row> it = perQuery.sort("order", "qid").toLocalIterator();
        while (it.hasNext()) {
            Row r = it.next();
            if (!r.getBoolean(2)) {
                withoutRelevant++;
            }
            for (int c = 0; c < k; c++) {
                double v = r.getDouble(3 + c);
                if (!Double.isNaN(v)) {
                    sum[c] += v;
                    counted[c]++;
                }
            }
        }
        List<MetricResult> out = new ArrayList<>();
        for (int c = 0; c < k; c++) {
            out.add(new MetricResult(metrics.get(c), conventions, counted[c] == 0 ? Double.NaN : sum[c] / counted[c],
                    counted[c], withoutRelevant));
        }
        return out;
    }

    private static boolean hasRelevant(float[] labels) {
        for (float l : labels) {
            if (l > 0) {
                return true;
            }
        }
        return false;
    }
}
