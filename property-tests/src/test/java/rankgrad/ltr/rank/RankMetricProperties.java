package rankgrad.ltr.rank;

import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.testkit.Directions;
import rankgrad.testkit.ExactMetric;
import rankgrad.testkit.GradientLaws;
import rankgrad.testkit.MetricLaws;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;

/** Laws of the metrics written as functions of rank variables (Yu Eq. 13-16), one query at a time. */
class RankMetricProperties {

    private static List<RankMetric> metrics(int k) {
        return List.of(RankMetric.precision(k), RankMetric.averagePrecision(), RankMetric.ndcg(), RankMetric.ndcg(k),
                RankMetric.reciprocalRank(), RankMetric.nerr(k), RankMetric.nerr(k, 5));
    }

    /** Exact ranks of every query (ties in input order), flat, and each query's order. */
    private record Ranked(double[] ranks, int[][] orders) {
        static Ranked of(RankingCase c) {
            QueryBatch b = c.batch();
            double[] ranks = new double[b.documents()];
            int[][] orders = new int[b.queries()][];
            for (int q = 0; q < b.queries(); q++) {
                orders[q] = Ranking.order(c.scores(), b.start(q), b.size(q), null);
                int[] r = Ranking.ranks(orders[q]);
                for (int i = 0; i < r.length; i++) {
                    ranks[b.start(q) + i] = r[i];
                }
            }
            return new Ranked(ranks, orders);
        }
    }

    /** The sum over the queries of the metric at rank variables {@code r} (positions fixed by the exact order). */
    private static double total(RankMetric metric, RankingCase c, int[][] orders, double[] r, double[] grad) {
        QueryBatch b = c.batch();
        double sum = 0;
        for (int q = 0; q < b.queries(); q++) {
            int from = b.start(q);
            int m = b.size(q);
            double[] rq = Arrays.copyOfRange(r, from, from + m);
            double[] gq = new double[m];
            sum += metric.evaluate(b.labels(), from, m, rq, orders[q], gq);
            System.arraycopy(gq, 0, grad, from, m);
        }
        return sum;
    }

    @Test
    void rankMetricAtExactRanksEqualsExactMetric() {
        qt().withExamples(100).forAll(RankingCases.anyScores(4, 30), integers().between(1, 12)).checkAssert((c, k) -> {
            Ranked ranked = Ranked.of(c);
            for (RankMetric metric : metrics(k)) {
                double[] values = new double[c.queries()];
                for (int q = 0; q < values.length; q++) {
                    int from = c.batch().start(q);
                    int m = c.batch().size(q);
                    values[q] = metric.evaluate(c.batch().labels(), from, m,
                            Arrays.copyOfRange(ranked.ranks(), from, from + m), ranked.orders()[q], new double[m]);
                }
                // The same sums of at most 30 terms of size <= 1 in another order: a few ulps.
                MetricLaws.assertEqualsExactMetric(values, ranked.ranks(), c, ExactMetric.of(metric), 1e-13);
            }
        });
    }

    /** A case and a direction over all its documents. */
    private record Directed(RankingCase c, double[] direction) {
        @Override
        public String toString() {
            return c + "\n  direction " + Arrays.toString(direction);
        }
    }

    @Test
    void rankMetricGradientMatchesCentralDifference() {
        qt().withExamples(100)
                .forAll(RankingCases.anyScores(4, 20).flatMap(c -> Directions.unit(c.documents()).map(d -> new Directed(c, d))),
                        integers().between(1, 12))
                .checkAssert((cd, k) -> {
                    RankingCase c = cd.c();
                    Ranked ranked = Ranked.of(c);
                    for (RankMetric metric : metrics(k)) {
                        double[] grad = new double[c.documents()];
                        total(metric, c, ranked.orders(), ranked.ranks(), grad);
                        // Terms 1/r and 1/log2(1 + r) at r >= 1 (minus 1e-6) have |third derivatives| <= ~10
                        // and coefficients <= 1: truncation h^2/6 * 10 per term, under 1e-9 for h = 1e-6
                        // over 20 terms, plus rounding 1e-16 / h = 1e-10; a wrong factor errs by a gradient
                        // entry, 1e-4 or more at ranks <= 20.
                        GradientLaws.assertGradientMatchesCentralDifference(
                                r -> total(metric, c, ranked.orders(), r, new double[r.length]), ranked.ranks(), grad, 1e-6,
                                1e-8);
                        GradientLaws.assertDirectionalDerivativeMatches(
                                r -> total(metric, c, ranked.orders(), r, new double[r.length]), ranked.ranks(), grad,
                                cd.direction(), 1e-6, 1e-8);
                    }
                });
    }
}
