package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.RankMetric;

class TwinSigmoidLossTest {

    @Test
    void valueIsMinusTheMeanNdcgAndAQueryWithoutRelevantDocumentsGetsNoGradient() {
        // Query 0: ranks (1, 3, 2); query 1 has no relevant document.
        QueryBatch batch = QueryBatch.of(new float[] {0, 2, 1}, new float[] {0, 0});
        Var scores = Var.param(Tensor.vector(3.0, 1.0, 2.0, 0.5, 0.25));
        Var loss = TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 1).loss(scores, batch);
        double ndcg = (3 / log2(4) + 1 / log2(3)) / (3 / log2(2) + 1 / log2(3));
        assertEquals(-ndcg / 2, loss.value().item(), 1e-15);
        loss.backward();
        double[] grad = scores.grad().toDoubleArray();
        assertEquals(0.0, grad[3], 0.0);
        assertEquals(0.0, grad[4], 0.0);
        // Type 3 pushes the misranked relevant document (score 1, label 2) up: negative loss gradient.
        assertTrue(grad[1] < 0, "gradient of the best document " + grad[1]);
        assertTrue(grad[0] > 0, "gradient of the irrelevant top document " + grad[0]);
    }

    @Test
    void nonFiniteScoreNamesItsQuery() {
        QueryBatch batch = QueryBatch.of(new float[] {1, 0}, new float[] {0, 1, 2});
        Var scores = Var.param(Tensor.vector(0f, 1f, 2f, Float.NaN, 3f));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE1, 1).loss(scores, batch));
        assertTrue(e.getMessage().contains("query 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ApproxNdcgLoss.of(10).loss(
                Var.param(Tensor.vector(0f, Float.POSITIVE_INFINITY, 2f, 1f, 3f)), batch));
    }

    @Test
    void oneDocumentQueryHasItsMetricAndZeroGradient() {
        QueryBatch batch = QueryBatch.of(new float[] {3});
        Var scores = Var.param(Tensor.vector(0.7));
        Var loss = TwinSigmoidLoss.of(RankMetric.averagePrecision(), BackwardType.TYPE2, 1).loss(scores, batch);
        assertEquals(-1.0, loss.value().item(), 0.0);
        loss.backward();
        assertArrayEquals(new double[] {0.0}, scores.grad().toDoubleArray(), 0.0);
    }

    @Test
    void tiesAreBrokenAfreshEachCallAndReproduciblyFromTheSeed() {
        // Eight tied documents, one relevant: its rank, and so the loss, follows the tie permutation.
        QueryBatch batch = QueryBatch.of(new float[] {1, 0, 0, 0, 0, 0, 0, 0});
        Tensor tied = Tensor.vector(new float[8]);
        double[] a = lossPerCall(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE1, 42), tied, batch);
        double[] b = lossPerCall(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE1, 42), tied, batch);
        double[] c = lossPerCall(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE1, 43), tied, batch);
        assertArrayEquals(a, b, 0.0, "same seed, same calls");
        assertTrue(Arrays.stream(a).distinct().count() > 1, "later calls draw new ties: " + Arrays.toString(a));
        assertFalse(Arrays.equals(a, c), "another seed, other ties");
    }

    private static double[] lossPerCall(TwinSigmoidLoss loss, Tensor scores, QueryBatch batch) {
        double[] values = new double[8];
        for (int call = 0; call < values.length; call++) {
            values[call] = loss.loss(Var.param(scores), batch).value().item();
        }
        return values;
    }

    @Test
    void namesFollowYu() {
        assertEquals("ndcg-type3", TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 0).name());
        assertEquals("precision@5-type1", TwinSigmoidLoss.of(RankMetric.precision(5), BackwardType.TYPE1, 0).name());
        assertEquals("nerr@10-type2", TwinSigmoidLoss.of(RankMetric.nerr(10), BackwardType.TYPE2, 0).name());
        assertEquals("ap-type3", TwinSigmoidLoss.of(RankMetric.averagePrecision(), BackwardType.of(3), 0).name());
        assertEquals("approx-ndcg", ApproxNdcgLoss.of(10).name());
        assertEquals("approx-ndcg:3.0", ApproxNdcgLoss.of(3).name());
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
