package rankgrad.ltr.eval;

import java.util.Arrays;
import java.util.List;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.metric.Metric;

/**
 * The metrics as the LETOR 4.0 evaluation script ({@code Eval-Score-4.0.pl}, Xu and Liu, 2009)
 * computes them, so that numbers published on MQ2007/MQ2008 can be reproduced. The script's
 * conventions differ from the usual ones (docs/evaluation.md, "LETOR's numbers"):
 *
 * <ul>
 *   <li>discount D(r) = 1 for r &lt;= 2 and 1 / log2(r) for r &gt;= 3 (the first two positions
 *       undiscounted; the usual form is 1 / log2(1 + r)); gain 2^y - 1 (the script's table 0, 1, 3
 *       for grades 0, 1, 2);</li>
 *   <li>NDCG@k = DCG@k / IDCG@k over the query's own documents, 0 when IDCG@k = 0 (a query
 *       without a relevant document counts as 0 and stays in the mean), and 0 when the query has
 *       fewer than k documents (the script leaves that entry unset and sums it as 0);</li>
 *   <li>P@k = |relevant in the top min(k, m)| / k; MAP: the average precision over the whole list,
 *       0 without a relevant document; relevant means grade &gt; 0;</li>
 *   <li>ties keep the input order (the script sorts by line number, then by score with Perl's
 *       stable merge sort); every query counts in every mean.</li>
 * </ul>
 *
 * <p>Only the script's metrics exist here: {@code ndcg@k}, {@code p@k} and {@code map} (no
 * cutoff). A test holds the script's own output on a fixture (LetorScriptAgreementTest).
 */
public final class LetorScript {
    /** The metrics the script computes, as rankgrad names them. */
    public static final List<String> METRICS = List.of("ndcg@k", "p@k", "map");

    private LetorScript() {
    }

    /** Whether the script computes {@code metric}. */
    public static boolean supports(Metric metric) {
        return switch (metric.kind()) {
            case NDCG, PRECISION -> metric.hasCutoff();
            case AP -> !metric.hasCutoff();
            default -> false;
        };
    }

    /**
     * Per-query values of {@code metric} for {@code evaluation}'s queries, in its order (never NaN).
     *
     * @throws IllegalArgumentException when the script does not compute {@code metric}
     */
    public static double[] perQuery(RunEvaluation evaluation, Metric metric) {
        if (!supports(metric)) {
            throw new IllegalArgumentException("the LETOR 4.0 script computes " + String.join(", ", METRICS)
                    + ", not " + metric);
        }
        QueryBatch batch = evaluation.batch();
        double[] out = new double[batch.queries()];
        for (int q = 0; q < out.length; q++) {
            int from = batch.start(q);
            int m = batch.size(q);
            int[] order = Ranking.order(evaluation.scores(), from, m, null);
            float[] ranked = new float[m];
            for (int r = 0; r < m; r++) {
                ranked[r] = batch.labels()[from + order[r]];
            }
            out[q] = switch (metric.kind()) {
                case NDCG -> ndcg(ranked, metric.cutoff());
                case PRECISION -> precision(ranked, metric.cutoff());
                case AP -> averagePrecision(ranked);
                default -> throw new AssertionError(metric);
            };
        }
        return out;
    }

    /** D(r) for the 1-based rank r: 1 for r &lt;= 2, 1 / log2(r) after. */
    static double discount(int r) {
        return r <= 2 ? 1.0 : Math.log(2) / Math.log(r);
    }

    private static double ndcg(float[] ranked, int k) {
        if (ranked.length < k) {
            return 0;
        }
        float[] ideal = ranked.clone();
        Arrays.sort(ideal);
        double dcg = 0;
        double best = 0;
        for (int r = 1; r <= k; r++) {
            dcg += ExactMetrics.gain(ranked[r - 1]) * discount(r);
            best += ExactMetrics.gain(ideal[ideal.length - r]) * discount(r);
        }
        return best == 0 ? 0 : dcg / best;
    }

    private static double precision(float[] ranked, int k) {
        int relevant = 0;
        for (int r = 0; r < Math.min(k, ranked.length); r++) {
            relevant += ranked[r] > 0 ? 1 : 0;
        }
        return relevant / (double) k;
    }

    private static double averagePrecision(float[] ranked) {
        int relevant = 0;
        double sum = 0;
        for (int r = 0; r < ranked.length; r++) {
            if (ranked[r] > 0) {
                relevant++;
                sum += relevant / (r + 1.0);
            }
        }
        return relevant == 0 ? 0 : sum / relevant;
    }
}
