package rankgrad.ltr.pairwise;

/**
 * Plain-Java pair kernels: the reference every SIMD kernel is tested against, and the fallback
 * when {@code jdk.incubator.vector} is not available. Each loop evaluates the pair term exactly
 * as written in {@link PairKernels} and sums j from the query's first document up.
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

    @Override
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

    @Override
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

    /** sigma(x) = 1 / (1 + e^{-x}) in float32 arithmetic; e^{-x} = +inf gives exactly 0. */
    static float sigmoid(float x) {
        return 1f / (1f + (float) Math.exp(-x));
    }

    /** sigma(x) = 1 / (1 + e^{-x}); e^{-x} = +inf gives exactly 0. */
    static double sigmoid(double x) {
        return 1.0 / (1.0 + Math.exp(-x));
    }
}
