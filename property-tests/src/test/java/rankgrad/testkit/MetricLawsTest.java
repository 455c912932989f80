package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.rank.RankMetric;

/** Examples of the metric law and of {@link ExactMetric}. */
class MetricLawsTest {
    /** Query 0: grades 0, 2, 1 ranked 2, 1, 3; query 1: no relevant document. */
    private static final RankingCase CASE = new RankingCase(QueryBatch.of(new float[] {0, 2, 1}, new float[] {0, 0}),
            new double[] {0.5, 1.0, -1.0, 3, 2}, 7);
    private static final double[] RANKS = {2, 1, 3, 1, 2};
    /**
     * Ranked grades 2, 0, 1: DCG = 3 / log2(2) + 1 / log2(4) = 3.5; ideal 2, 1, 0: 3 + 1 / log2(3);
     * 0 for the query without relevant documents. P@2 = 1/2.
     */
    private static final double[] NDCG = {3.5 / (3 + Math.log(2) / Math.log(3)), 0.0};

    @Test
    void exactMetricOfRanksFollowsTheRanking() {
        assertArrayEquals(NDCG, ExactMetric.of(RankMetric.ndcg()).ofRanks(RANKS, CASE.batch()), 1e-15);
        assertArrayEquals(new double[] {0.5, 0.0}, ExactMetric.of(RankMetric.precision(2)).ofRanks(RANKS, CASE.batch()), 1e-15);
        // The caller's conventions decide the value of a query without relevant documents.
        ExactMetric excluded = new ExactMetric(Metric.parse("ndcg"), MetricConventions.defaults());
        assertTrue(Double.isNaN(excluded.ofRanks(RANKS, CASE.batch())[1]));
    }

    @Test
    void lawAcceptsTheExactValueAndRejectsAnother() {
        // Two ways of summing the same two terms: one ulp of a value below 1.
        MetricLaws.assertEqualsExactMetric(NDCG, RANKS, CASE, ExactMetric.of(RankMetric.ndcg()), 0x1p-52);
        AssertionError wrongValue = assertThrows(AssertionError.class,
                () -> MetricLaws.assertEqualsExactMetric(new double[] {0.5, 0}, RANKS, CASE, ExactMetric.of(RankMetric.ndcg()), 1e-12));
        assertTrue(wrongValue.getMessage().startsWith("query 0: value 0.5 but the exact ndcg"), wrongValue.getMessage());
        AssertionError notExact = assertThrows(AssertionError.class,
                () -> MetricLaws.assertEqualsExactMetric(NDCG, new double[] {1.5, 1, 3, 1, 2}, CASE,
                        ExactMetric.of(RankMetric.ndcg()), 1e-12));
        assertTrue(notExact.getMessage().contains("is not an integer"), notExact.getMessage());
    }
}
