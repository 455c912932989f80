package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.LossTesting.Evaluated;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * {@link LightGbmLambdaRankLoss} against the lambdas of LightGBM's own compiled objective
 * ({@code reference/lightgbm_lambdas.txt}, written by {@code reference/gen_lightgbm.py} through the
 * harness {@code reference/lightgbm_lambdas.cpp}, which calls lib_lightgbm.so of the pip wheel; the
 * command is in the script's docstring). LightGBM sums the queries' gradients, rankgrad averages
 * them: a batch of Q queries is compared as Q times rankgrad's gradient.
 */
class LightGbmLambdaRankReferenceTest {
    /**
     * The agreement asked of every document: 1e-6, plus the float32 rounding of LightGBM's own
     * accumulation (the fixture's per-document bound, at most about 1e-6), plus, for the cases
     * that use LightGBM's default sigmoid on arbitrary scores, its sigmoid table's error (the
     * fixture's {@code table} bound; 0 where the table is read at its bin edges, i.e. exactly).
     */
    private static final double AGREEMENT = 1e-6;
    private static final List<ReferenceFixture.Case> CASES = ReferenceFixture.read("reference/lightgbm_lambdas.txt");

    static Stream<Named<ReferenceFixture.Case>> cases() {
        return CASES.stream().map(c -> Named.of(c.line(), c));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void lambdasEqualLightGbms(ReferenceFixture.Case c) {
        QueryBatch batch = ReferenceFixture.batch(c);
        LightGbmLambdaRankLoss loss = LightGbmLambdaRankLoss.create().withTruncation((int) c.number("level"))
                .withSigma(c.number("sigma")).withNormalization(c.number("norm") == 1);
        double[] scores = ReferenceFixture.flat(c, "scores");
        double[] expected = ReferenceFixture.flat(c, "lambdas");
        double[] rounding = ReferenceFixture.flat(c, "bound");
        double[] table = ReferenceFixture.flat(c, "table");
        Evaluated got = LossTesting.evaluate(loss, batch, scores);
        int queries = batch.queries();
        for (int i = 0; i < scores.length; i++) {
            assertEquals(expected[i], queries * got.grad()[i], AGREEMENT + rounding[i] + table[i],
                    "document " + i + " of " + c.line());
        }
    }

    @Test
    void theExactTableCasesAgreeToOneMillionth() {
        // Where LightGBM's sigmoid table is exact, the only difference left is LightGBM's float32
        // accumulation; the largest difference found is reported here, not hidden in the bounds.
        double worst = 0;
        for (ReferenceFixture.Case c : CASES) {
            if (!c.line().startsWith("case exact")) {
                continue;
            }
            QueryBatch batch = ReferenceFixture.batch(c);
            LightGbmLambdaRankLoss loss = LightGbmLambdaRankLoss.create().withTruncation((int) c.number("level"))
                    .withSigma(c.number("sigma")).withNormalization(c.number("norm") == 1);
            double[] expected = ReferenceFixture.flat(c, "lambdas");
            Evaluated got = LossTesting.evaluate(loss, batch, ReferenceFixture.flat(c, "scores"));
            for (int i = 0; i < expected.length; i++) {
                worst = Math.max(worst, Math.abs(expected[i] - batch.queries() * got.grad()[i]));
            }
        }
        assertTrue(worst <= AGREEMENT, "largest difference to LightGBM on the exact-table cases: " + worst);
    }

    @Test
    void float32OnTheCpuBackendAgreesWithFloat64() {
        // The backend's float32 kernels (SIMD where available) against the float64 reference on the
        // fixture's batches: float32 rounding of sums of at most 24 terms of size at most ~1.
        for (ReferenceFixture.Case c : CASES) {
            QueryBatch batch = ReferenceFixture.batch(c);
            LightGbmLambdaRankLoss loss = LightGbmLambdaRankLoss.create().withTruncation((int) c.number("level"))
                    .withSigma(c.number("sigma")).withNormalization(c.number("norm") == 1)
                    .withBackend(PairwiseBackends.cpu());
            double[] scores = ReferenceFixture.flat(c, "scores");
            double[] f64 = LossTesting.evaluate(loss, batch, scores).grad();
            Var s = Var.param(Tensor.vector(scores).to(DType.F32));
            loss.loss(s, batch).backward();
            double[] f32 = s.grad().toDoubleArray();
            for (int i = 0; i < scores.length; i++) {
                assertEquals(f64[i], f32[i], 1e-5 * (1 + Math.abs(f64[i])), "document " + i + " of " + c.line());
            }
        }
    }
}
