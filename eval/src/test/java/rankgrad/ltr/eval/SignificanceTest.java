package rankgrad.ltr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Reference values from SciPy 1.17 (scipy.stats.wilcoxon, scipy.stats.t.ppf). */
class SignificanceTest {

    @Test
    void exactWilcoxonMatchesScipy() {
        double[] a = {0.81, 0.62, 0.93, 0.74, 0.55, 0.76, 0.97, 0.68, 0.59, 0.8};
        double[] b = {0.70, 0.66, 0.80, 0.71, 0.50, 0.61, 0.90, 0.62, 0.61, 0.72};
        // wilcoxon(a, b, method='exact').pvalue = 0.013671875 = 7/512: an exact count.
        assertEquals(0.013671875, Significance.wilcoxonSignedRank(a, b), 1e-12);
    }

    @Test
    void pairedTMatchesScipy() {
        double[] a = {0.81, 0.62, 0.93, 0.74, 0.55, 0.76, 0.97, 0.68, 0.59, 0.8};
        double[] b = {0.70, 0.66, 0.80, 0.71, 0.50, 0.61, 0.90, 0.62, 0.61, 0.72};
        // scipy.stats.ttest_rel(a, b).pvalue; the incomplete beta's continued fraction converges to
        // ~1e-14, so 1e-10 leaves room for the sums' rounding.
        assertEquals(0.01048389932055656, Significance.pairedT(a, b), 1e-10);
        // A sign of the mean difference does not matter (two-sided), and a small n (dof = 2) works.
        assertEquals(0.6913933000758161, Significance.pairedT(new double[] {0.3, 0.1, 0.4},
                new double[] {0.2, 0.3, 0.1}), 1e-10);
        assertEquals(0.6913933000758161, Significance.pairedT(new double[] {0.2, 0.3, 0.1},
                new double[] {0.3, 0.1, 0.4}), 1e-10);
    }

    @Test
    void pairedTOfConstantDifferences() {
        // Differences exactly 0.5 (binary fractions): no spread, so t is infinite.
        double[] a = {1, 2, 3};
        assertEquals(1.0, Significance.pairedT(a, a.clone()), 0.0);
        assertEquals(0.0, Significance.pairedT(new double[] {1.5, 2.5, 3.5}, a), 0.0);
    }

    @Test
    void normalApproximationMatchesScipy() {
        double[] x = {0.53, 0.58, 0.53, 0.37, 0.59, 0.54, 0.45, 0.56, 0.54, 0.53, 0.5, 0.55, 0.43, 0.48, 0.45, 0.56, 0.5, 0.47, 0.42, 0.47, 0.5, 0.47, 0.63, 0.6, 0.23, 0.31, 0.48, 0.46, 0.52, 0.52, 0.71, 0.39, 0.46, 0.7, 0.56, 0.57, 0.45, 0.34, 0.52, 0.51, 0.38, 0.43, 0.49, 0.41, 0.49, 0.51, 0.5, 0.45, 0.56, 0.59, 0.53, 0.42, 0.57, 0.45, 0.59, 0.39, 0.59, 0.5, 0.38, 0.47, 0.51, 0.53, 0.4, 0.39, 0.52, 0.45, 0.52, 0.58, 0.34, 0.53, 0.62, 0.47, 0.42, 0.58, 0.53, 0.59, 0.47, 0.35, 0.49, 0.46};
        double[] y = {0.59, 0.61, 0.47, 0.33, 0.65, 0.6, 0.43, 0.58, 0.58, 0.57, 0.57, 0.59, 0.44, 0.49, 0.52, 0.47, 0.52, 0.49, 0.37, 0.51, 0.49, 0.54, 0.64, 0.65, 0.31, 0.35, 0.46, 0.4, 0.63, 0.54, 0.7, 0.42, 0.47, 0.77, 0.59, 0.59, 0.43, 0.38, 0.49, 0.56, 0.47, 0.38, 0.39, 0.46, 0.64, 0.48, 0.46, 0.5, 0.54, 0.58, 0.53, 0.46, 0.57, 0.48, 0.6, 0.37, 0.6, 0.47, 0.4, 0.43, 0.47, 0.62, 0.42, 0.41, 0.57, 0.45, 0.53, 0.62, 0.37, 0.49, 0.68, 0.46, 0.39, 0.55, 0.53, 0.69, 0.43, 0.38, 0.4, 0.48};
        // wilcoxon(x, y, zero_method='wilcox', correction=True, method='approx').pvalue; our erfc has
        // relative error below 1.2e-7, so 1e-6 absolute is ample at p ~ 0.014.
        assertEquals(0.014067052554441253, Significance.wilcoxonSignedRank(x, y), 1e-6);
    }

    @Test
    void exactDistributionUsesTheTiedRanks() {
        // Five equal differences share rank 3: W+ is 3 times the number of positive signs, and all
        // five positive has probability 1/32, so the two-sided p-value is 2/32.
        double[] a = {1.5, 2.5, 3.5, 4.5, 5.5};
        double[] b = {1, 2, 3, 4, 5};
        assertEquals(0.0625, Significance.wilcoxonSignedRank(a, b), 1e-12);
    }

    @Test
    void identicalSamplesAreNotSignificant() {
        double[] a = {0.1, 0.2, 0.3};
        assertEquals(1.0, Significance.wilcoxonSignedRank(a, a.clone()), 0.0);
    }

    @Test
    void studentQuantilesMatchScipy() {
        // Bisection to 1e-12 relative on a CDF accurate to ~1e-14: 1e-9 is safe.
        assertEquals(2.262157162798205, Significance.studentQuantile(0.975, 9), 1e-9);
        assertEquals(4.302652729749462, Significance.studentQuantile(0.975, 2), 1e-9);
        assertEquals(2.7499956535672254, Significance.studentQuantile(0.995, 30), 1e-9);
    }

    @Test
    void meanIntervalUsesStudentT() {
        Significance.Interval ci = Significance.meanInterval(new double[] {1, 2, 3}, 0.95);
        assertEquals(2.0, ci.mean(), 0.0);
        // sd = 1, n = 3: half-width = t(0.975, 2) / sqrt(3).
        assertEquals(4.302652729749462 / Math.sqrt(3), ci.halfWidth(), 1e-9);
    }
}
