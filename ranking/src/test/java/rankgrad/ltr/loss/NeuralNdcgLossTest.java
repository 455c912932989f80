package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.NeuralSort;
import rankgrad.ltr.rank.RelaxedSort;
import rankgrad.ltr.rank.SinkhornScaling;
import rankgrad.ltr.rank.SoftSort;

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
        for (RelaxedSort sort : new RelaxedSort[] {NeuralSort.of(1e-3), SoftSort.of(1e-3)}) {
            for (SinkhornScaling sinkhorn : new SinkhornScaling[] {SinkhornScaling.none(), SinkhornScaling.of(50, 1e-6)}) {
                double value = LossTesting.evaluate(NeuralNdcgLoss.of(sort, Integer.MAX_VALUE, sinkhorn),
                        QueryBatch.of(GRADES), SCORES).value();
                assertEquals(-exactNdcg(), value, 1e-12, sort + " " + sinkhorn.maxIterations());
            }
        }
    }

    /** Expected ranks at low temperature are the exact ranks (1 = top); their VJP matches central differences. */
    @Test
    void expectedRanksAreExactAtLowTemperatureAndTheirGradientIsTheDerivative() {
        assertArrayEquals(new double[] {2, 1, 4, 3, 5}, NeuralSort.of(1e-3).expectedRanks(SCORES, 0, 5), 1e-12);
        RelaxedSort sort = NeuralSort.of(0.7);
        double[] weights = {0.3, -1.0, 0.5, 2.0, -0.25};
        double[] grad = sort.expectedRanksGradient(SCORES, 0, 5, weights);
        double h = 1e-6;
        for (int i = 0; i < 5; i++) {
            double[] up = SCORES.clone();
            double[] down = SCORES.clone();
            up[i] += h;
            down[i] -= h;
            double numeric = (dot(weights, sort.expectedRanks(up, 0, 5)) - dot(weights, sort.expectedRanks(down, 0, 5)))
                    / (2 * h);
            // h^2 |f'''| / 6 ~ 1e-12 plus rounding 1e-16 / h ~ 1e-10 at values of order 10.
            assertEquals(numeric, grad[i], 1e-8, "document " + i);
        }
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
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
