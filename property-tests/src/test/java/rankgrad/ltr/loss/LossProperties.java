package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Arrays;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;

/**
 * Laws of particular ranking losses of {@code rankgrad.ltr.loss} over their parameters, checked on
 * generated ragged batches; the laws every loss obeys are in {@link EveryLossProperties}.
 */
class LossProperties {
    /**
     * Finite-difference step: far below the 1/16 score spacing, so no rank or hinge side changes
     * along a coordinate or a unit direction.
     */
    private static final double H = 1e-5;
    /**
     * Central differences with step 1e-5 err by h^2/6 |L'''| (below 1e-9 here: a = b = sigma <= 2,
     * at most 21 pairs per query) plus rounding eps |L| / h (about 3e-10 for |L| <= 30); 1e-6
     * absolute plus 1e-6 relative leaves a wide margin and still catches any wrong sign or factor,
     * which errs by the size of the gradient itself.
     */
    private static final double FD_TOLERANCE = 1e-6;
    /**
     * Laws that hold exactly in real arithmetic and differ only by the rounding of a different
     * summation order or of s + c (values of order 1 to 30, at most 28 terms per query).
     */
    private static final double ROUNDING = 1e-12;

    @Test
    void rankNetGradientMatchesCentralDifference() {
        gradientMatchesCentralDifference(() -> RankNetLoss.create().withSigma(1.5));
    }

    @Test
    void sdcgGradientMatchesCentralDifference() {
        qt().withExamples(40).forAll(integers().between(1, 6), integers().between(1, 4))
                .checkAssert((k, a) -> gradientMatchesCentralDifference(
                        () -> SmoothedDcgLoss.sdcg(k).withAlpha(a / 2.0).withBeta(2.0 / a), 10));
    }

    @Test
    void shfSdcgGradientMatchesCentralDifference() {
        qt().withExamples(40).forAll(integers().between(1, 6), integers().between(1, 4))
                .checkAssert((k, a) -> gradientMatchesCentralDifference(
                        () -> SmoothedDcgLoss.shfSdcg(k).withAlpha(a / 2.0).withBeta(2.0 / a), 10));
    }

    @Test
    void shfSdcgGradientIsContinuousAcrossTheHingeKink() {
        // Tied scores put every tied pair at the kink x = 0 (signed zeros included). A C1 hinge
        // (docs/design.md §3.4: slope -a/4 on both sides) has a central difference across the kink within
        // h/2 max|L''| (about 1e-5 for h = 1e-6) of the one-sided gradient; the sign the paper's
        // extracted text shows (0.5 + (a/4) x) would make the slopes +-a/4 and miss by about a/4.
        qt().withExamples(40).forAll(RankingCases.tiedScores(3, 7), integers().between(1, 4)).checkAssert((c, k) -> {
            matchesCentralDifference(() -> SmoothedDcgLoss.shfSdcg(k), c, 1e-6, 1e-4);
        });
    }

    @Test
    void regShfSdcgGradientMatchesCentralDifference() {
        qt().withExamples(20).forAll(integers().between(1, 20))
                .checkAssert(t -> gradientMatchesCentralDifference(
                        () -> RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(2), 20).atStep(t), 10));
    }

    @Test
    void lambdaRankGradientIsTheDerivativeOfItsWeightedCostAtFixedPositions() {
        // Away from ties the positions are locally constant, so -lambda is the exact gradient of the
        // |dNDCG|-weighted RankNet cost the loss reports.
        gradientMatchesCentralDifference(() -> LambdaRankLoss.create(2L).withTruncation(3).withSigma(0.5));
    }

    @Test
    void lambdasEqualNaiveReference() {
        qt().withExamples(100)
                .forAll(RankingCases.distinctScores(4, 8), integers().between(0, 6), integers().between(1, 3))
                .checkAssert((c, k, sigmaTimesTwo) -> {
                    double sigma = sigmaTimesTwo / 2.0;
                    LambdaRankLoss loss = k == 0 ? LambdaRankLoss.create(1L).withSigma(sigma)
                            : LambdaRankLoss.create(1L).withTruncation(k).withSigma(sigma);
                    double[] grad = gradient(loss, c.batch(), c.scores());
                    double[] expected = naiveLambdas(c, k, sigma);
                    int queries = c.batch().queries();
                    for (int i = 0; i < grad.length; i++) {
                        // dC/ds_i = -lambda_i / Q; tolerance: rounding of <= 28 terms of size <= sigma.
                        assertEquals(expected[i], -queries * grad[i], ROUNDING, "document " + i + " of" + c);
                    }
                });
    }

    @Test
    void lambdasSumToZeroPerQuery() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(0, 5)).checkAssert((c, k) -> {
            LambdaRankLoss loss = k == 0 ? LambdaRankLoss.create(4L) : LambdaRankLoss.create(4L).withTruncation(k);
            double[] grad = gradient(loss, c.batch(), c.scores());
            QueryBatch b = c.batch();
            for (int q = 0; q < b.queries(); q++) {
                double sum = 0;
                double size = 0;
                for (int i = b.start(q); i < b.start(q) + b.size(q); i++) {
                    sum += grad[i];
                    size += Math.abs(grad[i]);
                }
                // Each pair adds +x and -x: the sum is rounding only, relative to the gradients' size.
                assertEquals(0.0, sum, ROUNDING * (1 + size), "query " + q + " of" + c);
            }
        });
    }

    @Test
    void lightGbmLambdasWithoutTruncationOrNormalizationAreLambdaRanks() {
        // With T >= m every pair counts, maxDCG@T = IDCG, and without lambdarank_norm LightGBM's pair
        // lambda is Burges's: on distinct scores (no tie order to differ) the two gradients agree.
        qt().withExamples(100).forAll(RankingCases.distinctScores(4, 8), integers().between(1, 3))
                .checkAssert((c, sigmaTimesTwo) -> {
                    double sigma = sigmaTimesTwo / 2.0;
                    double[] lgbm = gradient(LightGbmLambdaRankLoss.create().withTruncation(8).withSigma(sigma)
                            .withNormalization(false), c.batch(), c.scores());
                    double[] burges = gradient(LambdaRankLoss.create(3L).withSigma(sigma), c.batch(), c.scores());
                    for (int i = 0; i < lgbm.length; i++) {
                        // Rounding of <= 28 terms of size <= sigma, summed in a different order.
                        assertEquals(burges[i], lgbm[i], ROUNDING, "document " + i + " of" + c);
                    }
                });
    }

    @Test
    void lightGbmLambdasSumToZeroPerQuery() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(1, 5)).checkAssert((c, t) -> {
            double[] grad = gradient(LightGbmLambdaRankLoss.create().withTruncation(t), c.batch(), c.scores());
            QueryBatch b = c.batch();
            for (int q = 0; q < b.queries(); q++) {
                double sum = 0;
                double size = 0;
                for (int i = b.start(q); i < b.start(q) + b.size(q); i++) {
                    sum += grad[i];
                    size += Math.abs(grad[i]);
                }
                // The normalization scales a query's lambdas by one factor: still equal and opposite.
                assertEquals(0.0, sum, ROUNDING * (1 + size), "query " + q + " of" + c);
            }
        });
    }

    private static void gradientMatchesCentralDifference(Supplier<RankingLoss> make) {
        gradientMatchesCentralDifference(make, 60);
    }

    private static void gradientMatchesCentralDifference(Supplier<RankingLoss> make, int examples) {
        qt().withExamples(examples).forAll(RankingCases.distinctScores(3, 7))
                .checkAssert(c -> matchesCentralDifference(make, c, H, FD_TOLERANCE));
    }

    /**
     * {@link GradientCheck} (random directions and every coordinate, float64) of the loss at the
     * case's scores; each evaluation makes the loss afresh, so seeded draws replay and the checked
     * function is deterministic.
     */
    private static void matchesCentralDifference(Supplier<RankingLoss> make, RankingCase c, double step, double tolerance) {
        GradientCheck.withDefaults().withStep(step)
                .check(x -> make.get().loss(x[0], c.batch()), Tensor.vector(c.scores()))
                .assertWithin(tolerance);
    }

    /**
     * LambdaRank's lambdas by the definition, written independently of the implementation: for each
     * pair y_i > y_j, swap the two documents in the ranking, recompute NDCG@k from scratch, and
     * weight |change| by sigma / (1 + e^{sigma (s_i - s_j)}). Scores are distinct, so the ranking is
     * the plain sort.
     */
    private static double[] naiveLambdas(RankingCase c, int k, double sigma) {
        QueryBatch b = c.batch();
        double[] lambda = new double[b.documents()];
        for (int q = 0; q < b.queries(); q++) {
            if (!b.hasRelevant(q)) {
                continue;
            }
            int from = b.start(q);
            int m = b.size(q);
            int cut = k == 0 ? m : k;
            Integer[] ranking = new Integer[m];
            for (int i = 0; i < m; i++) {
                ranking[i] = from + i;
            }
            Arrays.sort(ranking, (x, y) -> Double.compare(c.scores()[y], c.scores()[x]));
            float[] sortedLabels = b.labelsOf(q);
            Arrays.sort(sortedLabels);
            double ideal = 0;
            for (int r = 1; r <= Math.min(cut, m); r++) {
                ideal += (Math.pow(2, sortedLabels[m - r]) - 1) / (Math.log(1 + r) / Math.log(2));
            }
            double ndcg = dcg(ranking, b.labels(), cut) / ideal;
            for (int pi = 0; pi < m; pi++) {
                for (int pj = 0; pj < m; pj++) {
                    int i = ranking[pi];
                    int j = ranking[pj];
                    if (!(b.labels()[i] > b.labels()[j])) {
                        continue;
                    }
                    Integer[] swapped = ranking.clone();
                    swapped[pi] = j;
                    swapped[pj] = i;
                    double change = Math.abs(dcg(swapped, b.labels(), cut) / ideal - ndcg);
                    double lij = sigma / (1 + Math.exp(sigma * (c.scores()[i] - c.scores()[j]))) * change;
                    lambda[i] += lij;
                    lambda[j] -= lij;
                }
            }
        }
        return lambda;
    }

    private static double dcg(Integer[] ranking, float[] labels, int cut) {
        double sum = 0;
        for (int r = 1; r <= Math.min(cut, ranking.length); r++) {
            sum += (Math.pow(2, labels[ranking[r - 1]]) - 1) / (Math.log(1 + r) / Math.log(2));
        }
        return sum;
    }

    private record Evaluated(double value, double[] grad) {
    }

    private static Evaluated evaluate(RankingLoss loss, QueryBatch batch, double[] scores) {
        Var s = Var.param(Tensor.vector(scores));
        Var l = loss.loss(s, batch);
        l.backward();
        return new Evaluated(l.value().item(), s.grad().toDoubleArray());
    }

    private static double[] gradient(RankingLoss loss, QueryBatch batch, double[] scores) {
        return evaluate(loss, batch, scores).grad();
    }
}
