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
    public void biasedColumnSumsF32(float[] z, int zOff, float[] bias, double[] sum, int n) {
        for (int j = 0; j < n; j++) {
            float v = z[zOff + j] + bias[j];
            sum[j] += v;
        }
    }

    @Override
    public void biasedSquaredDeviationsF32(float[] z, int zOff, float[] bias, double[] mean, double[] q, int n) {
        for (int j = 0; j < n; j++) {
            float v = z[zOff + j] + bias[j];
            double d = v - mean[j];
            q[j] += d * d;
        }
    }

    @Override
    public void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int off,
            int n) {
        for (int j = 0; j < n; j++) {
            float v = ((z[off + j] + bias[j]) - mu[j]) * scale[j] + shift[j];
            y[off + j] = v > 0f ? v : 0f;
        }
    }

    @Override
    public void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int off, int n) {
        for (int j = 0; j < n; j++) {
            float dy = y[off + j] > 0f ? g[off + j] : 0f;
            float xc = (z[off + j] + bias[j]) - mu[j];
            sumDy[j] += dy;
            sumDyXc[j] += dy * (double) xc;
        }
    }

    @Override
    public void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k,
            float[] b, float[] c, float[] dz, double[] colSum, int off, int n) {
        for (int j = 0; j < n; j++) {
            float dy = y[off + j] > 0f ? g[off + j] : 0f;
            float xc = (z[off + j] + bias[j]) - mu[j];
            float d = k[j] * dy + b[j] * xc + c[j];
            dz[off + j] = d;
            colSum[j] += d;
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
