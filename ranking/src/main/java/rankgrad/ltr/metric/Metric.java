package rankgrad.ltr.metric;

import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;

/**
 * An exact IR metric with an optional cutoff, e.g. {@code ndcg@10}, evaluated on scores by exact
 * ranking ({@link Ranking}) under explicit {@link MetricConventions} (DESIGN section 3.1).
 *
 * <pre>{@code
 * Metric ndcg10 = Metric.parse("ndcg@10");
 * MetricResult r = ndcg10.evaluate(scores, batch, MetricConventions.defaults());
 * System.out.println(r.report());   // the value, the number of queries and the conventions
 * }</pre>
 *
 * <p>Formulas (y_(r) = label at rank r, b = [y &gt; 0], g = 2^y - 1, D(r) = 1 / log2(1 + r)):
 * DCG@k = sum_{r&lt;=k} g(y_(r)) D(r); NDCG@k = DCG@k / IDCG@k; P@k = (1/k) sum_{r&lt;=k} b_(r);
 * AP@k = sum_{r&lt;=k} b_(r) P@r / min(k, |relevant|) (Yu Eq. 7); ERR@k = sum_{r&lt;=k} R_(r) / r
 * prod_{i&lt;r} (1 - R_(i)) with R = g / 2^ymax; nERR@k = ERR@k / ideal ERR@k; RR@k = 1 / rank of the
 * first relevant document within k. Without a cutoff, k is the query's document count m. See
 * {@link ExactMetrics} for the per-query functions.
 *
 * <p>A query without relevant documents takes the value of the {@link NoRelevantPolicy} for every
 * metric (DCG and ERR included, so all metrics average over the same queries): 0, 1, or NaN
 * meaning "excluded" in the per-query values.
 *
 * <p>Thread-safety: immutable.
 *
 * @param kind which metric
 * @param cutoff k &gt;= 1, or {@link #NO_CUTOFF}
 */
public record Metric(MetricKind kind, int cutoff) {

    /** The cutoff value meaning "all documents of the query". */
    public static final int NO_CUTOFF = 0;

    public Metric {
        Objects.requireNonNull(kind, "kind");
        if (cutoff < 0) {
            throw new IllegalArgumentException("cutoff must be >= 1 (or NO_CUTOFF = 0), got " + cutoff);
        }
    }

    /** {@code kind@k}. */
    public static Metric at(MetricKind kind, int k) {
        if (k < 1) {
            throw new IllegalArgumentException("cutoff k must be >= 1, got " + k + " for " + kind.canonicalName());
        }
        return new Metric(kind, k);
    }

    /** {@code kind} over all documents of each query. */
    public static Metric full(MetricKind kind) {
        return new Metric(kind, NO_CUTOFF);
    }

    /**
     * Parses "ndcg@5", "map@10", "err@10", "nerr@5", "p@3", "dcg@5", "mrr", "ndcg" (any case), and
     * trec_eval's measure names: {@code ndcg_cut.10} is ndcg@10, {@code map_cut.10} is map_cut@10
     * ({@link MetricKind#AP_ALL_RELEVANT}), {@code P.5} is p@5, {@code recip_rank} is mrr, {@code map}
     * and {@code ndcg} are map and ndcg without cutoff. trec_eval's nDCG gain is {@link Gain#LINEAR}
     * and its tie order the document ids in reverse order: conventions, not names.
     */
    public static Metric parse(String text) {
        Objects.requireNonNull(text, "metric text");
        String t = trecEvalName(text.trim().toLowerCase(Locale.ROOT));
        int at = t.indexOf('@');
        if (at < 0) {
            return full(MetricKind.fromName(t));
        }
        MetricKind kind = MetricKind.fromName(t.substring(0, at));
        String k = t.substring(at + 1).trim();
        int cutoff;
        try {
            cutoff = Integer.parseInt(k);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("metric '" + text + "': the cutoff after '@' must be an integer >= 1, got '"
                    + k + "'", e);
        }
        return at(kind, cutoff);
    }

    /** trec_eval's {@code name.k} as {@code name@k}, with ndcg_cut read as ndcg; any other text unchanged. */
    private static String trecEvalName(String t) {
        int dot = t.lastIndexOf('.');
        if (dot < 0 || t.indexOf('@') >= 0) {
            return t;
        }
        String name = t.substring(0, dot);
        return (name.equals("ndcg_cut") ? "ndcg" : name) + "@" + t.substring(dot + 1);
    }

    /** Whether a cutoff is set. */
    public boolean hasCutoff() {
        return cutoff != NO_CUTOFF;
    }

    /** The cutoff applied to a query of m documents: k, or m without cutoff. */
    public int cutoffFor(int m) {
        return hasCutoff() ? cutoff : m;
    }

    /** The metric of one query: {@code scores} and {@code labels} are that query's values. */
    public double value(float[] scores, float[] labels, MetricConventions conventions) {
        // A one-query batch validates the labels (finite, >= 0) like every batch.
        return perQuery(scores, QueryBatch.of(labels), conventions)[0];
    }

    /** {@link #value(float[], float[], MetricConventions)} for float64 scores. */
    public double value(double[] scores, float[] labels, MetricConventions conventions) {
        return perQuery(scores, QueryBatch.of(labels), conventions)[0];
    }

    /**
     * Per-query values for the flat {@code scores} of {@code batch}: the metric, or for a query
     * without relevant documents 0, 1 or NaN (excluded) by the policy.
     */
    public double[] perQuery(float[] scores, QueryBatch batch, MetricConventions conventions) {
        checkSameLength(scores.length, batch.documents());
        double[] out = new double[batch.queries()];
        for (int q = 0; q < out.length; q++) {
            int from = batch.start(q);
            int m = batch.size(q);
            out[q] = ofOrder(orderOf(scores, from, m, batch, q, conventions), batch.labels(), from, conventions);
        }
        return out;
    }

    /** {@link #perQuery(float[], QueryBatch, MetricConventions)} for float64 scores. */
    public double[] perQuery(double[] scores, QueryBatch batch, MetricConventions conventions) {
        checkSameLength(scores.length, batch.documents());
        double[] out = new double[batch.queries()];
        for (int q = 0; q < out.length; q++) {
            int from = batch.start(q);
            int m = batch.size(q);
            int[] order;
            try {
                order = Ranking.order(scores, from, m, tieKeys(batch.labels(), from, m, conventions));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("query " + q + ": " + e.getMessage(), e);
            }
            out[q] = ofOrder(order, batch.labels(), from, conventions);
        }
        return out;
    }

    /** The mean over the batch's queries, with the policy applied and recorded. */
    public MetricResult evaluate(float[] scores, QueryBatch batch, MetricConventions conventions) {
        return summarize(perQuery(scores, batch, conventions), batch, conventions);
    }

    /** {@link #evaluate(float[], QueryBatch, MetricConventions)} for float64 scores. */
    public MetricResult evaluate(double[] scores, QueryBatch batch, MetricConventions conventions) {
        return summarize(perQuery(scores, batch, conventions), batch, conventions);
    }

    /** The canonical name, e.g. "ndcg@10" or "mrr". */
    @Override
    public String toString() {
        return hasCutoff() ? kind.canonicalName() + "@" + cutoff : kind.canonicalName();
    }

    private MetricResult summarize(double[] values, QueryBatch batch, MetricConventions conventions) {
        double sum = 0;
        int counted = 0;
        int withoutRelevant = 0;
        for (int q = 0; q < values.length; q++) {
            if (!batch.hasRelevant(q)) {
                withoutRelevant++;
            }
            if (!Double.isNaN(values[q])) {
                sum += values[q];
                counted++;
            }
        }
        return new MetricResult(this, conventions, counted == 0 ? Double.NaN : sum / counted, counted, withoutRelevant);
    }

    private static int[] orderOf(float[] scores, int from, int m, QueryBatch batch, int q, MetricConventions c) {
        try {
            return Ranking.order(scores, from, m, tieKeys(batch.labels(), from, m, c));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("query " + q + ": " + e.getMessage(), e);
        }
    }

    private double ofOrder(int[] order, float[] labels, int from, MetricConventions c) {
        int m = order.length;
        float[] ranked = new float[m];
        for (int r = 0; r < m; r++) {
            ranked[r] = labels[from + order[r]];
        }
        if (ExactMetrics.relevantInTop(ranked, m) == 0) {
            return switch (c.noRelevant()) {
                case EXCLUDE -> Double.NaN;
                case ZERO -> 0.0;
                case ONE -> 1.0;
            };
        }
        int k = cutoffFor(m);
        return switch (kind) {
            case NDCG -> ExactMetrics.dcg(ranked, k, c.gain()) / ExactMetrics.idealDcg(labels, from, m, k, c.gain());
            case DCG -> ExactMetrics.dcg(ranked, k, c.gain());
            case PRECISION -> ExactMetrics.precision(ranked, k);
            case AP -> ExactMetrics.averagePrecision(ranked, k);
            case AP_ALL_RELEVANT -> ExactMetrics.averagePrecisionOverAllRelevant(ranked, k);
            case ERR -> ExactMetrics.err(ranked, k, c.ymax());
            case NERR -> ExactMetrics.err(ranked, k, c.ymax()) / ExactMetrics.idealErr(labels, from, m, k, c.ymax());
            case MRR -> ExactMetrics.reciprocalRank(ranked, k);
        };
    }

    /**
     * Tie keys for {@link Ranking#order}: null (input order) for stable ties; for pessimistic ties
     * the position of each document when sorted by label ascending, then input order, so the less
     * relevant of two tied documents gets the smaller key and comes first.
     */
    static int[] tieKeys(float[] labels, int from, int m, MetricConventions c) {
        if (c.ties() == Ties.STABLE) {
            return null;
        }
        long[] packed = new long[m];
        for (int i = 0; i < m; i++) {
            // Labels are finite and >= 0 (QueryBatch checks), so their raw bits sort like the values.
            packed[i] = ((long) Float.floatToIntBits(labels[from + i] + 0.0f) << 32) | i;
        }
        Arrays.sort(packed);
        int[] keys = new int[m];
        for (int p = 0; p < m; p++) {
            keys[(int) packed[p]] = p;
        }
        return keys;
    }

    private static void checkSameLength(int scores, int labels) {
        if (scores != labels) {
            throw new IllegalArgumentException("there are " + scores + " scores but " + labels + " labels");
        }
    }
}
