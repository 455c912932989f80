package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;

/** The conventions every loss of the package shares (RankingLoss Javadoc). */
class RankingLossConventionsTest {
    private static final List<RankingLoss> LOSSES = List.of(
            RankNetLoss.create(), LambdaRankLoss.create(1L), LambdaRankLoss.create(1L).withTruncation(2),
            ListNetLoss.create(), ListMleLoss.create(1L), SmoothedDcgLoss.sdcg(2), SmoothedDcgLoss.shfSdcg(2),
            SmoothedDcgLoss.shfSdcg(2).annealed(1L), RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(2), 10).atStep(3));

    /** Query 0 has no relevant document, query 1 has one document, query 2 has three. */
    private static final QueryBatch BATCH = QueryBatch.of(new float[] {0f, 0f}, new float[] {2f},
            new float[] {1f, 0f, 3f});
    private static final double[] SCORES = {0.4, -1.2, 0.9, 0.1, 0.5, -0.3};

    @Test
    void queryWithoutRelevantDocumentsAddsZeroButCountsInTheMean() {
        QueryBatch third = QueryBatch.of(new float[] {1f, 0f, 3f});
        double[] thirdScores = {0.1, 0.5, -0.3};
        for (RankingLoss loss : LOSSES) {
            LossTesting.Evaluated all = LossTesting.evaluate(loss, BATCH, SCORES);
            assertArrayEquals(new double[] {0, 0}, new double[] {all.grad()[0], all.grad()[1]}, 0.0, loss.name());
            LossTesting.Evaluated alone = LossTesting.evaluate(fresh(loss), third, thirdScores);
            LossTesting.Evaluated single = LossTesting.evaluate(fresh(loss), QueryBatch.of(new float[] {2f}), 0.9);
            // Three queries: the mean divides the sum by 3. Tolerance: a few ulps of the three-term sum.
            assertEquals((alone.value() + single.value()) / 3, all.value(), 1e-15, loss.name());
            for (int i = 0; i < 3; i++) {
                assertEquals(alone.grad()[i] / 3, all.grad()[3 + i], 1e-16, loss.name());
            }
        }
    }

    @Test
    void oneDocumentQueriesHaveAFiniteLossAndNoPairGradient() {
        for (RankingLoss loss : LOSSES) {
            LossTesting.Evaluated e = LossTesting.evaluate(loss, QueryBatch.of(new float[] {2f}), 0.9);
            assertTrue(Double.isFinite(e.value()), loss.name());
            if (!(loss instanceof RegShfSdcgLoss)) {
                // Only the regression term of REG-SHF-SDCG pulls a lone score towards its label.
                assertEquals(0.0, e.grad()[0], 0.0, loss.name());
            }
        }
    }

    @Test
    void nonFiniteScoresNameTheQuery() {
        for (RankingLoss loss : LOSSES) {
            double[] bad = SCORES.clone();
            bad[4] = Double.NaN;
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> LossTesting.evaluate(loss, BATCH, bad), loss.name());
            assertTrue(e.getMessage().contains("query 2"), e.getMessage());
            bad[4] = Double.NEGATIVE_INFINITY;
            assertThrows(IllegalArgumentException.class, () -> LossTesting.evaluate(loss, BATCH, bad), loss.name());
        }
    }

    @Test
    void float32ScoresGiveFloat32ResultsCloseToFloat64() {
        for (RankingLoss loss : LOSSES) {
            float[] f = new float[SCORES.length];
            for (int i = 0; i < f.length; i++) {
                f[i] = (float) SCORES[i];
            }
            Var s = Var.param(Tensor.of(f, f.length, 1));
            Var l = fresh(loss).loss(s, BATCH);
            l.backward();
            assertEquals(DType.F32, l.dtype());
            assertEquals(DType.F32, s.grad().dtype());
            double[] widened = new double[f.length];
            for (int i = 0; i < f.length; i++) {
                widened[i] = f[i];
            }
            LossTesting.Evaluated e = LossTesting.evaluate(fresh(loss), BATCH, widened);
            // The work is done in float64 on the same (widened) scores; only the final rounding to
            // float32 differs: half an ulp of values of order 1 is 6e-8.
            assertEquals(e.value(), l.value().item(), 1e-7, loss.name());
            assertArrayEquals(e.grad(), s.grad().toDoubleArray(), 1e-7, loss.name());
        }
    }

    @Test
    void rejectsMisshapenScoresAndEmptyBatches() {
        for (RankingLoss loss : LOSSES) {
            assertThrows(IllegalArgumentException.class,
                    () -> loss.loss(Var.param(Tensor.vector(1.0, 2.0)), BATCH), loss.name());
            assertThrows(IllegalArgumentException.class,
                    () -> loss.loss(Var.param(Tensor.zeros(DType.F64, 2, 3)), BATCH), loss.name());
            assertThrows(IllegalArgumentException.class,
                    () -> loss.loss(Var.param(Tensor.zeros(DType.F64, 0)), new QueryBatch(new int[] {0}, new float[0])),
                    loss.name());
        }
    }

    /** A loss with its call counter reset, so seeded tie-breaks replay. */
    private static RankingLoss fresh(RankingLoss loss) {
        if (loss instanceof LambdaRankLoss l) {
            return l.withSigma(l.sigma());
        }
        if (loss instanceof ListMleLoss) {
            return ListMleLoss.create(1L);
        }
        if (loss instanceof SmoothedDcgLoss l) {
            return l.withAlpha(l.alpha());
        }
        return loss;
    }
}
