package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.fail;

import rankgrad.ltr.pairwise.BackwardType;

/**
 * How far a device result may be from the scalar reference, row by row. Each output is a sum of m
 * pair terms taken in the same order on both sides. A term differs by at most c eps S_term, with S_term
 * a bound of the term's magnitude: the device's exp and log are within 3 ulps (OpenCL full profile;
 * PTX's approximate exp within 2), a term takes at most 6 more roundings, and its 1 - sigma(x) has an
 * absolute error of a few ulps of 1, so c = 32 covers every term. Recursive summation of m terms
 * errs by at most (m - 1) eps sum |t| on each side. Hence |device - reference| &lt;= (2m + 64) eps S,
 * S = sum over the row of the term bounds, eps = 2^-23 (twice the unit roundoff, for margin).
 */
final class ErrorBound {
    private static final double EPS = 0x1p-23;

    private ErrorBound() {
    }

    /** Asserts every row of {@code got} within the bound of {@code ref}, given per-row magnitudes S. */
    static void assertClose(String what, float[] ref, float[] got, int[] offsets, double[] scale) {
        for (int q = 0; q + 1 < offsets.length; q++) {
            int m = offsets[q + 1] - offsets[q];
            for (int k = offsets[q]; k < offsets[q + 1]; k++) {
                double tol = (2.0 * m + 64) * EPS * scale[k];
                double diff = Math.abs((double) got[k] - ref[k]);
                if (!(diff <= tol) && !(Float.isNaN(ref[k]) && Float.isNaN(got[k]))) {
                    fail(what + ": row " + k + " of query " + q + " (m = " + m + "): device " + got[k]
                            + ", reference " + ref[k] + ", |diff| " + diff + " > " + tol);
                }
            }
        }
    }

    /** S for outputs whose terms are all non-negative (both rank kinds, the logistic cost): the value itself. */
    static double[] ofPositiveSum(float[] ref) {
        double[] s = new double[ref.length];
        for (int k = 0; k < ref.length; k++) {
            s[k] = Math.abs(ref[k]);
        }
        return s;
    }

    /** S of the rank backward: sigma'(x) &lt;= 1/4, so |term| &lt;= alpha/4 |g_j -+ g_k| (types 1, 2), 2 alpha |g_k + g_j| (type 3). */
    static double[] ofRankGradient(BackwardType type, float alpha, float[] g, int[] offsets) {
        return perPair(offsets, (k, j) -> switch (type) {
            case TYPE1 -> alpha / 4.0 * Math.abs((double) g[j] - g[k]);
            case TYPE2 -> alpha / 4.0 * Math.abs((double) g[k] + g[j]);
            case TYPE3 -> 2.0 * alpha * Math.abs((double) g[k] + g[j]);
        });
    }

    /** S of the hinge backward: every T' is bounded by a/4 in magnitude. */
    static double[] ofHingeGradient(float a, float[] c, int[] offsets) {
        return perPair(offsets, (k, j) -> a / 4.0 * (Math.abs(c[k]) + Math.abs(c[j])));
    }

    /** S of the logistic gradient: |term| &lt;= w sigma (w = 1 without gains). */
    static double[] ofLogisticGradient(float sigma, float[] y, float[] gains, float[] disc, int[] offsets) {
        return perPair(offsets, (k, j) -> {
            if (y[k] == y[j]) {
                return 0.0;
            }
            double w = gains == null ? 1.0 : Math.abs(gains[k] - gains[j]) * Math.abs(disc[k] - disc[j]);
            return w * Math.abs(sigma);
        });
    }

    @FunctionalInterface
    private interface PairBound {
        double of(int k, int j);
    }

    private static double[] perPair(int[] offsets, PairBound bound) {
        double[] s = new double[offsets[offsets.length - 1]];
        for (int q = 0; q + 1 < offsets.length; q++) {
            for (int k = offsets[q]; k < offsets[q + 1]; k++) {
                for (int j = offsets[q]; j < offsets[q + 1]; j++) {
                    s[k] += bound.of(k, j);
                }
            }
        }
        return s;
    }
}
