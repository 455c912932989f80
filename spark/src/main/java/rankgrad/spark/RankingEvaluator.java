package rankgrad.spark;

import java.util.List;
import java.util.Locale;
import org.apache.spark.ml.evaluation.Evaluator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.Identifiable;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.metric.Ties;

/**
 * rankgrad's exact ranking metrics as a Spark ML {@link Evaluator}, the numbers of {@code rankgrad
 * eval}: document rows (a {@code predictionCol} score, a {@code labelCol} grade, a {@code groupCol}
 * query id) are gathered into queries in document order ({@code orderCol}, else input order; see
 * {@link DocumentRows}), each query's value is {@link Metric#value} under the conventions, and the
 * mean is summed in query order by {@link QueryEvaluator}, the same floating-point sum {@code eval}
 * does: mean = (1 / |Q'|) sum over counted queries q of metric(q).
 *
 * <pre>{@code
 * double ndcg10 = new RankingEvaluator().setGroupCol("qid").setMetricName("ndcg").setK(10).evaluate(scored);
 * }</pre>
 *
 * <p>{@code metricName} is a metric without cutoff (ndcg, map, err, nerr, p, dcg, mrr, map_cut)
 * and {@code k} its cutoff (0: none); {@code ties} is stable (input order) or pessimistic,
 * {@code noRelevant} exclude or zero (queries without a relevant document), {@code gain}
 * exponential or linear, {@code ymax} the grade maximum of ERR. Every metric is larger-better.
 */
public final class RankingEvaluator extends Evaluator implements DefaultParamsWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;

    /** Column of the scores. */
    public final Param<String> predictionCol;
    /** Column of the grades. */
    public final Param<String> labelCol;
    /** Column of the query ids. */
    public final Param<String> groupCol;
    /** Optional column of the documents' order within a query; "" = input order. */
    public final Param<String> orderCol;
    /** The metric without its cutoff. */
    public final Param<String> metricName;
    /** The cutoff (0: none). */
    public final IntParam k;
    /** Tied scores: stable or pessimistic. */
    public final Param<String> ties;
    /** Queries without a relevant document: exclude or zero. */
    public final Param<String> noRelevant;
    /** DCG's gain: exponential or linear. */
    public final Param<String> gain;
    /** The grade scale's maximum, for ERR and nERR. */
    public final DoubleParam ymax;

    /** An evaluator of ndcg@10 with the default conventions ({@code eval}'s). */
    public RankingEvaluator() {
        this(Identifiable.randomUID("rankingEvaluator"));
    }

    /** An evaluator with the given uid (Spark's copy and persistence call this). */
    public RankingEvaluator(String uid) {
        this.uid = uid;
        // After the uid: a Param takes its parent's uid when it is made.
        predictionCol = new Param<>(this, "predictionCol", "score column");
        labelCol = new Param<>(this, "labelCol", "label column (grade >= 0)");
        groupCol = new Param<>(this, "groupCol", "query id column");
        orderCol = new Param<>(this, "orderCol", "document order column (\"\": input order)");
        metricName = new Param<>(this, "metricName", "ndcg, map, err, nerr, p, dcg, mrr, map_cut");
        k = new IntParam(this, "k", "cutoff (0: none)", ParamValidators.gtEq(0));
        ties = new Param<>(this, "ties", "stable (input order) or pessimistic");
        noRelevant = new Param<>(this, "noRelevant", "exclude or zero");
        gain = new Param<>(this, "gain", "exponential or linear");
        ymax = new DoubleParam(this, "ymax", "grade scale maximum (ERR)", ParamValidators.gt(0));
        setDefault(predictionCol, "prediction");
        setDefault(labelCol, "label");
        setDefault(groupCol, "qid");
        setDefault(orderCol, "");
        setDefault(metricName, "ndcg");
        setDefault(k, 10);
        setDefault(ties, "stable");
        setDefault(noRelevant, "exclude");
        setDefault(gain, "exponential");
        setDefault(ymax, 4.0);
    }

    @Override
    public String uid() {
        return uid;
    }

    // Accessors as Spark ML finds parameters: public no-argument methods returning a Param.
    public Param<String> predictionCol() { return predictionCol; }
    public Param<String> labelCol() { return labelCol; }
    public Param<String> groupCol() { return groupCol; }
    public Param<String> orderCol() { return orderCol; }
    public Param<String> metricName() { return metricName; }
    public IntParam k() { return k; }
    public Param<String> ties() { return ties; }
    public Param<String> noRelevant() { return noRelevant; }
    public Param<String> gain() { return gain; }
    public DoubleParam ymax() { return ymax; }

    public RankingEvaluator setPredictionCol(String v) { set(predictionCol, v); return this; }
    public RankingEvaluator setLabelCol(String v) { set(labelCol, v); return this; }
    public RankingEvaluator setGroupCol(String v) { set(groupCol, v); return this; }
    public RankingEvaluator setOrderCol(String v) { set(orderCol, v); return this; }
    public RankingEvaluator setMetricName(String v) { set(metricName, v); return this; }
    public RankingEvaluator setK(int v) { set(k, v); return this; }
    public RankingEvaluator setTies(String v) { set(ties, v); return this; }
    public RankingEvaluator setNoRelevant(String v) { set(noRelevant, v); return this; }
    public RankingEvaluator setGain(String v) { set(gain, v); return this; }
    public RankingEvaluator setYmax(double v) { set(ymax, v); return this; }

    public String getPredictionCol() { return getOrDefault(predictionCol); }
    public String getLabelCol() { return getOrDefault(labelCol); }
    public String getGroupCol() { return getOrDefault(groupCol); }
    public String getOrderCol() { return getOrDefault(orderCol); }
    public String getMetricName() { return getOrDefault(metricName); }
    public int getK() { return (Integer) getOrDefault(k); }
    public String getTies() { return getOrDefault(ties); }
    public String getNoRelevant() { return getOrDefault(noRelevant); }
    public String getGain() { return getOrDefault(gain); }
    public double getYmax() { return (Double) getOrDefault(ymax); }

    /** The metric of {@code metricName} and {@code k}, as {@link Metric#parse} reads "name@k". */
    public Metric metric() {
        String name = getMetricName();
        if (name.contains("@")) {
            throw new IllegalArgumentException("metricName '" + name + "': give the metric without its cutoff and the"
                    + " cutoff with k");
        }
        return Metric.parse(getK() > 0 ? name + "@" + getK() : name);
    }

    /** The conventions of {@code ties}, {@code noRelevant}, {@code gain} and {@code ymax}. */
    public MetricConventions conventions() {
        return new MetricConventions(option(Ties.class, getTies(), "ties"),
                option(NoRelevantPolicy.class, getNoRelevant(), "noRelevant"), getYmax(),
                option(Gain.class, getGain(), "gain"));
    }

    private static <E extends Enum<E>> E option(Class<E> type, String value, String param) {
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(param + ": unknown '" + value + "'; choose one of "
                    + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    /** The metric's mean over the queries of {@code dataset}, equal to {@code rankgrad eval}'s. */
    @Override
    public double evaluate(Dataset<?> dataset) {
        Metric m = metric();
        MetricConventions conv = conventions();
        Dataset<QueryRow> queries = DocumentRows.queries(dataset, getGroupCol(), getOrderCol(), null, getLabelCol(),
                getPredictionCol(), null);
        SparkEvaluation e = QueryEvaluator.evaluate(queries, List.of(m), conv);
        e.perQuery().unpersist(false);
        return e.results().get(0).mean();
    }

    @Override
    public boolean isLargerBetter() {
        return true;
    }

    @Override
    public RankingEvaluator copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    /** Reads an evaluator saved with {@code write().save(path)}. */
    public static MLReader<RankingEvaluator> read() {
        return new DefaultParamsReader<>();
    }

    /** {@code read().load(path)}. */
    public static RankingEvaluator load(String path) {
        return read().load(path);
    }
}
