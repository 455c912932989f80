package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.loss.ApproxNdcgLoss;
import rankgrad.ltr.loss.TwinSigmoidLoss;
import rankgrad.ltr.metric.ExactMetrics;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.testkit.NaiveReference;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;

class TwinSigmoidLossProperties {

    private static List<RankMetric> metrics(int k) {
        return List.of(RankMetric.precision(k), RankMetric.averagePrecision(), RankMetric.ndcg(), RankMetric.nerr(k));
    }

    /** The loss value and the gradient with respect to the scores. */
    record ValueAndGradient(double value, double[] gradient) {
    }

    static ValueAndGradient evaluate(RankingLoss loss, Tensor scores, QueryBatch batch) {
        Var x = Var.param(scores);
        Var l = loss.loss(x, batch);
        l.backward();
        return new ValueAndGradient(l.value().item(), x.grad().toDoubleArray());
    }

    /** The exact ranks of the first call of seed's tie-breaker, per query. */
    private static int[][] exactRanks(RankingCase c) {
        Tensor ranks = TwinSigmoidRanks.of(c.batch(), BackwardType.TYPE1, 1.0, TieBreak.seeded(c.seed()))
                .forward(c.tensor(DType.F64)).output();
        int[][] out = new int[c.queries()][];
        for (int q = 0; q < c.queries(); q++) {
            out[q] = new int[c.scoresOf(q).length];
            for (int i = 0; i < out[q].length; i++) {
                out[q][i] = (int) ranks.get(c.batch().start(q) + i);
            }
        }
        return out;
    }

    private static double exactMetric(RankMetric metric, float[] y, int[] order) {
        int m = y.length;
        float[] ranked = new float[m];
        for (int p = 0; p < m; p++) {
            ranked[p] = y[order[p]];
        }
        if (ExactMetrics.relevantInTop(ranked, m) == 0) {
            return 0;
        }
        return switch (metric) {
            case RankMetric.Precision pre -> ExactMetrics.precision(ranked, pre.k());
            case RankMetric.AveragePrecision ap -> ExactMetrics.averagePrecision(ranked, m);
            case RankMetric.Ndcg ndcg -> ExactMetrics.dcg(ranked, m) / ExactMetrics.idealDcg(y, 0, m, m);
            case RankMetric.NdcgAt ndcg -> ExactMetrics.dcg(ranked, ndcg.k()) / ExactMetrics.idealDcg(y, 0, m, ndcg.k());
            case RankMetric.ReciprocalRank rr -> ExactMetrics.reciprocalRank(ranked, m);
            case RankMetric.Nerr nerr -> ExactMetrics.err(ranked, nerr.k(), nerr.ymax())
                    / ExactMetrics.idealErr(y, 0, m, nerr.k(), nerr.ymax());
        };
    }

    @Test
    void twinSigmoidMetricEqualsExactMetric() {
        qt().withExamples(100).forAll(RankingCases.anyScores(4, 30), integers().between(1, 12)).checkAssert((c, k) -> {
            int[][] ranks = exactRanks(c);
            for (RankMetric metric : metrics(k)) {
                double expected = 0;
                for (int q = 0; q < c.queries(); q++) {
                    expected -= exactMetric(metric, c.labelsOf(q), NaiveReference.orderOf(ranks[q])) / c.queries();
                }
                for (boolean f32 : new boolean[] {true, false}) {
                    RankingLoss loss = TwinSigmoidLoss.of(metric, BackwardType.TYPE3, c.seed());
                    double value = loss.loss(Var.param(c.tensor(f32 ? DType.F32 : DType.F64)), c.batch()).value().item();
                    // float64: the same sums in another order (a few ulps of values <= 1); float32:
                    // the loss is rounded to float once (relative 2^-24 of a value <= 1).
                    assertEquals(expected, value, f32 ? 1e-6 : 1e-12, metric.name() + (f32 ? " float32" : " float64"));
                }
            }
        });
    }

    @Test
    void typeOneBackwardMatchesStraightThroughSurrogate() {
        qt().withExamples(60).forAll(RankingCases.moderateScores(3, 12, 3.0), integers().between(1, 12),
                integers().between(0, 2)).checkAssert((c, k, alphaIndex) -> {
            double alphaB = new double[] {0.5, 1.0, 2.0}[alphaIndex];
            int[][] ranks = exactRanks(c);
            for (RankMetric metric : metrics(k)) {
                RankingLoss loss = TwinSigmoidLoss.of(metric, BackwardType.TYPE1, c.seed()).withAlphaB(alphaB);
                double[] grad = evaluate(loss, c.tensor(DType.F64), c.batch()).gradient();
                double[] s = c.scores();
                double h = 1e-5;
                for (int i = 0; i < s.length; i++) {
                    double[] plus = s.clone();
                    double[] minus = s.clone();
                    plus[i] += h;
                    minus[i] -= h;
                    double fd = (surrogate(metric, c, ranks, alphaB, plus) - surrogate(metric, c, ranks, alphaB, minus))
                            / (2 * h);
                    // Central differences: truncation h^2/6 |F'''| with |F'''| <= ~alpha_b^3 m (< 1e-7
                    // here) plus rounding ~1e-16 / h = 1e-11.
                    assertEquals(fd, grad[i], 1e-7, metric.name() + " alpha_b=" + alphaB + " d/ds_" + i);
                }
            }
        });
    }

    /**
     * docs/design.md §3.2: L(s') = -(1/Q) sum_q M_q(r), r = r_exact(s) + pi_b(s') - pi_b(s), with the
     * positions of the metric fixed at the point s.
     */
    private static double surrogate(RankMetric metric, RankingCase c, int[][] exact, double alphaB, double[] flat) {
        double loss = 0;
        int from = 0;
        for (int q = 0; q < c.queries(); q++) {
            double[] s0 = c.scoresOf(q);
            int m = s0.length;
            double[] s1 = java.util.Arrays.copyOfRange(flat, from, from + m);
            double[] at = NaiveReference.approxRanks(s0, alphaB);
            double[] moved = NaiveReference.approxRanks(s1, alphaB);
            double[] r = new double[m];
            for (int i = 0; i < m; i++) {
                r[i] = exact[q][i] + moved[i] - at[i];
            }
            loss -= NaiveReference.metric(metric, c.labelsOf(q), r, NaiveReference.orderOf(exact[q])) / c.queries();
            from += m;
        }
        return loss;
    }

    @Test
    void typesTwoAndThreeEqualNaivePairReference() {
        qt().withExamples(60).forAll(RankingCases.moderateScores(3, 20, 6.0), integers().between(1, 12),
                integers().between(0, 2)).checkAssert((c, k, alphaIndex) -> {
            double alphaB = new double[] {0.5, 1.0, 2.0}[alphaIndex];
            int[][] ranks = exactRanks(c);
            for (RankMetric metric : metrics(k)) {
                for (BackwardType type : new BackwardType[] {BackwardType.TYPE2, BackwardType.TYPE3}) {
                    for (boolean f32 : new boolean[] {false, true}) {
                        RankingLoss loss = TwinSigmoidLoss.of(metric, type, c.seed()).withAlphaB(alphaB);
                        double[] grad = evaluate(loss, c.tensor(f32 ? DType.F32 : DType.F64), c.batch()).gradient();
                        int from = 0;
                        for (int q = 0; q < c.queries(); q++) {
                            double[] s = c.scoresOf(q);
                            double[] r = new double[s.length];
                            for (int i = 0; i < s.length; i++) {
                                r[i] = ranks[q][i];
                            }
                            double[] g = NaiveReference.metricGradient(metric, c.labelsOf(q), r,
                                    NaiveReference.orderOf(ranks[q]));
                            for (int i = 0; i < g.length; i++) {
                                g[i] = -g[i] / c.queries();
                            }
                            double[] expected = NaiveReference.pairBackward(type, alphaB, s, c.labelsOf(q), g);
                            double[] size = NaiveReference.pairBackwardMagnitude(type, alphaB, s, c.labelsOf(q), g);
                            for (int i = 0; i < s.length; i++) {
                                // The same pair terms, rounded differently: float64 sums agree to
                                // ~m eps sum|term|; float32 also rounds g, exp and the factors to
                                // 24 bits, a few ulps of sum|term| (64 ulps allowed).
                                double tolerance = f32 ? 64 * 0x1.0p-24 * size[i] + 1e-30 : 1e-12;
                                assertEquals(expected[i], grad[from + i], tolerance, metric.name() + " type "
                                        + type.number() + (f32 ? " float32" : " float64") + " query " + q + " doc " + i);
                            }
                            from += s.length;
                        }
                    }
                }
            }
        });
    }

    @Test
    void shiftingScoresChangesNothing() {
        qt().withExamples(60).forAll(RankingCases.gridScores(3, 20), integers().between(-16, 16))
                .checkAssert((c, shift) -> {
                    double[][] shifted = new double[c.queries()][];
                    for (int q = 0; q < c.queries(); q++) {
                        shifted[q] = c.scoresOf(q).clone();
                        for (int i = 0; i < shifted[q].length; i++) {
                            // A different dyadic shift per query: every sum and difference stays exact.
                            shifted[q][i] += (shift + q) / 4.0;
                        }
                    }
                    RankingCase moved = RankingCase.of(labels(c), shifted, c.seed());
                    for (boolean f32 : new boolean[] {true, false}) {
                        for (RankingLoss loss : List.of(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 5),
                                TwinSigmoidLoss.of(RankMetric.averagePrecision(), BackwardType.TYPE1, 5),
                                TwinSigmoidLoss.of(RankMetric.nerr(3), BackwardType.TYPE2, 5), ApproxNdcgLoss.of(10))) {
                            ValueAndGradient before = evaluate(loss, c.tensor(f32 ? DType.F32 : DType.F64), c.batch());
                            ValueAndGradient after = evaluate(rebuild(loss), moved.tensor(f32 ? DType.F32 : DType.F64), moved.batch());
                            // Pair terms see only exact differences, so everything is bit-identical.
                            assertEquals(before.value(), after.value(), 0.0, loss.name());
                            assertArrayEquals(before.gradient(), after.gradient(), 0.0, loss.name());
                        }
                        Tensor r0 = TwinSigmoidRanks.of(c.batch(), BackwardType.TYPE1, 1, TieBreak.seeded(c.seed()))
                                .forward(c.tensor(f32 ? DType.F32 : DType.F64)).output();
                        Tensor r1 = TwinSigmoidRanks.of(c.batch(), BackwardType.TYPE1, 1, TieBreak.seeded(c.seed()))
                                .forward(moved.tensor(f32 ? DType.F32 : DType.F64)).output();
                        assertArrayEquals(r0.toDoubleArray(), r1.toDoubleArray(), 0.0, "ranks");
                    }
                });
    }

    /** The labels of every query of a case. */
    private static float[][] labels(RankingCase c) {
        float[][] labels = new float[c.queries()][];
        for (int q = 0; q < labels.length; q++) {
            labels[q] = c.labelsOf(q);
        }
        return labels;
    }

    /** A fresh copy of a loss, so that its tie-breaker starts again at call 0. */
    private static RankingLoss rebuild(RankingLoss loss) {
        return loss instanceof TwinSigmoidLoss t ? t.withAlphaB(t.alphaB()) : loss;
    }

    @Test
    void permutingDocumentsPermutesGradients() {
        qt().withExamples(60).forAll(RankingCases.distinctScores(3, 20), integers().between(0, Integer.MAX_VALUE))
                .checkAssert((c, shuffleSeed) -> {
                    java.util.SplittableRandom rng = new java.util.SplittableRandom(shuffleSeed);
                    int[][] perm = new int[c.queries()][];
                    float[][] labels = new float[c.queries()][];
                    double[][] scores = new double[c.queries()][];
                    for (int q = 0; q < c.queries(); q++) {
                        int m = c.scoresOf(q).length;
                        perm[q] = rankgrad.ltr.Ranking.randomTieKeys(m, rng);
                        labels[q] = new float[m];
                        scores[q] = new double[m];
                        for (int i = 0; i < m; i++) {
                            labels[q][i] = c.labelsOf(q)[perm[q][i]];
                            scores[q][i] = c.scoresOf(q)[perm[q][i]];
                        }
                    }
                    RankingCase permuted = RankingCase.of(labels, scores, c.seed());
                    for (RankingLoss loss : List.of(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 1),
                            TwinSigmoidLoss.of(RankMetric.precision(5), BackwardType.TYPE1, 1),
                            TwinSigmoidLoss.of(RankMetric.nerr(10), BackwardType.TYPE2, 1), ApproxNdcgLoss.of(10))) {
                        ValueAndGradient a = evaluate(loss, c.tensor(DType.F64), c.batch());
                        ValueAndGradient b = evaluate(rebuild(loss), permuted.tensor(DType.F64), permuted.batch());
                        // The same terms summed in another order: a few ulps of values of order 1.
                        assertEquals(a.value(), b.value(), 1e-13, loss.name());
                        int from = 0;
                        for (int q = 0; q < c.queries(); q++) {
                            for (int i = 0; i < perm[q].length; i++) {
                                assertEquals(a.gradient()[from + perm[q][i]], b.gradient()[from + i], 1e-13,
                                        loss.name() + " query " + q + " document " + i);
                            }
                            from += perm[q].length;
                        }
                    }
                });
    }

    @Test
    void oneThreadEqualsTwoThreads() {
        qt().withExamples(20).forAll(RankingCases.moderateScores(6, 300, 4.0)).checkAssert(c -> {
            int before = Parallel.threads();
            try {
                for (boolean f32 : new boolean[] {true, false}) {
                    for (RankingLoss loss : List.of(TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 9),
                            TwinSigmoidLoss.of(RankMetric.averagePrecision(), BackwardType.TYPE1, 9),
                            ApproxNdcgLoss.of(10))) {
                        Parallel.setThreads(1);
                        ValueAndGradient one = evaluate(rebuild(loss), c.tensor(f32 ? DType.F32 : DType.F64), c.batch());
                        Parallel.setThreads(2);
                        ValueAndGradient two = evaluate(rebuild(loss), c.tensor(f32 ? DType.F32 : DType.F64), c.batch());
                        // The partition depends only on the batch: bit-identical results.
                        assertEquals(one.value(), two.value(), 0.0, loss.name());
                        assertArrayEquals(one.gradient(), two.gradient(), 0.0, loss.name());
                    }
                }
            } finally {
                Parallel.setThreads(before);
            }
        });
    }
}
