package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.LossTesting.Evaluated;

class SoftmaxCrossEntropyLossTest {
    /** Float64 throughout: the few roundings of a sum of four terms. */
    private static final double TOLERANCE = 1e-15;

    @Test
    void valueAndGradientFollowTfRankingsFormula() {
        // TF-Ranking's SoftmaxLoss on one list: targets y / sum(y) = (2, 1, 0, 3) / 6, L = logsumexp(s) -
        // sum_i t_i s_i and dL/ds = softmax(s) - t. Expected values from Python's math module:
        //   lse = log(sum(exp(v) for v in s)); t = [v / 6 for v in y]; L = lse - sum(t_i s_i)
        QueryBatch batch = new QueryBatch(new int[] {0, 4}, new float[] {2, 1, 0, 3});
        Evaluated e = LossTesting.evaluate(SoftmaxCrossEntropyLoss.create(), batch, 1.0, 0.0, -1.0, 0.5);
        assertEquals(1.163233935840458, e.value(), TOLERANCE);
        assertArrayEquals(new double[] {0.1406575129207447, 0.007704820973662596, 0.06414768542935737,
            -0.21251001932376468}, e.grad(), TOLERANCE);
    }

    @Test
    void targetsAreTheGradesOverTheirSumNotListNetsSoftmax() {
        QueryBatch batch = new QueryBatch(new int[] {0, 3}, new float[] {2, 1, 0});
        double[] scores = {0.3, -0.2, 0.1};
        Evaluated softmax = LossTesting.evaluate(SoftmaxCrossEntropyLoss.create(), batch, scores);
        Evaluated listNet = LossTesting.evaluate(ListNetLoss.create(), batch, scores);
        // Document 3 has grade 0: its target is 0 here, e^0 / (e^2 + e^1 + e^0) under ListNet.
        double softmax2 = Math.exp(0.1) / (Math.exp(0.3) + Math.exp(-0.2) + Math.exp(0.1));
        assertEquals(softmax2, softmax.grad()[2], TOLERANCE);
        assertNotEquals(softmax.grad()[2], listNet.grad()[2], 1e-3);
    }

    @Test
    void aListWithoutRelevantDocumentsCountsAsZeroInTheMean() {
        QueryBatch batch = new QueryBatch(new int[] {0, 2, 4}, new float[] {0, 0, 1, 0});
        Evaluated e = LossTesting.evaluate(SoftmaxCrossEntropyLoss.create(), batch, 5.0, -5.0, 0.0, 0.0);
        assertEquals(Math.log(2) / 2, e.value(), TOLERANCE);
        assertArrayEquals(new double[] {0, 0, -0.25, 0.25}, e.grad(), TOLERANCE);
    }
}
