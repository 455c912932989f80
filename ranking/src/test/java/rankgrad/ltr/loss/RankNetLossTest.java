package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class RankNetLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;

    @Test
    void onePairIsTheLogisticLossOfTheScoreDifference() {
        LossTesting.Evaluated e = LossTesting.evaluate(RankNetLoss.create(), QueryBatch.of(new float[] {1f, 0f}), 1.0, 0.0);
        assertEquals(Math.log1p(Math.exp(-1)), e.value(), EPS);
        double push = 1 / (1 + Math.E);
        assertArrayEquals(new double[] {-push, push}, e.grad(), EPS);
    }

    @Test
    void sigmaScalesTheDifferenceAndTheGradient() {
        LossTesting.Evaluated e = LossTesting.evaluate(RankNetLoss.create().withSigma(2),
                QueryBatch.of(new float[] {0f, 2f}), 1.0, 0.0);
        // Document 1 is more relevant but scored lower: z = 2 (0 - 1) = -2.
        assertEquals(Math.log1p(Math.exp(2)), e.value(), EPS);
        double push = 2 / (1 + Math.exp(-2));
        assertArrayEquals(new double[] {push, -push}, e.grad(), EPS);
    }

    @Test
    void sumsPairsOfDifferentGradesAndAveragesOverQueries() {
        // Query 0: pairs (0,1), (0,2) with label 2 > 0; docs 1 and 2 tie in label and form no pair.
        // Query 1 has no relevant document: it adds 0 to the sum but counts in the mean.
        QueryBatch batch = QueryBatch.of(new float[] {2f, 0f, 0f}, new float[] {0f, 0f});
        LossTesting.Evaluated e = LossTesting.evaluate(RankNetLoss.create(), batch, 0.0, 1.0, -1.0, 5.0, 3.0);
        assertEquals((Math.log1p(Math.exp(1)) + Math.log1p(Math.exp(-1))) / 2, e.value(), EPS);
        double p1 = 1 / (1 + Math.exp(-1));
        double p2 = 1 / (1 + Math.exp(1));
        assertArrayEquals(new double[] {-(p1 + p2) / 2, p1 / 2, p2 / 2, 0, 0}, e.grad(), EPS);
    }

    @Test
    void hugeScoreGapsStayFinite() {
        LossTesting.Evaluated e = LossTesting.evaluate(RankNetLoss.create(), QueryBatch.of(new float[] {1f, 0f}), -1e4, 1e4);
        assertEquals(2e4, e.value(), 0.0);
        assertArrayEquals(new double[] {-1, 1}, e.grad(), 0.0);
        assertThrows(IllegalArgumentException.class, () -> RankNetLoss.create().withSigma(0));
    }
}
