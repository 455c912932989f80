package rankgrad.ltr.pairwise;

/**
 * Plain-Java pair kernels: the reference every SIMD kernel is tested against, and the fallback
 * when {@code jdk.incubator.vector} is not available. Each loop evaluates the pair term exactly
 * as written in {@link PairKernels} and sums left to right.
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
    public float sigmoidRowSumF32(float[] s, int off, int m, float si, float alpha) {
        float sum = 0f;
        for (int j = 0; j < m; j++) {
            sum += sigmoid(alpha * (s[off + j] - si));
        }
        return sum;
    }

    @Override
    public double sigmoidRowSumF64(double[] s, int off, int m, double si, double alpha) {
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            sum += sigmoid(alpha * (s[off + j] - si));
        }
        return sum;
    }

    @Override
    public float rankGradientRowF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m,
            float sk, float yk, float gk, float alpha) {
        float sum = 0f;
        for (int j = 0; j < m; j++) {
            float sb = sigmoid(alpha * (sk - s[off + j]));
            float yj = y[off + j];
            float gj = g[off + j];
            sum += switch (type) {
                case TYPE1 -> alpha * sb * (1f - sb) * (gj - gk);
                case TYPE2 -> -Math.signum(yk - yj) * alpha * sb * (1f - sb) * (gk + gj);
                case TYPE3 -> yk > yj ? -2f * alpha * (1f - sb) * (gk + gj)
                        : yk < yj ? 2f * alpha * sb * (gk + gj) : 0f;
            };
        }
        return sum;
    }

    @Override
    public double rankGradientRowF64(BackwardType type, double[] s, float[] y, double[] g, int off, int m,
            double sk, float yk, double gk, double alpha) {
        double sum = 0.0;
        for (int j = 0; j < m; j++) {
            double sb = sigmoid(alpha * (sk - s[off + j]));
            float yj = y[off + j];
            double gj = g[off + j];
            sum += switch (type) {
                case TYPE1 -> alpha * sb * (1.0 - sb) * (gj - gk);
                case TYPE2 -> -Math.signum(yk - yj) * alpha * sb * (1.0 - sb) * (gk + gj);
                case TYPE3 -> yk > yj ? -2.0 * alpha * (1.0 - sb) * (gk + gj)
                        : yk < yj ? 2.0 * alpha * sb * (gk + gj) : 0.0;
            };
        }
        return sum;
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
