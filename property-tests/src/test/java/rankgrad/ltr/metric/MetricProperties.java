package rankgrad.ltr.metric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.testkit.RankingCases;

/** Laws of the exact metrics, for every metric kind, cutoff and convention. */
class MetricProperties {
    /** Normalized metrics and the rounding of a ratio of sums of at most 10 terms (a few ulps). */
    private static final double ULPS = 1e-14;
    private static final List<MetricKind> BOUNDED =
            List.of(MetricKind.NDCG, MetricKind.PRECISION, MetricKind.AP, MetricKind.ERR, MetricKind.NERR, MetricKind.MRR);

    private static Metric metric(MetricKind kind, int k) {
        return k == 0 ? Metric.full(kind) : Metric.at(kind, k);
    }

    @Test
    void boundedMetricsLieInTheUnitInterval() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(0, 12)).checkAssert((c, k) -> {
            for (MetricKind kind : BOUNDED) {
                for (Ties ties : Ties.values()) {
                    double[] values = metric(kind, k).perQuery(c.scores(), c.batch(), MetricConventions.defaults().withTies(ties));
                    for (int q = 0; q < values.length; q++) {
                        double v = values[q];
                        assertTrue(c.batch().hasRelevant(q) ? v >= 0 && v <= 1 + ULPS : Double.isNaN(v),
                                kind + "@" + k + " " + ties + " query " + q + " = " + v + " on" + c);
                    }
                }
            }
        });
    }

    @Test
    void idealOrderScoresOne() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(0, 12)).checkAssert((c, k) -> {
            QueryBatch b = c.batch();
            // Scores equal to the labels rank every document by grade; ties are among equal grades,
            // which no metric can tell apart, so both tie conventions give the ideal value.
            float[] labels = b.labels();
            double[] ideal = new double[labels.length];
            for (int i = 0; i < labels.length; i++) {
                ideal[i] = labels[i];
            }
            for (MetricKind kind : List.of(MetricKind.NDCG, MetricKind.NERR, MetricKind.AP, MetricKind.MRR)) {
                for (Ties ties : Ties.values()) {
                    double[] values = metric(kind, k).perQuery(ideal, b, MetricConventions.defaults().withTies(ties));
                    for (int q = 0; q < values.length; q++) {
                        if (b.hasRelevant(q)) {
                            assertEquals(1.0, values[q], ULPS, kind + "@" + k + " " + ties + " query " + q + " on" + c);
                        }
                    }
                }
            }
        });
    }

    @Test
    void metricsIgnoreScoreScaleAndShift() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(-6, 6), integers().between(-8, 8))
                .checkAssert((c, log2Scale, shift) -> {
                    // A power-of-two scale and a shift by a multiple of 1/4 are exact on the 1/16 grid,
                    // so the order and the ties are exactly those of the original scores.
                    double scale = Math.scalb(1.0, log2Scale);
                    double[] moved = c.scores().clone();
                    for (int i = 0; i < moved.length; i++) {
                        moved[i] = moved[i] * scale + shift / 4.0;
                    }
                    for (MetricKind kind : MetricKind.values()) {
                        for (Ties ties : Ties.values()) {
                            MetricConventions conv = MetricConventions.defaults().withTies(ties);
                            Metric m = metric(kind, 3);
                            assertArrayEquals(m.perQuery(c.scores(), c.batch(), conv), m.perQuery(moved, c.batch(), conv),
                                    0.0, kind + " " + ties + " on" + c);
                        }
                    }
                });
    }

    @Test
    void pessimisticTiesNeverBeatStableTies() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(0, 12)).checkAssert((c, k) -> {
            for (MetricKind kind : MetricKind.values()) {
                Metric m = metric(kind, k);
                double[] stable = m.perQuery(c.scores(), c.batch(), MetricConventions.defaults());
                double[] pessimistic = m.perQuery(c.scores(), c.batch(), MetricConventions.defaults().withTies(Ties.PESSIMISTIC));
                for (int q = 0; q < stable.length; q++) {
                    if (c.batch().hasRelevant(q)) {
                        // Putting less relevant documents first among ties can only lower every metric.
                        assertTrue(pessimistic[q] <= stable[q] + ULPS, kind + "@" + k + " query " + q + " on" + c);
                    }
                }
            }
        });
    }

    @Test
    void float32AndFloat64ScoresRankAlike() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(4, 10), integers().between(0, 12)).checkAssert((c, k) -> {
            float[] narrow = new float[c.scores().length];
            for (int i = 0; i < narrow.length; i++) {
                narrow[i] = (float) c.scores()[i];
            }
            for (MetricKind kind : MetricKind.values()) {
                for (Ties ties : Ties.values()) {
                    MetricConventions conv = MetricConventions.defaults().withTies(ties);
                    assertArrayEquals(metric(kind, k).perQuery(c.scores(), c.batch(), conv),
                            metric(kind, k).perQuery(narrow, c.batch(), conv), 0.0, kind + " " + ties + " on" + c);
                }
            }
        });
    }

    @Test
    void meanFollowsTheNoRelevantPolicy() {
        qt().withExamples(100).forAll(RankingCases.tiedScores(5, 6)).checkAssert(c -> {
            Metric ndcg = Metric.parse("ndcg@3");
            double[] values = ndcg.perQuery(c.scores(), c.batch(), MetricConventions.defaults());
            double sum = 0;
            int relevant = 0;
            for (double v : values) {
                if (!Double.isNaN(v)) {
                    sum += v;
                    relevant++;
                }
            }
            int queries = values.length;
            MetricConventions zero = MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO);
            MetricConventions one = MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ONE);
            assertEquals(sum / queries, ndcg.evaluate(c.scores(), c.batch(), zero).mean(), ULPS);
            assertEquals((sum + queries - relevant) / queries, ndcg.evaluate(c.scores(), c.batch(), one).mean(), ULPS);
            MetricResult excluded = ndcg.evaluate(c.scores(), c.batch(), MetricConventions.defaults());
            assertEquals(relevant, excluded.counted());
            assertEquals(relevant == 0 ? Double.NaN : sum / relevant, excluded.mean(), ULPS);
        });
    }
}
