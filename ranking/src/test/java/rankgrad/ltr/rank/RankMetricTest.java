package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RankMetricTest {
    /** Labels of four documents already in ranked order: relevant at positions 1, 3 and 4. */
    private static final float[] LABELS = {1, 0, 2, 1};
    private static final double[] RANKS = {1, 2, 3, 4};
    private static final int[] ORDER = {0, 1, 2, 3};
    /** Hand-computed values are exact to double rounding. */
    private static final double EXACT = 1e-15;

    private static double evaluate(RankMetric metric, double[] grad) {
        return metric.evaluate(LABELS, 0, 4, RANKS, ORDER, grad);
    }

    @Test
    void precisionAtTwoCountsOneHitAndMovesOnlyTheTopDocuments() {
        double[] grad = new double[4];
        assertEquals(0.5, evaluate(RankMetric.precision(2), grad), EXACT);
        // d/dr_bar_p of (1/k) b_p p / r_bar_p at r_bar_p = p: -b_p / (k p).
        assertArrayEquals(new double[] {-0.5, 0, 0, 0}, grad, EXACT);
    }

    @Test
    void averagePrecisionOfHitsAtOneThreeFour() {
        double[] grad = new double[4];
        // (P@1 + P@3 + P@4) / 3 = (1 + 2/3 + 3/4) / 3.
        assertEquals(29.0 / 36, evaluate(RankMetric.averagePrecision(), grad), EXACT);
        // -(1 / (|Y+| p)) sum_{k >= p} b_k / k.
        assertArrayEquals(new double[] {-(1 + 1.0 / 3 + 0.25) / 3, 0, -(1.0 / 3 + 0.25) / 9, -0.25 / 12}, grad, EXACT);
    }

    @Test
    void nerrAtThreeWithGradeScaleFour() {
        double err = 1.0 / 16 + (15.0 / 16) * (3.0 / 16) / 3;
        double ideal = 3.0 / 16 + (13.0 / 16) * (1.0 / 16) / 2 + (13.0 / 16) * (15.0 / 16) * (1.0 / 16) / 3;
        assertEquals(err / ideal, evaluate(RankMetric.nerr(3), new double[4]), EXACT);
    }

    @Test
    void ndcgDerivativeKeepsTheOneOverLnTwo() {
        double[] grad = new double[4];
        RankMetric ndcg = RankMetric.ndcg();
        evaluate(ndcg, grad);
        double h = 1e-6;
        for (int i = 0; i < 4; i++) {
            double[] plus = RANKS.clone();
            double[] minus = RANKS.clone();
            plus[i] += h;
            minus[i] -= h;
            double fd = (ndcg.evaluate(LABELS, 0, 4, plus, ORDER, new double[4])
                    - ndcg.evaluate(LABELS, 0, 4, minus, ORDER, new double[4])) / (2 * h);
            // Central difference: error h^2 |M'''| / 6 ~ 1e-12 plus rounding 1e-16 / h = 1e-10;
            // Yu's Eq. 32 without 1/ln 2 would be off by 44%.
            assertEquals(fd, grad[i], 1e-9, "d nDCG / d r_" + i);
        }
    }

    @Test
    void queryWithoutRelevantDocumentsIsZeroWithZeroGradient() {
        float[] none = {0, 0, 0};
        for (RankMetric metric : new RankMetric[] {RankMetric.precision(2), RankMetric.averagePrecision(),
                RankMetric.ndcg(), RankMetric.nerr(2)}) {
            double[] grad = {7, 7, 7};
            assertEquals(0.0, metric.evaluate(none, 0, 3, new double[] {1, 2, 3}, new int[] {0, 1, 2}, grad), 0.0);
            assertArrayEquals(new double[3], grad, 0.0, metric.name());
        }
    }

    @Test
    void nerrRejectsLabelsAboveTheGradeScale() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RankMetric.nerr(3)
                .evaluate(new float[] {5, 0}, 0, 2, new double[] {1, 2}, new int[] {0, 1}, new double[2]));
        assertEquals(true, e.getMessage().contains("RankMetric.nerr(k, ymax)"), e.getMessage());
    }
}
