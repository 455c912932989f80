package rankgrad.ltr.loss;

/** Numerically stable scalar functions shared by the losses. */
final class LossMath {
    static final double LN2 = Math.log(2.0);

    private LossMath() {
    }

    /** log(1 + e^x) without overflow for large x or loss of precision for very negative x. */
    static double softplus(double x) {
        return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    /** 1 / (1 + e^x): e^x overflowing to infinity gives exactly 0, never NaN. */
    static double logisticOfMinus(double x) {
        return 1.0 / (1.0 + Math.exp(x));
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
