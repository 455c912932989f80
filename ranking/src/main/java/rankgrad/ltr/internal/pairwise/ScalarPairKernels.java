package rankgrad.ltr.internal.pairwise;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;

/**
 * Plain-Java pair kernels: the reference every SIMD kernel is tested against, the fallback when
 * {@code jdk.incubator.vector} is not available, and the only float64 implementation (gradient
 * checks; {@link rankgrad.ltr.rank.Float64Reference}). Each loop evaluates the pair term
 * exactly as written in {@link PairKernels} and sums j from the query's first document up.
 */
public final class ScalarPairKernels implements PairKernels {
    /** The shared instance (the class is stateless). */
    public static final ScalarPairKernels INSTANCE = new ScalarPairKernels();

    private ScalarPairKernels() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void approxRanksF32(float[] s, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            float sum = 0.5f;
            for (int j = off; j < off + m; j++) {
                sum += sigmoid(alpha * (s[j] - s[k]));
            }
            out[k] = sum;
        }
    }

    /** The float64 form of the float32 method of the same name (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void approxRanksF64(double[] s, int off, int m, int rowFrom, int rowTo, double alpha, double[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            double sum = 0.5;
            for (int j = off; j < off + m; j++) {
                sum += sigmoid(alpha * (s[j] - s[k]));
            }
            out[k] = sum;
        }
    }

    @Override
    public void rankGradientF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m, int rowFrom,
            int rowTo, float alpha, float[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            float sum = 0f;
            for (int j = off; j < off + m; j++) {
                float sb = sigmoid(alpha * (s[k] - s[j]));
                sum += switch (type) {
                    case TYPE1 -> alpha * sb * (1f - sb) * (g[j] - g[k]);
                    case TYPE2 -> -Math.signum(y[k] - y[j]) * alpha * sb * (1f - sb) * (g[k] + g[j]);
                    case TYPE3 -> y[k] > y[j] ? -2f * alpha * (1f - sb) * (g[k] + g[j])
                            : y[k] < y[j] ? 2f * alpha * sb * (g[k] + g[j]) : 0f;
                };
            }
            out[k] = sum;
        }
    }

    /** The float64 form of the float32 method of the same name (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void rankGradientF64(BackwardType type, double[] s, float[] y, double[] g, int off, int m, int rowFrom,
            int rowTo, double alpha, double[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            double sum = 0.0;
            for (int j = off; j < off + m; j++) {
                double sb = sigmoid(alpha * (s[k] - s[j]));
                sum += switch (type) {
                    case TYPE1 -> alpha * sb * (1.0 - sb) * (g[j] - g[k]);
                    case TYPE2 -> -Math.signum(y[k] - y[j]) * alpha * sb * (1.0 - sb) * (g[k] + g[j]);
                    case TYPE3 -> y[k] > y[j] ? -2.0 * alpha * (1.0 - sb) * (g[k] + g[j])
                            : y[k] < y[j] ? 2.0 * alpha * sb * (g[k] + g[j]) : 0.0;
                };
            }
            out[k] = sum;
        }
    }

    @Override
    public void hingeRanksF32(float[] s, float[] y, int off, int m, int rowFrom, int rowTo, float alpha, float[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            float sum = 0.5f;
            for (int j = off; j < off + m; j++) {
                float x = s[k] - s[j];
                sum += y[k] == y[j] ? sigmoid(-alpha * x) : y[k] > y[j] ? hingeA(alpha, x) : 1f + hingeA(alpha, -x);
            }
            out[k] = sum;
        }
    }

    /** The float64 form of the float32 method of the same name (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void hingeRanksF64(double[] s, float[] y, int off, int m, int rowFrom, int rowTo, double alpha,
            double[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            double sum = 0.5;
            for (int j = off; j < off + m; j++) {
                double x = s[k] - s[j];
                sum += y[k] == y[j] ? sigmoid(-alpha * x) : y[k] > y[j] ? hingeA(alpha, x) : 1.0 + hingeA(alpha, -x);
            }
            out[k] = sum;
        }
    }

    @Override
    public void hingeRankGradientF32(float[] s, float[] y, float[] c, int off, int m, int rowFrom, int rowTo,
            float alpha, float[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            float sum = 0f;
            for (int j = off; j < off + m; j++) {
                float x = s[k] - s[j];
                sum += c[k] * hingeSlope(alpha, y[k], y[j], x) - c[j] * hingeSlope(alpha, y[j], y[k], -x);
            }
            out[k] = sum;
        }
    }

    /** The float64 form of the float32 method of the same name (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void hingeRankGradientF64(double[] s, float[] y, double[] c, int off, int m, int rowFrom, int rowTo,
            double alpha, double[] out) {
        for (int k = rowFrom; k < rowTo; k++) {
            double sum = 0.0;
            for (int j = off; j < off + m; j++) {
                double x = s[k] - s[j];
                sum += c[k] * hingeSlope(alpha, y[k], y[j], x) - c[j] * hingeSlope(alpha, y[j], y[k], -x);
            }
            out[k] = sum;
        }
    }

    @Override
    public void logisticPairsF32(float[] s, float[] y, float[] gain, float[] disc, int off, int m, int rowFrom,
            int rowTo, float sigma, float[] grad, float[] cost) {
        for (int k = rowFrom; k < rowTo; k++) {
            float g = 0f;
            float c = 0f;
            for (int j = off; j < off + m; j++) {
                if (y[j] == y[k]) {
                    continue;
                }
                float w = gain == null ? 1f : Math.abs(gain[k] - gain[j]) * Math.abs(disc[k] - disc[j]);
                float z = sigma * (s[k] - s[j]);
                if (y[k] > y[j]) {
                    g -= w * sigma * sigmoid(-z);
                    c += w * softplus(-z);
                } else {
                    g += w * sigma * sigmoid(z);
                }
            }
            grad[k] = g;
            cost[k] = c;
        }
    }

    /** The float64 form of the float32 method of the same name (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void logisticPairsF64(double[] s, float[] y, double[] gain, double[] disc, int off, int m, int rowFrom,
            int rowTo, double sigma, double[] grad, double[] cost) {
        for (int k = rowFrom; k < rowTo; k++) {
            double g = 0.0;
            double c = 0.0;
            for (int j = off; j < off + m; j++) {
                if (y[j] == y[k]) {
                    continue;
                }
                double w = gain == null ? 1.0 : Math.abs(gain[k] - gain[j]) * Math.abs(disc[k] - disc[j]);
                double z = sigma * (s[k] - s[j]);
                if (y[k] > y[j]) {
                    g -= w * sigma * sigmoid(-z);
                    c += w * softplus(-z);
                } else {
                    g += w * sigma * sigmoid(z);
                }
            }
            grad[k] = g;
            cost[k] = c;
        }
    }

    @Override
    public void truncatedLambdasF32(float[] s, float[] y, float[] gain, float[] disc, float[] rank, int level,
            boolean scoreDistance, int off, int m, int rowFrom, int rowTo, float sigma, float[] grad, float[] lambdas) {
        for (int k = rowFrom; k < rowTo; k++) {
            float g = 0f;
            float c = 0f;
            for (int j = off; j < off + m; j++) {
                if (y[j] == y[k] || (rank[k] > level && rank[j] > level)) {
                    continue;
                }
                float w = Math.abs(gain[k] - gain[j]) * Math.abs(disc[k] - disc[j]);
                float d = s[k] - s[j];
                if (scoreDistance) {
                    w = w / ((float) PairTruncation.SCORE_DISTANCE_OFFSET + Math.abs(d));
                }
                float z = sigma * d;
                if (y[k] > y[j]) {
                    float t = w * sigma * sigmoid(-z);
                    g -= t;
                    c += t;
                } else {
                    g += w * sigma * sigmoid(z);
                }
            }
            grad[k] = g;
            lambdas[k] = c;
        }
    }

    /** The float64 form of {@link #truncatedLambdasF32} (see {@link rankgrad.ltr.rank.Float64Reference}). */
    public void truncatedLambdasF64(double[] s, float[] y, double[] gain, double[] disc, double[] rank, int level,
            boolean scoreDistance, int off, int m, int rowFrom, int rowTo, double sigma, double[] grad,
            double[] lambdas) {
        for (int k = rowFrom; k < rowTo; k++) {
            double g = 0.0;
            double c = 0.0;
            for (int j = off; j < off + m; j++) {
                if (y[j] == y[k] || (rank[k] > level && rank[j] > level)) {
                    continue;
                }
                double w = Math.abs(gain[k] - gain[j]) * Math.abs(disc[k] - disc[j]);
                double d = s[k] - s[j];
                if (scoreDistance) {
                    w = w / (PairTruncation.SCORE_DISTANCE_OFFSET + Math.abs(d));
                }
                double z = sigma * d;
                if (y[k] > y[j]) {
                    double t = w * sigma * sigmoid(-z);
                    g -= t;
                    c += t;
                } else {
                    g += w * sigma * sigmoid(z);
                }
            }
            grad[k] = g;
            lambdas[k] = c;
        }
    }

    /** Wu's A_a(x): G_a(x) = sigma(-a x) for x &gt;= 0, the tangent 1/2 - (a/4) x for x &lt; 0 (C1 at 0). */
    static float hingeA(float a, float x) {
        return x >= 0f ? sigmoid(-a * x) : 0.5f - 0.25f * a * x;
    }

    /** {@link #hingeA(float, float)} in float64. */
    static double hingeA(double a, double x) {
        return x >= 0.0 ? sigmoid(-a * x) : 0.5 - 0.25 * a * x;
    }

    /** T'_kj(x), the derivative of the term document j adds to rhat_k, at x = s_k - s_j. */
    static float hingeSlope(float a, float yk, float yj, float x) {
        if (yk == yj) {
            return slopeG(a, x);
        }
        return yk > yj ? slopeA(a, x) : -slopeA(a, -x);
    }

    /** {@link #hingeSlope(float, float, float, float)} in float64. */
    static double hingeSlope(double a, float yk, float yj, double x) {
        if (yk == yj) {
            return slopeG(a, x);
        }
        return yk > yj ? slopeA(a, x) : -slopeA(a, -x);
    }

    private static float slopeA(float a, float x) {
        return x >= 0f ? slopeG(a, x) : -0.25f * a;
    }

    private static double slopeA(double a, double x) {
        return x >= 0.0 ? slopeG(a, x) : -0.25 * a;
    }

    /** G_a'(x) = -a G_a(x) (1 - G_a(x)). */
    private static float slopeG(float a, float x) {
        float g = sigmoid(-a * x);
        return -a * g * (1f - g);
    }

    private static double slopeG(double a, double x) {
        double g = sigmoid(-a * x);
        return -a * g * (1.0 - g);
    }

    /** log(1 + e^x) without overflow: max(x, 0) + log1p(e^{-|x|}). */
    static float softplus(float x) {
        return Math.max(x, 0f) + (float) Math.log1p(Math.exp(-Math.abs(x)));
    }

    /** {@link #softplus(float)} in float64. */
    static double softplus(double x) {
        return Math.max(x, 0.0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    /** sigma(x) = 1 / (1 + e^{-x}) in float32 arithmetic; e^{-x} = +inf gives exactly 0. */
    static float sigmoid(float x) {
        return 1f / (1f + (float) Math.exp(-x));
    }

    /** sigma(x) = 1 / (1 + e^{-x}); e^{-x} = +inf gives exactly 0. */
    static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }
}
