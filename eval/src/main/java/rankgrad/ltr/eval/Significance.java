package rankgrad.ltr.eval;

import java.util.Arrays;

/**
 * Statistics for comparing rankers over the same queries (Yu et al. Tables 4-7 mark results that
 * are significantly worse than the best one): the Wilcoxon signed-rank test on paired per-query
 * values, and Student-t confidence intervals of a mean.
 *
 * <p>Wilcoxon: differences d_i = a_i - b_i, zeros dropped (Wilcoxon's convention), |d| ranked with
 * average ranks for ties, W+ = the rank sum of positive differences. Two-sided p-value from the
 * exact null distribution of W+ (computed by dynamic programming over the actual, possibly tied,
 * ranks) when at most {@value #EXACT_LIMIT} differences are nonzero, else from the normal
 * approximation with tie and continuity corrections,
 * z = (|W+ - n(n+1)/4| - 1/2) / sqrt(n(n+1)(2n+1)/24 - sum_t (t^3 - t)/48).
 *
 * <p>Paired t-test (Student 1908): d_i = a_i - b_i, t = mean(d) / (s_d / sqrt(n)) with n - 1
 * degrees of freedom, two-sided p = I_{(n-1)/(n-1+t^2)}((n-1)/2, 1/2).
 */
public final class Significance {
    /** Largest number of nonzero differences for which the exact distribution is used. */
    public static final int EXACT_LIMIT = 50;

    /** A mean with the half-width of its confidence interval: mean +- halfWidth. */
    public record Interval(double mean, double halfWidth, int n) {
    }

    private Significance() {
    }

    /** Two-sided p-value of the Wilcoxon signed-rank test of paired samples a and b. */
    public static double wilcoxonSignedRank(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples differ in length: " + a.length + " vs " + b.length);
        }
        double[] d = Arrays.stream(diff(a, b)).filter(x -> x != 0).toArray();
        int n = d.length;
        if (n == 0) {
            return 1.0;
        }
        Integer[] idx = new Integer[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (x, y) -> Double.compare(Math.abs(d[x]), Math.abs(d[y])));
        // Doubled ranks are integers even when ties share an average rank.
        int[] rank2 = new int[n];
        double tieTerm = 0;
        for (int i = 0; i < n;) {
            int j = i;
            while (j + 1 < n && Math.abs(d[idx[j + 1]]) == Math.abs(d[idx[i]])) {
                j++;
            }
            int t = j - i + 1;
            for (int k = i; k <= j; k++) {
                rank2[idx[k]] = i + j + 2;
            }
            tieTerm += (double) t * t * t - t;
            i = j + 1;
        }
        long wPlus2 = 0;
        long total2 = 0;
        for (int i = 0; i < n; i++) {
            total2 += rank2[i];
            if (d[i] > 0) {
                wPlus2 += rank2[i];
            }
        }
        if (n <= EXACT_LIMIT) {
            return exactTwoSided(rank2, wPlus2, total2);
        }
        double mean = n * (n + 1) / 4.0;
        double var = n * (n + 1) * (2.0 * n + 1) / 24.0 - tieTerm / 48.0;
        double dev = Math.max(0, Math.abs(wPlus2 / 2.0 - mean) - 0.5);
        return Math.min(1.0, 2 * upperNormalTail(dev / Math.sqrt(var)));
    }

    /**
     * Two-sided p-value of the paired t-test of a and b. All differences equal: p = 1 when they are
     * 0, else 0 (t is infinite); fewer than two pairs: 1 (no variance to test against).
     */
    public static double pairedT(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("paired samples differ in length: " + a.length + " vs " + b.length);
        }
        double[] d = diff(a, b);
        int n = d.length;
        if (n < 2) {
            return 1.0;
        }
        double mean = Arrays.stream(d).sum() / n;
        double ss = 0;
        for (double v : d) {
            ss += (v - mean) * (v - mean);
        }
        if (ss == 0) {
            return mean == 0 ? 1.0 : 0.0;
        }
        double t = mean / Math.sqrt(ss / (n - 1) / n);
        int dof = n - 1;
        return Math.min(1.0, regularizedBeta(dof / (dof + t * t), dof / 2.0, 0.5));
    }

    /** Mean and Student-t confidence half-width at {@code level} (e.g. 0.95). */
    public static Interval meanInterval(double[] x, double level) {
        int n = x.length;
        if (n == 0) {
            return new Interval(Double.NaN, Double.NaN, 0);
        }
        double mean = Arrays.stream(x).sum() / n;
        if (n == 1) {
            return new Interval(mean, Double.NaN, 1);
        }
        double ss = 0;
        for (double v : x) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / (n - 1));
        return new Interval(mean, studentQuantile(0.5 + level / 2, n - 1) * sd / Math.sqrt(n), n);
    }

    /** The p-quantile of Student's t distribution with {@code dof} degrees of freedom (p in (0.5, 1)). */
    public static double studentQuantile(double p, int dof) {
        double lo = 0;
        double hi = 1;
        while (studentCdf(hi, dof) < p) {
            hi *= 2;
        }
        for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
            double mid = (lo + hi) / 2;
            if (studentCdf(mid, dof) < p) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /** CDF of Student's t at t >= 0: 1 - I_{dof/(dof+t^2)}(dof/2, 1/2) / 2. */
    static double studentCdf(double t, int dof) {
        return 1 - 0.5 * regularizedBeta(dof / (dof + t * t), dof / 2.0, 0.5);
    }

    /** P(Z > z) for a standard normal Z, via erfc (relative error below 1.2e-7). */
    static double upperNormalTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    private static double erfc(double x) {
        // Chebyshev fit of Numerical Recipes (erfcc), fractional error < 1.2e-7 everywhere.
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    private static double exactTwoSided(int[] rank2, long wPlus2, long total2) {
        // count[s] = number of sign assignments whose positive doubled-rank sum is s.
        double[] count = new double[(int) total2 + 1];
        count[0] = 1;
        long reach = 0;
        for (int r : rank2) {
            for (long s = reach; s >= 0; s--) {
                if (count[(int) s] != 0) {
                    count[(int) (s + r)] += count[(int) s];
                }
            }
            reach += r;
        }
        double all = Math.pow(2, rank2.length);
        long lower = Math.min(wPlus2, total2 - wPlus2);
        double tail = 0;
        for (long s = 0; s <= lower; s++) {
            tail += count[(int) s];
        }
        return Math.min(1.0, 2 * tail / all);
    }

    private static double[] diff(double[] a, double[] b) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i] - b[i];
        }
        return d;
    }

    /** I_x(a, b) by the continued fraction of Numerical Recipes (modified Lentz). */
    private static double regularizedBeta(double x, double a, double b) {
        if (x <= 0) {
            return 0;
        }
        if (x >= 1) {
            return 1;
        }
        double lnFront = lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
        if (x > (a + 1) / (a + b + 2)) {
            return 1 - regularizedBeta(1 - x, b, a);
        }
        double tiny = 1e-300;
        double c = 1;
        double d = 1 - (a + b) * x / (a + 1);
        d = 1 / (Math.abs(d) < tiny ? tiny : d);
        double h = d;
        for (int m = 1; m <= 300; m++) {
            int m2 = 2 * m;
            double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            h *= d * c;
            aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
            d = 1 / nonZero(1 + aa * d, tiny);
            c = nonZero(1 + aa / c, tiny);
            double delta = d * c;
            h *= delta;
            if (Math.abs(delta - 1) < 1e-15) {
                break;
            }
        }
        return Math.exp(lnFront) * h / a;
    }

    private static double nonZero(double v, double tiny) {
        return Math.abs(v) < tiny ? tiny : v;
    }

    private static double lnGamma(double x) {
        // Lanczos approximation (g = 7, n = 9), relative error ~1e-15 for x > 0.
        double[] g = {0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
            -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
            1.5056327351493116e-7};
        if (x < 0.5) {
            return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lnGamma(1 - x);
        }
        x -= 1;
        double sum = g[0];
        for (int i = 1; i < 9; i++) {
            sum += g[i] / (x + i);
        }
        double t = x + 7.5;
        return 0.5 * Math.log(2 * Math.PI) + (x + 0.5) * Math.log(t) - t + Math.log(sum);
    }
}
