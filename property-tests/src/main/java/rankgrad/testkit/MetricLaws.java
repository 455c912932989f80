package rankgrad.testkit;

import java.util.Arrays;

/**
 * The law of differentiable metrics computed from rank variables (Yu et al. 2020, Eq. 13-16;
 * docs/design.md §3.3): at exact ranks r, the value M_q(r) of each query equals the exact metric of
 * the ranking those ranks give, |M_q(r) - metric_q| &lt;= tolerance (both NaN also agree).
 *
 * <pre>{@code
 * qt().forAll(RankingCases.anyScores(4, 30)).checkAssert(c -> {
 *     double[] ranks = myExactRanks(c);                     // one exact rank per document
 *     double[] values = myMetricFromRanks(ranks, c.batch()); // one value per query
 *     MetricLaws.assertEqualsExactMetric(values, ranks, c, ExactMetric.of(RankMetric.ndcg()), 1e-12);
 * });
 * }</pre>
 */
public final class MetricLaws {
    private MetricLaws() {
    }

    /**
     * {@code values[q]} equals {@code metric} of query q ranked by {@code exactRanks} (which must
     * satisfy {@link RankLaws#assertExactRanks(double[], RankingCase)}), within {@code tolerance}.
     */
    public static void assertEqualsExactMetric(double[] values, double[] exactRanks, RankingCase c, ExactMetric metric,
            double tolerance) {
        RankLaws.assertExactRanks(exactRanks, c);
        if (values.length != c.queries()) {
            throw new AssertionError(values.length + " metric values for " + c.queries() + " queries");
        }
        double[] expected = metric.ofRanks(exactRanks, c.batch());
        for (int q = 0; q < values.length; q++) {
            boolean bothNaN = Double.isNaN(values[q]) && Double.isNaN(expected[q]);
            if (!bothNaN && !(Math.abs(values[q] - expected[q]) <= tolerance)) {
                int from = c.batch().start(q);
                int m = c.batch().size(q);
                throw new AssertionError("query " + q + ": value " + values[q] + " but the exact " + metric + " is "
                        + expected[q] + " (difference " + Math.abs(values[q] - expected[q]) + " > " + tolerance
                        + "); labels " + Arrays.toString(c.labelsOf(q)) + " ranks "
                        + Arrays.toString(Arrays.copyOfRange(exactRanks, from, from + m)));
            }
        }
    }
}
