package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.NeuralSort;
import rankgrad.ltr.rank.RelaxedSort;
import rankgrad.ltr.rank.SinkhornScaling;
import rankgrad.ltr.rank.PrilloSoftSort;

class NeuralNdcgLossTest {
    private static final float[] GRADES = {2, 0, 3, 1, 0};
    private static final double[] SCORES = {0.5, 2.0, -1.0, 0.25, -2.0};

    /** nDCG of the ranking by SCORES: positions 1..5 hold grades 0, 2, 1, 3, 0. */
    private static double exactNdcg() {
        double dcg = 0 / log2(2) + 3 / log2(3) + 1 / log2(4) + 7 / log2(5);
        double idcg = 7 / log2(2) + 3 / log2(3) + 1 / log2(4);
        return dcg / idcg;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    /** As tau goes to 0 every relaxation tends to the sorting permutation, so the loss to minus the exact nDCG. */
    @Test
    void atLowTemperatureTheLossIsMinusTheExactNdcg() {
        // Scores 0.25 apart at tau = 1e-3: off-permutation weights are below e^-250.
        for (RelaxedSort sort : new RelaxedSort[] {NeuralSort.of(1e-3), PrilloSoftSort.of(1e-3)}) {
            for (SinkhornScaling sinkhorn : new SinkhornScaling[] {SinkhornScaling.none(), SinkhornScaling.of(50, 1e-6)}) {
                double value = LossTesting.evaluate(NeuralNdcgLoss.of(sort, Integer.MAX_VALUE, sinkhorn),
                        QueryBatch.of(GRADES), SCORES).value();
                assertEquals(-exactNdcg(), value, 1e-12, sort + " " + sinkhorn.maxIterations());
            }
        }
    }

    @Test
    void namesReadBackAsTheSameLoss() {
        for (String name : new String[] {"neuralsort:1.0", "softsort@3:0.5", "neural-ndcg@5:0.5:20",
                "neural-ndcg:1.0:50:softsort", "diffsort-oddeven-optimal@3:6.0", "diffsort-bitonic-cauchy:10.0"}) {
            assertEquals(name, Losses.parse(name, 1).name());
        }
        assertEquals("neural-ndcg:1.0:50", Losses.parse("neural-ndcg", 1).name());
        assertEquals("diffsort-bitonic-cauchy:10.0", Losses.parse("diffsort-bitonic:10", 1).name());
    }
}
