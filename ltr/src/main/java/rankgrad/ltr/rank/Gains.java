package rankgrad.ltr.rank;

import rankgrad.ltr.metric.ExactMetrics;

/**
 * Gains and discounts of the differentiable metrics: gains and the ideal DCG are the exact
 * metrics' ({@link ExactMetrics}), so training and evaluation share one IDCG; log2(r + 1) is
 * tabled for integer ranks, since a transcendental call per document showed up in profiles of
 * small queries.
 */
final class Gains {
    static final double LN2 = Math.log(2);
    /** log2(n) for n &lt; TABLE. */
    private static final int TABLE = 1 << 14;
    private static final double[] LOG2 = new double[TABLE];

    static {
        for (int n = 1; n < TABLE; n++) {
            LOG2[n] = Math.log(n) / LN2;
        }
    }

    private Gains() {
    }

    /** 2^y - 1 ({@link ExactMetrics#gain}). */
    static double gain(float y) {
        return ExactMetrics.gain(y);
    }

    /** log2(r + 1), from a table when r is a small integer (exact ranks). */
    static double log2OnePlus(double r) {
        int n = (int) r + 1;
        return n - 1 == r && n < TABLE ? LOG2[n] : Math.log(r + 1.0) / LN2;
    }

    /** The ideal DCG over all m labels: the one evaluation uses ({@link ExactMetrics#idealDcg}). */
    static double idealDcg(float[] labels, int from, int m) {
        return ExactMetrics.idealDcg(labels, from, m, m);
    }
}
