package rankgrad.ltr.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** trec_eval's measure names and its two conventions that differ from rankgrad's defaults. */
class TrecEvalConventionsTest {
    // Closed forms in double against a few summed terms: only rounding of a few ulps can differ.
    private static final double EPS = 1e-12;
    private static final double D2 = 1 / (Math.log(3) / Math.log(2));

    /** Ranked labels [0, 2, 1, 0]. */
    private static final float[] SCORES = {3f, 2f, 1f, 0f};
    private static final float[] LABELS = {0f, 2f, 1f, 0f};

    @Test
    void trecEvalNamesParseToTheSameMetrics() {
        assertEquals(Metric.parse("ndcg@10"), Metric.parse("ndcg_cut.10"));
        assertEquals(Metric.parse("p@5"), Metric.parse("P.5"));
        assertEquals(Metric.parse("mrr"), Metric.parse("recip_rank"));
        assertEquals(Metric.full(MetricKind.AP), Metric.parse("map"));
        assertEquals(Metric.full(MetricKind.NDCG), Metric.parse("ndcg"));
        assertEquals(Metric.at(MetricKind.AP_ALL_RELEVANT, 10), Metric.parse("map_cut.10"));
        assertEquals("map_cut@10", Metric.parse("map_cut.10").toString());
        assertThrows(IllegalArgumentException.class, () -> Metric.parse("ndcg_cut.x"));
        assertThrows(IllegalArgumentException.class, () -> Metric.parse("bpref.5"));
    }

    @Test
    void linearGainIsTheGradeItself() {
        MetricConventions linear = MetricConventions.defaults().withGain(Gain.LINEAR);
        // DCG = 2 D(2) + 1 D(3); IDCG = 2 D(1) + 1 D(2).
        double dcg = 2 * D2 + 0.5;
        assertEquals(dcg, Metric.parse("dcg").value(SCORES, LABELS, linear), EPS);
        assertEquals(dcg / (2 + D2), Metric.parse("ndcg").value(SCORES, LABELS, linear), EPS);
        // The exponential default differs on grade 2 (gain 3), so a mix-up of the two cannot pass.
        assertEquals((3 * D2 + 0.5) / (3 + D2), Metric.parse("ndcg").value(SCORES, LABELS, MetricConventions.defaults()),
                EPS);
        assertEquals(Gain.LINEAR, linear.withTies(Ties.PESSIMISTIC).withYmax(2).withNoRelevant(NoRelevantPolicy.ZERO).gain());
    }

    @Test
    void mapCutDividesByAllRelevantDocuments() {
        MetricConventions c = MetricConventions.defaults();
        // Ranked labels [1, 0, 1, 1]: relevant at ranks 1, 3, 4, |relevant| = 3.
        float[] labels = {1f, 0f, 1f, 1f};
        // Within k = 2 only rank 1 counts (P@1 = 1): map_cut.2 divides by 3, map@2 by min(2, 3) = 2.
        assertEquals(1 / 3.0, Metric.parse("map_cut.2").value(SCORES, labels, c), EPS);
        assertEquals(1 / 2.0, Metric.parse("map@2").value(SCORES, labels, c), EPS);
        // Past the list both are AP: (1 + 2/3 + 3/4) / 3.
        assertEquals((1 + 2 / 3.0 + 3 / 4.0) / 3, Metric.parse("map_cut.10").value(SCORES, labels, c), EPS);
        assertEquals((1 + 2 / 3.0 + 3 / 4.0) / 3, Metric.parse("map").value(SCORES, labels, c), EPS);
    }
}
