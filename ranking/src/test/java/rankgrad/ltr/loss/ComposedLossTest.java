package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.rank.RankMetric;

/** METRIC~OPERATOR: the composition against the named losses it generalizes, the exact metrics, and its names. */
class ComposedLossTest {
    /** Three queries, ties (0.5, 0.5) and a query without relevant documents among them. */
    private static final QueryBatch BATCH = QueryBatch.of(new float[] {2, 0, 1, 3, 0}, new float[] {0, 0},
            new float[] {1, 0, 4, 2});
    private static final double[] SCORES = {0.5, -0.25, 0.5, 1.75, 0.125, 0.3, -0.3, 0.0, 2.5, -1.0, 0.75};

    private record Run(double value, double[] grad) {
    }

    private static Run run(RankingLoss loss, DType dtype, double[] scores) {
        Var s = Var.param(Tensor.vector(scores).to(dtype));
        Var l = loss.loss(s, BATCH);
        l.backward();
        return new Run(l.value().item(), s.grad().toDoubleArray());
    }

    @Test
    void throughTheTwinSigmoidAndSigmoidOperatorsTheNamedLossesComeBackBitForBit() {
        List<String[]> pairs = List.of(new String[] {"ndcg~twin3", "ndcg-type3"}, new String[] {"ap~twin1", "ap-type1"},
                new String[] {"pre@3~twin2", "precision@3-type2"}, new String[] {"nerr@2~twin3", "nerr@2-type3"},
                new String[] {"ndcg~sigmoid", "approx-ndcg"}, new String[] {"ndcg~sigmoid:2.5", "approx-ndcg:2.5"});
        for (String[] pair : pairs) {
            for (DType dtype : DType.values()) {
                for (long step : new long[] {1, 7}) {
                    // Same seed and step: the same tie keys, the same pairwise calls, the same per-query sums.
                    Run composed = run(Losses.parse(pair[0], 3).atStep(step), dtype, SCORES);
                    Run named = run(Losses.parse(pair[1], 3).atStep(step), dtype, SCORES);
                    assertEquals(Double.doubleToRawLongBits(named.value()), Double.doubleToRawLongBits(composed.value()),
                            pair[0] + " vs " + pair[1] + " " + dtype);
                    assertArrayEquals(named.grad(), composed.grad(), 0.0, pair[0] + " vs " + pair[1] + " " + dtype);
                }
            }
        }
    }

    @Test
    void softRanksBelowTheSmallestScoreGapGiveTheExactMetric() {
        // Distinct scores at least 0.125 apart: at eps = 1e-3 no isotonic block pools, the soft
        // ranks are exactly rho by position, so every metric equals the exact one (ties in input
        // order do not arise). nDCG and nERR sums of at most 5 terms: a few ulps.
        double[] distinct = {0.5, -0.25, 0.625, 1.75, 0.125, 0.3, -0.3, 0.0, 2.5, -1.0, 0.75};
        for (String metric : List.of("ndcg", "ndcg@2", "ap", "p@2", "nerr@3", "mrr")) {
            for (String op : List.of("softrank-q:0.001", "softrank-e:0.001")) {
                double value = run(Losses.parse(metric + "~" + op, 1), DType.F64, distinct).value();
                Metric exact = Metric.parse(metric.equals("ap") ? "map" : metric.equals("p@2") ? "p@2"
                        : metric.equals("nerr@3") ? "nerr@3" : metric);
                double[] perQuery = exact.perQuery(distinct, BATCH,
                        MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO));
                double mean = (perQuery[0] + perQuery[1] + perQuery[2]) / 3;
                assertEquals(-mean, value, 1e-12, metric + "~" + op);
            }
        }
    }

    @Test
    void softRankNdcgIsSmoothAndBelowTheExactOneWhenRanksPool() {
        // At a large strength every rank of a query pools to (m + 1) / 2: the loss is minus the nDCG
        // of that constant rank, and the gradient is not zero (soft ranks move with the scores).
        Run run = run(Losses.parse("ndcg~softrank-q:1000", 1), DType.F64, SCORES);
        double[] perQuery = Metric.parse("ndcg").perQuery(SCORES, BATCH,
                MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO));
        assertTrue(-run.value() < (perQuery[0] + perQuery[2]) / 3, "pooled ranks lose nDCG: " + run.value());
        assertTrue(java.util.Arrays.stream(run.grad()).anyMatch(g -> g != 0), "no gradient");
    }

    @Test
    void namesRoundTripAndCarryTheirParameters() {
        ComposedLoss loss = assertInstanceOf(ComposedLoss.class, Losses.parse("NDCG@10~SoftRank-Q:0.1", 1));
        assertEquals(RankMetric.ndcg(10), loss.metric());
        assertEquals("ndcg@10~softrank-q:0.1", loss.name());
        assertEquals("precision@5~twin2", Losses.parse("p@5~twin2", 1).name());
        assertEquals("precision@5~twin2:3", Losses.parse("pre@5~twin2:3.0", 1).name());
        assertEquals("mrr~softrank-e:1", Losses.parse("mrr~softrank-e", 1).name());
        assertEquals("ap~sigmoid:10", Losses.parse("ap~sigmoid", 1).name());
        for (LossFamily family : Losses.families()) {
            String name = Losses.parse(family.example(), 1).name();
            assertEquals(name, Losses.parse(name, 1).name(), family.syntax());
        }
    }

    @Test
    void badComposedNamesSayWhatIsWrong() {
        String metric = assertThrows(IllegalArgumentException.class, () -> Losses.parse("dcg~twin1", 1)).getMessage();
        assertTrue(metric.contains("unknown metric 'dcg'") && metric.contains("ndcg@k") && metric.contains("softrank-q"),
                metric);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg~softrank-q:-1", 1)).getMessage()
                .contains("epsilon must be finite and > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg~softrank-e:soft", 1))
                .getMessage().contains("'soft' is not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg~quicksort", 1)).getMessage()
                .startsWith("unknown loss 'ndcg~quicksort'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg~neuralsort:0", 1)).getMessage()
                .contains("temperature tau"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Losses.parse("ndcg@0~twin1", 1)).getMessage()
                .contains("cutoff k must be >= 1"));
    }
}
