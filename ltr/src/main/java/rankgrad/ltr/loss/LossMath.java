package rankgrad.ltr.loss;

/** Numerically stable scalar functions shared by the losses. */
final class LossMath {
    static final double LN2 = Math.log(2.0);

    private LossMath() {
    }

    /** 1 / (1 + e^x): e^x overflowing to infinity gives exactly 0, never NaN. */
    static double logisticOfMinus(double x) {
        return 1.0 / (1.0 + Math.exp(x));
    }

    /**
     * The pair term of the logistic losses at z = sigma (s_i - s_j), from one exponential:
     * the cost log(1 + e^{-z}) into {@code out[0]} and its slope magnitude 1 / (1 + e^z) = -d cost / dz
     * into {@code out[1]}. Both use e = e^{-|z|}, at most 1, so neither overflows.
     */
    static void logisticPair(double z, double[] out) {
        double e = Math.exp(-Math.abs(z));
        out[0] = Math.max(-z, 0.0) + Math.log1p(e);
        out[1] = z >= 0 ? e / (1 + e) : 1 / (1 + e);
    }

    /** log(e^a + e^b) without overflow. */
    static double logAddExp(double a, double b) {
        double hi = Math.max(a, b);
        return hi + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    static void requirePositiveFinite(String what, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, got " + value);
        }
    }

    static void requireCutoff(int k) {
        if (k < 1) {
            throw new IllegalArgumentException("cutoff k must be >= 1, got " + k);
        }
    }
}
