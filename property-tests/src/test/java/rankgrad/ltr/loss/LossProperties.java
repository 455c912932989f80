package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;

/** Laws of the ranking losses of {@code rankgrad.ltr.loss}, checked on generated ragged batches. */
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

    /** A loss made afresh for each evaluation, so seeded tie-breaks replay from call 0. */
    private record Named(String name, Supplier<RankingLoss> make) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final List<Named> ALL = List.of(
            new Named("ranknet", () -> RankNetLoss.create().withSigma(1.5)),
            new Named("lambdarank", () -> LambdaRankLoss.create(11L)),
            new Named("lambdarank@3", () -> LambdaRankLoss.create(11L).withTruncation(3).withSigma(2)),
            new Named("listnet", ListNetLoss::create),
            new Named("listmle", () -> ListMleLoss.create(5L)),
            new Named("sdcg@3", () -> SmoothedDcgLoss.sdcg(3).withAlpha(2).withBeta(0.5)),
            new Named("shf-sdcg@3", () -> SmoothedDcgLoss.shfSdcg(3).withAlpha(2).withBeta(0.5)),
            new Named("shf-sdcg-annealed@2", () -> SmoothedDcgLoss.shfSdcg(2).annealed(3L)),
            new Named("reg-shf-sdcg@3", () -> RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(3), 20).atStep(8)));

    @Test
    void rankNetGradientMatchesCentralDifference() {
        gradientMatchesCentralDifference(() -> RankNetLoss.create().withSigma(1.5));
    }

    @Test
    void listNetGradientMatchesCentralDifference() {
        gradientMatchesCentralDifference(ListNetLoss::create);
    }

    @Test
    void listMleGradientMatchesCentralDifference() {
        gradientMatchesCentralDifference(() -> ListMleLoss.create(5L));
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
        // (DESIGN 3.4: slope -a/4 on both sides) has a central difference across the kink within
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
    void shiftingScoresChangesNothing() {
        List<Named> shiftInvariant = ALL.stream().filter(n -> !n.name().startsWith("reg-")).toList();
        qt().withExamples(60).forAll(RankingCases.tiedScores(4, 8), integers().between(-40, 40)).checkAssert((c, shift) -> {
            double[] shifted = c.scores().clone();
            QueryBatch b = c.batch();
            for (int q = 0; q < b.queries(); q++) {
                // A different multiple of 1/4 per query: exact on the 1/16 grid, so ties are kept.
                double constant = shift * (q + 1) / 4.0;
                for (int i = b.start(q); i < b.start(q) + b.size(q); i++) {
                    shifted[i] += constant;
                }
            }
            for (Named loss : shiftInvariant) {
                Evaluated before = evaluate(loss.make().get(), b, c.scores());
                Evaluated after = evaluate(loss.make().get(), b, shifted);
                assertEquals(before.value(), after.value(), ROUNDING * (1 + Math.abs(before.value())), loss + " on" + c);
                assertArrayEquals(before.grad(), after.grad(), ROUNDING, loss + " on" + c);
            }
            for (String metric : new String[] {"ndcg@3", "map", "err@5", "mrr"}) {
                assertArrayEquals(Metric.parse(metric).perQuery(c.scores(), b, MetricConventions.defaults()),
                        Metric.parse(metric).perQuery(shifted, b, MetricConventions.defaults()), 0.0, metric);
            }
        });
    }

    @Test
    void permutingDocumentsPermutesGradients() {
        // Losses that draw no random tie-break on these inputs: ListMLE shuffles tied labels and the
        // annealed SDCG picks among tied labels, so a permutation changes their draws.
        List<Named> deterministic = ALL.stream()
                .filter(n -> !n.name().equals("listmle") && !n.name().contains("annealed")).toList();
        qt().withExamples(60).forAll(RankingCases.distinctScores(4, 8), integers().all()).checkAssert((c, seed) -> {
            QueryBatch b = c.batch();
            int[] perm = permutationWithinQueries(b, seed);
            float[] labels = new float[b.documents()];
            double[] scores = new double[b.documents()];
            for (int i = 0; i < perm.length; i++) {
                labels[i] = b.labels()[perm[i]];
                scores[i] = c.scores()[perm[i]];
            }
            QueryBatch permuted = new QueryBatch(b.offsets(), labels);
            for (Named loss : deterministic) {
                Evaluated original = evaluate(loss.make().get(), b, c.scores());
                Evaluated moved = evaluate(loss.make().get(), permuted, scores);
                assertEquals(original.value(), moved.value(), ROUNDING * (1 + Math.abs(original.value())), loss + " on" + c);
                for (int i = 0; i < perm.length; i++) {
                    assertEquals(original.grad()[perm[i]], moved.grad()[i], ROUNDING, loss + " document " + i + " on" + c);
                }
            }
        });
    }

    @Test
    void oneThreadEqualsTwoThreads() {
        int before = Parallel.threads();
        try {
            qt().withExamples(40).forAll(RankingCases.tiedScores(6, 10)).checkAssert(c -> {
                for (Named loss : ALL) {
                    Parallel.setThreads(1);
                    Evaluated one = evaluate(loss.make().get(), c.batch(), c.scores());
                    Parallel.setThreads(2);
                    Evaluated two = evaluate(loss.make().get(), c.batch(), c.scores());
                    // Bit-identical: the partition depends on the batch only.
                    assertEquals(Double.doubleToRawLongBits(one.value()), Double.doubleToRawLongBits(two.value()),
                            loss + " on" + c);
                    assertArrayEquals(one.grad(), two.grad(), loss + " on" + c);
                }
            });
        } finally {
            Parallel.setThreads(before);
        }
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

    private static int[] permutationWithinQueries(QueryBatch b, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] perm = new int[b.documents()];
        for (int q = 0; q < b.queries(); q++) {
            int from = b.start(q);
            int m = b.size(q);
            for (int i = 0; i < m; i++) {
                perm[from + i] = from + i;
            }
            for (int i = m - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = perm[from + i];
                perm[from + i] = perm[from + j];
                perm[from + j] = t;
            }
        }
        return perm;
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
