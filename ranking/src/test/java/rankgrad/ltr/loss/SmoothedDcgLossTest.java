package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class SmoothedDcgLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;
    private static final double LN2 = Math.log(2);
    private static final QueryBatch PAIR = QueryBatch.of(new float[] {1f, 0f});

    /** G_1(x) = 1 / (1 + e^x). */
    private static double g(double x) {
        return 1 / (1 + Math.exp(x));
    }

    @Test
    void sdcgOfATieHasHalfRankAndHalfCutoffWeight() {
        // rhat_0 = 1 + G(0) = 1.5; W(1.5) = G(1.5 - 1); IDCG@1 = 1.
        LossTesting.Evaluated e = LossTesting.evaluate(SmoothedDcgLoss.sdcg(1), PAIR, 0.0, 0.0);
        double d = LN2 / Math.log(2.5);
        double w = g(0.5);
        assertEquals(-d * w, e.value(), EPS);
        // d L / d rhat_0 = -(D' W + D W'), d rhat_0 / d o_0 = G'(0) = -1/4, d rhat_0 / d o_1 = +1/4.
        double dD = -LN2 / (2.5 * Math.log(2.5) * Math.log(2.5));
        double dW = -w * (1 - w);
        double c = -(dD * w + d * dW);
        assertArrayEquals(new double[] {-0.25 * c, 0.25 * c}, e.grad(), EPS);
        assertEquals("sdcg@1", SmoothedDcgLoss.sdcg(1).name());
    }

    @Test
    void smoothedHingeGivesWronglyOrderedPairsALinearRankAndAConstantSlope() {
        // o_0 - o_1 = -2: A(-2) = 0.5 + (1/4) 2 = 1, so rhat_0 = 2 and its slope is -1/4 (Eq. 14, 16).
        LossTesting.Evaluated e = LossTesting.evaluate(SmoothedDcgLoss.shfSdcg(1), PAIR, 0.0, 2.0);
        double d = LN2 / Math.log(3);
        double w = g(1);
        assertEquals(-d * w, e.value(), EPS);
        double dD = -LN2 / (3 * Math.log(3) * Math.log(3));
        double c = -(dD * w + d * (-w * (1 - w)));
        assertArrayEquals(new double[] {-0.25 * c, 0.25 * c}, e.grad(), EPS);
        // Plain SDCG at the same scores has the flatter sigmoid slope G'(-2).
        double sdcgSlope = -g(-2) * (1 - g(-2));
        double r = 1 + g(-2);
        double dS = LN2 / Math.log1p(r);
        double wS = g(r - 1);
        double cS = -(-LN2 / ((1 + r) * Math.log1p(r) * Math.log1p(r)) * wS + dS * (-wS * (1 - wS)));
        assertArrayEquals(new double[] {sdcgSlope * cS, -sdcgSlope * cS},
                LossTesting.evaluate(SmoothedDcgLoss.sdcg(1), PAIR, 0.0, 2.0).grad(), EPS);
    }

    @Test
    void lessRelevantDocumentGetsTheBHingeRank() {
        // Labels (1, 2), o_0 - o_1 = 2: the less relevant document 0 is wrongly above.
        // rhat_0 = 1 + B(2) = 1 + 1 + A(-2) = 3 and rhat_1 = 1 + A(-2) = 2 (Eq. 12-15).
        LossTesting.Evaluated e = LossTesting.evaluate(SmoothedDcgLoss.shfSdcg(2).withBeta(3),
                QueryBatch.of(new float[] {1f, 2f}), 2.0, 0.0);
        double invLog2Of3 = LN2 / Math.log(3);
        double sdcg = 1 * 0.5 * (1 / (1 + Math.exp(3 * (3 - 2)))) + 3 * invLog2Of3 * 0.5;
        double idcg = 3 + invLog2Of3;
        assertEquals(-sdcg / idcg, e.value(), EPS);
    }

    @Test
    void annealedWeightCentresOnTheRankOfTheTopKDocuments() {
        // k = 1: s_t = rhat_0 = 2, so W = G(0) = 1/2 whatever beta is.
        LossTesting.Evaluated e = LossTesting.evaluate(SmoothedDcgLoss.shfSdcg(1).withBeta(7).annealed(1L), PAIR, 0.0, 2.0);
        assertEquals(-0.5 * LN2 / Math.log(3), e.value(), EPS);
        // s_t is held constant: W' = -beta W (1 - W) = -7/4 acts on rhat_0 alone, through the hinge slope -1/4.
        double c = -(-LN2 / (3 * Math.log(3) * Math.log(3)) * 0.5 + LN2 / Math.log(3) * (-7 * 0.25));
        assertArrayEquals(new double[] {-0.25 * c, 0.25 * c}, e.grad(), EPS);
        assertEquals("shf-sdcg-annealed@1", SmoothedDcgLoss.shfSdcg(1).annealed(1L).name());
    }

    @Test
    void oneDocumentHasRankOneAndNoGradient() {
        LossTesting.Evaluated e = LossTesting.evaluate(SmoothedDcgLoss.shfSdcg(3), QueryBatch.of(new float[] {2f}), 0.7);
        assertEquals(-g(1 - 3), e.value(), EPS);
        assertArrayEquals(new double[] {0}, e.grad(), 0.0);
        assertThrows(IllegalArgumentException.class, () -> SmoothedDcgLoss.sdcg(0));
        assertThrows(IllegalArgumentException.class, () -> SmoothedDcgLoss.sdcg(1).withAlpha(-1));
    }
}
