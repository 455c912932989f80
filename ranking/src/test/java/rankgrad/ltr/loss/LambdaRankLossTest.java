package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class LambdaRankLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;
    private static final double INV_LOG2_3 = Math.log(2) / Math.log(3);

    @Test
    void wronglyOrderedPairGetsTheNdcgSwapTimesTheRankNetGradient() {
        // Relevant document 0 sits at position 2: swapping gains 1 - D(2) of NDCG (IDCG = 1).
        LossTesting.Evaluated e = LossTesting.evaluate(LambdaRankLoss.create(1L),
                QueryBatch.of(new float[] {1f, 0f}), 0.0, 1.0);
        double delta = 1 - INV_LOG2_3;
        double lambda = delta / (1 + Math.exp(-1));
        assertArrayEquals(new double[] {-lambda, lambda}, e.grad(), EPS);
        assertEquals(delta * Math.log1p(Math.E), e.value(), EPS);
    }

    @Test
    void truncationIgnoresPairsBelowTheCutoffAndNormalizesByIdcgAtK() {
        // Ideal order, k = 1: IDCG@1 = 3; pairs with document 0 change NDCG@1, the pair (1, 2) does not.
        LossTesting.Evaluated e = LossTesting.evaluate(LambdaRankLoss.create(1L).withTruncation(1),
                QueryBatch.of(new float[] {2f, 1f, 0f}), 3.0, 2.0, 1.0);
        double l01 = (2.0 / 3) / (1 + Math.E);
        double l02 = 1.0 / (1 + Math.exp(2));
        assertArrayEquals(new double[] {-(l01 + l02), l01, l02}, e.grad(), EPS);
        assertEquals((2.0 / 3) * Math.log1p(Math.exp(-1)) + Math.log1p(Math.exp(-2)), e.value(), EPS);
    }

    @Test
    void float64ScoresCloserThanFloatPrecisionAreNotTies() {
        // 1 and 1 + 1e-12 are one float but two doubles: document 1 is above document 0 on every
        // call, never in a random tie-break, so the lambdas never change.
        QueryBatch batch = QueryBatch.of(new float[] {1f, 0f, 0f});
        LambdaRankLoss loss = LambdaRankLoss.create(5L);
        double[] first = LossTesting.evaluate(loss, batch, 1.0, 1.0 + 1e-12, 0.5).grad();
        for (int call = 1; call < 16; call++) {
            assertArrayEquals(first, LossTesting.evaluate(loss, batch, 1.0, 1.0 + 1e-12, 0.5).grad(), 0.0);
        }
    }

    @Test
    void tiedScoresGetRandomPositionsFromTheSeed() {
        // With all scores equal the positions are the tie-break permutation, and the relevant
        // document's lambda depends on its position: over a few calls it must change, else ties
        // would be broken by input order.
        QueryBatch batch = QueryBatch.of(new float[] {1f, 0f, 0f});
        LambdaRankLoss loss = LambdaRankLoss.create(5L);
        double first = LossTesting.evaluate(loss, batch, 0.0, 0.0, 0.0).grad()[0];
        boolean sawOther = false;
        for (int call = 1; call < 64 && !sawOther; call++) {
            sawOther = LossTesting.evaluate(loss, batch, 0.0, 0.0, 0.0).grad()[0] != first;
        }
        assertTrue(sawOther);
        // The same seed replays the same sequence of tie-breaks.
        LambdaRankLoss a = LambdaRankLoss.create(9L);
        LambdaRankLoss b = LambdaRankLoss.create(9L);
        for (int call = 0; call < 8; call++) {
            assertArrayEquals(LossTesting.evaluate(a, batch, 0.0, 0.0, 0.0).grad(),
                    LossTesting.evaluate(b, batch, 0.0, 0.0, 0.0).grad(), 0.0);
        }
        assertEquals("lambdarank@5", LambdaRankLoss.create(1L).withTruncation(5).name());
        assertThrows(IllegalArgumentException.class, () -> LambdaRankLoss.create(1L).withTruncation(0));
    }
}
