package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class RegShfSdcgLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;

    @Test
    void scheduleStartsAtRegressionAndCrossesHalfAtTheMiddle() {
        RegShfSdcgLoss reg = RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(1), 100);
        assertEquals(0.999999, reg.tau(), EPS);
        assertEquals(0.5, reg.atStep(50).tau(), EPS);
        assertEquals(1e-6, reg.atStep(99).tau(), 1e-12); // symmetric about T/2: tau_{T-1} = 1 - tau_1
        assertThrows(IllegalArgumentException.class, () -> RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(1), 2));
        assertThrows(IllegalArgumentException.class, () -> reg.atStep(0));
    }

    @Test
    void blendsMeanSquaredErrorAndShfSdcgLoss() {
        QueryBatch pair = QueryBatch.of(new float[] {1f, 0f});
        SmoothedDcgLoss shf = SmoothedDcgLoss.shfSdcg(1);
        LossTesting.Evaluated ranking = LossTesting.evaluate(shf, pair, 0.0, 2.0);
        LossTesting.Evaluated e = LossTesting.evaluate(RegShfSdcgLoss.of(shf, 10).atStep(5), pair, 0.0, 2.0);
        // tau = 1/2; MSE = ((0 - 1)^2 + (2 - 0)^2) / 2, its gradient 2 (s - y) / m = (-1, 2).
        assertEquals(0.5 * 2.5 + 0.5 * ranking.value(), e.value(), EPS);
        assertArrayEquals(new double[] {0.5 * -1 + 0.5 * ranking.grad()[0], 0.5 * 2 + 0.5 * ranking.grad()[1]},
                e.grad(), EPS);
        assertEquals("reg-shf-sdcg@1", RegShfSdcgLoss.of(shf, 10).name());
    }
}
