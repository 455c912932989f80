package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class ListMleLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;

    @Test
    void negativePlackettLuceLogLikelihoodOfTheLabelOrder() {
        LossTesting.Evaluated e = LossTesting.evaluate(ListMleLoss.create(1L), QueryBatch.of(new float[] {1f, 0f}), 0.0, 0.0);
        assertEquals(Math.log(2), e.value(), EPS);
        assertArrayEquals(new double[] {-0.5, 0.5}, e.grad(), EPS);
        // Label order (1, 0, 2) by grades 1 > 0.5 > 0: L = [lse(s) - s_1] + [lse(s_0, s_2) - s_0] + 0.
        LossTesting.Evaluated three = LossTesting.evaluate(ListMleLoss.create(1L),
                QueryBatch.of(new float[] {0.5f, 1f, 0f}), 0.3, -0.2, 1.1);
        double lse012 = Math.log(Math.exp(0.3) + Math.exp(-0.2) + Math.exp(1.1));
        double lse02 = Math.log(Math.exp(0.3) + Math.exp(1.1));
        assertEquals(lse012 + 0.2 + lse02 - 0.3, three.value(), EPS);
        double[] expected = {
            Math.exp(0.3 - lse012) + Math.exp(0.3 - lse02) - 1,
            Math.exp(-0.2 - lse012) - 1,
            Math.exp(1.1 - lse012) + Math.exp(1.1 - lse02) + 1 - 1,
        };
        assertArrayEquals(expected, three.grad(), EPS);
    }

    @Test
    void labelTiesAreBrokenBySeedAndBothOrdersOccur() {
        // Order (0, 1, 2) gives ln 4 + ln 3 - ln 2 = ln 6; order (0, 2, 1) gives ln 4 + ln 3 = ln 12.
        QueryBatch batch = QueryBatch.of(new float[] {1f, 0f, 0f});
        ListMleLoss loss = ListMleLoss.create(3L);
        boolean sawSix = false;
        boolean sawTwelve = false;
        for (int call = 0; call < 64; call++) {
            double v = LossTesting.evaluate(loss, batch, 0.0, Math.log(2), 0.0).value();
            boolean six = Math.abs(v - Math.log(6)) < EPS;
            boolean twelve = Math.abs(v - Math.log(12)) < EPS;
            assertTrue(six || twelve, "value " + v);
            sawSix |= six;
            sawTwelve |= twelve;
        }
        assertTrue(sawSix && sawTwelve);
    }
}
