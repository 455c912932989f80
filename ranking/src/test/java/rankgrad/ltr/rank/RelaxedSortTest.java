package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The soft ranks of the relaxed sorts, {@link RelaxedSort#expectedRanks} and its vector-Jacobian product. */
class RelaxedSortTest {
    private static final double[] SCORES = {0.5, 2.0, -1.0, 0.25, -2.0};

    private static RelaxedSort[] operators(double tau) {
        return new RelaxedSort[] {NeuralSort.of(tau), PrilloSoftSort.of(tau)};
    }

    /** As tau goes to 0, P tends to the sorting permutation and r to the exact ranks (1 = top). */
    @Test
    void atLowTemperatureTheRanksAreExact() {
        for (RelaxedSort sort : operators(1e-3)) {
            // Scores 0.25 apart at tau = 1e-3: off-permutation weights are below e^-250.
            assertArrayEquals(new double[] {2, 1, 4, 3, 5}, sort.expectedRanks(SCORES, 0, 5), 1e-12, sort.name());
        }
    }

    /**
     * The normalization by the column sums: NeuralSort's P at tau = 1 on these scores has column
     * sums 0.971, 1.059, 0.971, 0.999, and the plain sum of (i + 1) P_ij ranks the first document
     * (2.118) below the second (2.071). Normalized, the ranks follow the scores.
     */
    @Test
    void ranksFollowTheScoresWhereTheColumnsOfPDoNotSumToOne() {
        double[] s = {3, 2.9, 2.8, -5};
        double[] r = NeuralSort.of(1).expectedRanks(s, 0, 4);
        for (int j = 0; j + 1 < 4; j++) {
            assertTrue(r[j] < r[j + 1], java.util.Arrays.toString(r));
        }
    }

    /** Each rank is an average of 1 .. m; equal scores get equal ranks; an offset into the array reads the query. */
    @Test
    void ranksLieInOneToMAndTiesShareTheirRank() {
        SplittableRandom rng = new SplittableRandom(25);
        for (int example = 0; example < 200; example++) {
            int m = 2 + rng.nextInt(30);
            double[] s = new double[m + 3];
            double spread = new double[] {0.1, 1, 10}[rng.nextInt(3)];
            for (int j = 0; j < s.length; j++) {
                // A grid of 1/4 steps: ties are frequent.
                s[j] = Math.round(rng.nextGaussian() * spread * 4) / 4.0;
            }
            for (RelaxedSort sort : operators(new double[] {0.1, 1, 10}[rng.nextInt(3)])) {
                double[] r = sort.expectedRanks(s, 3, m);
                for (int j = 0; j < m; j++) {
                    // 1e-12: the division of two sums of m terms of order m, rounded.
                    assertTrue(r[j] >= 1 - 1e-12 && r[j] <= m + 1e-12, sort.name() + " rank " + r[j] + " of " + m);
                    for (int k = 0; k < m; k++) {
                        if (s[3 + j] == s[3 + k]) {
                            assertEquals(r[j], r[k], 1e-12, sort.name() + " tied documents " + j + ", " + k);
                        }
                    }
                }
            }
        }
    }

    /**
     * m = 2: P is doubly stochastic, P_00 = P_11 = sigma(d / tau) with d = s_0 - s_1 for NeuralSort
     * (its logits differ by d / tau in both rows), so r_0 = 1 + sigma(-d / tau), r_1 = 3 - r_0.
     */
    @Test
    void twoDocumentsHaveTheClosedFormRanks() {
        double d = 0.8;
        double tau = 0.5;
        double r0 = 1 + 1 / (1 + Math.exp(d / tau));
        assertArrayEquals(new double[] {r0, 3 - r0}, NeuralSort.of(tau).expectedRanks(new double[] {0.3 + d, 0.3}, 0, 2),
                1e-15);
    }

    /** The VJP against central differences of sum_j w_j r_j, for both operators, at a query offset of the scores and of dL/dr. */
    @Test
    void theGradientIsTheDerivativeOfTheRanks() {
        double[] weights = {0.3, -1.0, 0.5, 2.0, -0.25};
        double[] padded = new double[SCORES.length + 2];
        System.arraycopy(SCORES, 0, padded, 2, SCORES.length);
        // dL/dr aligned with the scores, the first two entries another query's (they must not be read).
        double[] rankGrad = {1e3, -1e3, 0.3, -1.0, 0.5, 2.0, -0.25};
        for (RelaxedSort sort : operators(0.7)) {
            double[] grad = sort.expectedRanksGradient(padded, 2, 5, rankGrad);
            assertEquals(5, grad.length);
            double h = 1e-6;
            for (int i = 0; i < 5; i++) {
                double[] up = padded.clone();
                double[] down = padded.clone();
                up[2 + i] += h;
                down[2 + i] -= h;
                double numeric = (dot(weights, sort.expectedRanks(up, 2, 5)) - dot(weights, sort.expectedRanks(down, 2, 5)))
                        / (2 * h);
                // Distinct scores, so |.| and PrilloSoftSort's sort are smooth here: error h^2 |f'''| / 6 ~ 1e-12
                // plus rounding 1e-16 * |f| / h ~ 1e-9 at values of order 10; a wrong term errs by O(|grad|) ~ 0.1.
                assertEquals(numeric, grad[i], 1e-8, sort.name() + " document " + i);
            }
        }
    }

    private static double dot(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
