package rankgrad.ltr.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The float64 reference of the smoothed-hinge and logistic pair terms is the derivative of what it
 * claims: the hinge gradient of sum_k c_k rhat_k, and the logistic gradient of sum_k cost_k with
 * the pair weights held fixed, both against central differences.
 */
class ReferencePairTermsTest {
    private static final PairwiseBackend REFERENCE = PairwiseBackends.reference();
    /** Central differences with h = 1e-6 on terms of size O(m): truncation O(h^2) and rounding 1e-16 / h. */
    private static final double H = 1e-6;
    private static final double TOLERANCE = 1e-6;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void hingeRankGradientIsTheGradientOfWeightedHingeRanks(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int[] offsets = {0, 7, 8, 20};
        double[] s = scores(rng, 20);
        float[] y = labels(rng, 20);
        double[] c = scores(rng, 20);
        double alpha = 0.5 + 2 * rng.nextDouble();
        double[] grad = new double[20];
        REFERENCE.hingeRankGradientF64(alpha, s, y, offsets, c, grad);
        for (int k = 0; k < 20; k++) {
            int i = k;
            double numeric = centralDifference(s, i, x -> {
                double[] r = new double[20];
                REFERENCE.hingeRanksF64(alpha, x, y, offsets, r);
                return dot(c, r);
            });
            assertEquals(numeric, grad[k], TOLERANCE, "document " + k);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void logisticPairGradientIsTheGradientOfTheCost(long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int[] offsets = {0, 9, 10, 20};
        double[] s = scores(rng, 20);
        float[] y = labels(rng, 20);
        double[] gains = new double[20];
        double[] disc = new double[20];
        for (int i = 0; i < 20; i++) {
            gains[i] = Math.pow(2, y[i]) - 1;
            disc[i] = rng.nextDouble();
        }
        double sigma = 0.5 + rng.nextDouble();
        for (double[] g : new double[][] {null, gains}) {
            double[] grad = new double[20];
            double[] cost = new double[20];
            REFERENCE.logisticPairsF64(sigma, s, y, g, disc, offsets, grad, cost);
            double sum = 0;
            for (int q = 0; q + 1 < offsets.length; q++) {
                double perQuery = 0;
                for (int k = offsets[q]; k < offsets[q + 1]; k++) {
                    perQuery += grad[k];
                }
                // Equal and opposite forces (Burges Sec. 4): each query's gradient sums to zero.
                assertEquals(0.0, perQuery, 1e-12, "query " + q);
                sum += perQuery;
            }
            for (int k = 0; k < 20; k++) {
                double numeric = centralDifference(s, k, x -> {
                    double[] unused = new double[20];
                    double[] c = new double[20];
                    REFERENCE.logisticPairsF64(sigma, x, y, g, disc, offsets, unused, c);
                    return java.util.Arrays.stream(c).sum();
                });
                assertEquals(numeric, grad[k], TOLERANCE, (g == null ? "ranknet" : "lambdarank") + " document " + k);
            }
            assertEquals(0.0, sum, 1e-12);
        }
    }

    private static double centralDifference(double[] s, int i, java.util.function.ToDoubleFunction<double[]> f) {
        double[] plus = s.clone();
        double[] minus = s.clone();
        plus[i] += H;
        minus[i] -= H;
        return (f.applyAsDouble(plus) - f.applyAsDouble(minus)) / (2 * H);
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    private static double[] scores(SplittableRandom rng, int n) {
        double[] s = new double[n];
        for (int i = 0; i < n; i++) {
            s[i] = 4 * rng.nextDouble() - 2;
        }
        return s;
    }

    private static float[] labels(SplittableRandom rng, int n) {
        float[] y = new float[n];
        for (int i = 0; i < n; i++) {
            y[i] = rng.nextInt(4);
        }
        return y;
    }
}
