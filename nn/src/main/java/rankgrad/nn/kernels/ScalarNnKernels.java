package rankgrad.nn.kernels;

/**
 * Plain-Java {@link NnKernels}: the reference the vector kernels are tested against (bit for bit),
 * and the fallback when {@code jdk.incubator.vector} is not available.
 */
final class ScalarNnKernels implements NnKernels {
    /** The shared instance (the class is stateless). */
    static final ScalarNnKernels INSTANCE = new ScalarNnKernels();

    private ScalarNnKernels() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void biasedColumnSumsF32(float[] z, float[] bias, double[] sum, int from, int to, int cols) {
        biasedColumnSums(z, bias, sum, from, to, 0, cols);
    }

    @Override
    public void biasedSquaredDeviationsF32(float[] z, float[] bias, double[] mean, double[] q, int from, int to,
            int cols) {
        biasedSquaredDeviations(z, bias, mean, q, from, to, 0, cols);
    }

    @Override
    public void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int from,
            int to, int cols) {
        batchNormRelu(z, bias, mu, scale, shift, y, from, to, 0, cols);
    }

    @Override
    public void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int from, int to, int cols) {
        batchNormReluSums(y, g, z, bias, mu, sumDy, sumDyXc, from, to, 0, cols);
    }

    @Override
    public void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k,
            float[] b, float[] c, float[] dz, double[] colSum, int from, int to, int cols) {
        batchNormReluInputGrad(y, g, z, bias, mu, k, b, c, dz, colSum, from, to, 0, cols);
    }

    // The kernels over columns [j0, cols) of rows [from, to): the interface's methods with j0 = 0, and
    // the vector kernels' tail columns.

    static void biasedColumnSums(float[] z, float[] bias, double[] sum, int from, int to, int j0, int cols) {
        for (int i = from; i < to; i++) {
            for (int j = j0, e = i * cols + j0; j < cols; j++, e++) {
                float v = z[e] + bias[j];
                sum[j] += v;
            }
        }
    }

    static void biasedSquaredDeviations(float[] z, float[] bias, double[] mean, double[] q, int from, int to, int j0,
            int cols) {
        for (int i = from; i < to; i++) {
            for (int j = j0, e = i * cols + j0; j < cols; j++, e++) {
                float v = z[e] + bias[j];
                double d = v - mean[j];
                q[j] += d * d;
            }
        }
    }

    static void batchNormRelu(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int from,
            int to, int j0, int cols) {
        for (int i = from; i < to; i++) {
            for (int j = j0, e = i * cols + j0; j < cols; j++, e++) {
                float v = ((z[e] + bias[j]) - mu[j]) * scale[j] + shift[j];
                y[e] = v > 0f ? v : 0f;
            }
        }
    }

    static void batchNormReluSums(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int from, int to, int j0, int cols) {
        for (int i = from; i < to; i++) {
            for (int j = j0, e = i * cols + j0; j < cols; j++, e++) {
                float dy = y[e] > 0f ? g[e] : 0f;
                float xc = (z[e] + bias[j]) - mu[j];
                sumDy[j] += dy;
                sumDyXc[j] += dy * (double) xc;
            }
        }
    }

    static void batchNormReluInputGrad(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k, float[] b,
            float[] c, float[] dz, double[] colSum, int from, int to, int j0, int cols) {
        for (int i = from; i < to; i++) {
            for (int j = j0, e = i * cols + j0; j < cols; j++, e++) {
                float dy = y[e] > 0f ? g[e] : 0f;
                float xc = (z[e] + bias[j]) - mu[j];
                float d = k[j] * dy + b[j] * xc + c[j];
                dz[e] = d;
                colSum[j] += d;
            }
        }
    }

    @Override
    public void adamF32(float[] p, float[] g, float[] m, float[] v, int n, AdamCoefficients c) {
        for (int j = 0; j < n; j++) {
            adamStepF32(p, g, m, v, j, c);
        }
    }

    /** {@link #adamF32} of element j alone (also the vector kernel's tail). */
    static void adamStepF32(float[] p, float[] g, float[] m, float[] v, int j, AdamCoefficients c) {
        float q = p[j] * c.shrink();
        float h = g[j] + c.l2() * q;
        float mj = m[j] * c.beta1() + c.oneMinusBeta1() * h;
        float vj = v[j] * c.beta2() + c.oneMinusBeta2() * h * h;
        m[j] = flushSubnormal(mj);
        v[j] = flushSubnormal(vj);
        p[j] = flushSubnormal(q - c.stepSize() * (mj / ((float) Math.sqrt(vj) / c.bc2Sqrt() + c.eps())));
    }

    /** 0 for a subnormal x, x otherwise (what a CPU in flush-to-zero mode stores). */
    static float flushSubnormal(float x) {
        return Math.abs(x) < Float.MIN_NORMAL ? 0f : x;
    }
}
