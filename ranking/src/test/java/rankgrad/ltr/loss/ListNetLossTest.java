package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

class ListNetLossTest {
    // Closed forms evaluated in double against a few summed terms: a few ulps of difference.
    private static final double EPS = 1e-14;

    @Test
    void crossEntropyOfLabelAndScoreSoftmaxes() {
        LossTesting.Evaluated e = LossTesting.evaluate(ListNetLoss.create(), QueryBatch.of(new float[] {1f, 0f}), 0.0, 0.0);
        assertEquals(Math.log(2), e.value(), EPS);
        double p0 = Math.E / (1 + Math.E);
        assertArrayEquals(new double[] {0.5 - p0, 0.5 - (1 - p0)}, e.grad(), EPS);
    }

    @Test
    void hugeScoresDoNotOverflow() {
        LossTesting.Evaluated e = LossTesting.evaluate(ListNetLoss.create(), QueryBatch.of(new float[] {0f, 1f}), 1e6, 0.0);
        // softmax(s) = [1, 0]; the loss is -(1 - p0) log(e^-1e6) = 1e6 (1 - p0), p0 = 1 / (1 + e).
        double p0 = 1 / (1 + Math.E);
        assertEquals(1e6 * (1 - p0), e.value(), 1e6 * 1e-15);
        assertArrayEquals(new double[] {(1 - p0), -(1 - p0)}, e.grad(), EPS);
    }
}
