package rankgrad.simd;

/**
 * The hot loops of the engine, behind one interface with two implementations: {@link ScalarKernels}
 * (plain Java, always present, the test oracle) and {@code VectorKernels} (Panama Vector API),
 * chosen once by {@link KernelProvider}.
 *
 * <p>Conventions: arrays are row-major; {@code *Off} arguments are start offsets; {@code out} may
 * be the same array as an input when the ranges coincide exactly. Names carry op and dtype.
 * Implementations may differ from the scalar oracle by floating-point reassociation (different
 * summation order, fused multiply-add) and by at most a few ulps in transcendental functions.
 * Every implementation is stateless and thread-safe.
 */
public interface Kernels {

    /** A short name for logs and benchmark labels, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /** sum_i a[aOff+i] * b[bOff+i]. */
    float dotF32(float[] a, int aOff, float[] b, int bOff, int n);

    /** sum_i a[off+i]. */
    float sumF32(float[] a, int off, int n);

    /** out[i] = a[i] + b[i]. */
    void addF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n);

    /** out[i] = a[i] * b[i]. */
    void mulF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n);

    /** out[i] = a[i] + s. */
    void addScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n);

    /** out[i] = a[i] * s. */
    void mulScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n);

    /** y[i] += alpha * x[i]. */
    void axpyF32(float alpha, float[] x, int xOff, float[] y, int yOff, int n);

    /** out[i] = exp(a[i]). */
    void expF32(float[] a, int aOff, float[] out, int outOff, int n);

    /** out[i] = 1 / (1 + exp(-a[i])), without overflow for large |a[i]|. */
    void sigmoidF32(float[] a, int aOff, float[] out, int outOff, int n);

    /** out[i] = tanh(a[i]). */
    void tanhF32(float[] a, int aOff, float[] out, int outOff, int n);

    /** out[i] = max(a[i], 0). */
    void reluF32(float[] a, int aOff, float[] out, int outOff, int n);

    /** out[i] = a[i] > 0 ? g[i] : 0 (the backward of relu, given its input a). */
    void reluBackwardF32(float[] a, int aOff, float[] g, int gOff, float[] out, int outOff, int n);

    /**
     * Column sums of one row of a biased pre-activation, the first pass of batch-norm statistics:
     * sum[j] += (double) (z[zOff+j] + bias[j]) for j &lt; n, the float32 sum rounded once before it
     * is widened (the bits an {@link #addF32} of the bias followed by a widening sum give).
     */
    void biasedColumnSumsF32(float[] z, int zOff, float[] bias, double[] sum, int n);

    /**
     * The second pass of batch-norm statistics over one row: with v = (double) (z[zOff+j] + bias[j]),
     * d = v - mean[j] and q[j] += d * d, each operation rounded on its own (no fused multiply-add).
     */
    void biasedSquaredDeviationsF32(float[] z, int zOff, float[] bias, double[] mean, double[] q, int n);

    /**
     * The forward pass of bias + batch norm + ReLU over one row, in float32 with each operation
     * rounded on its own: y[off+j] = relu(((z[off+j] + bias[j]) - mu[j]) * scale[j] + shift[j]),
     * where relu(v) = v for v &gt; 0, else +0 (NaN gives +0, as {@link #reluF32}).
     */
    void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int off,
            int n);

    /**
     * The column sums the batch-norm backward needs, over one row of the fused bias + batch norm +
     * ReLU node: with dy = y[off+j] &gt; 0 ? g[off+j] : 0 (the ReLU backward) and
     * xc = (z[off+j] + bias[j]) - mu[j] in float32, sumDy[j] += dy and sumDyXc[j] += dy * (double) xc
     * in float64 (each operation rounded on its own).
     */
    void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int off, int n);

    /**
     * The input gradient of the fused bias + batch norm + ReLU node over one row, with the column
     * sums of its result (the bias gradient): with dy and xc as in {@link #batchNormReluSumsF32},
     * d = (k[j] * dy + b[j] * xc) + c[j] in float32 (each operation rounded on its own),
     * dz[off+j] = d and colSum[j] += d in float64.
     */
    void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k, float[] b,
            float[] c, float[] dz, double[] colSum, int off, int n);

    /**
     * One Adam step in place over {@code n} parameters p with gradients g and moments m, v
     * (Kingma and Ba 2015, Algorithm 1, in PyTorch's arithmetic): with q = shrink p and
     * h = g + l2 q,
     * <pre>
     *   m = beta1 m + (1 - beta1) h,   v = beta2 v + ((1 - beta2) h) h,
     *   p = q - stepSize m / (sqrt(v) / bc2Sqrt + eps),
     * </pre>
     * and each of p, m, v stored as 0 when its result is subnormal. Every operation is rounded on its
     * own (no fused multiply-add), so every implementation gives the same bits.
     */
    void adamF32(float[] p, float[] g, float[] m, float[] v, int n, AdamCoefficients c);

    /**
     * C = op(A) op(B), overwriting C (m x n). op(A) is m x k: A is stored m x k, or k x m when
     * {@code transA}; op(B) is k x n: B is stored k x n, or n x k when {@code transB}.
     * Multi-threaded over blocks of C whose partition depends only on (m, n, k), and each element's
     * sum runs in a fixed order, so results are bit-identical for any thread count.
     */
    void gemmF32(boolean transA, boolean transB, int m, int n, int k, float[] a, float[] b, float[] c);

    /** {@link #gemmF32} in float64. */
    void gemmF64(boolean transA, boolean transB, int m, int n, int k, double[] a, double[] b, double[] c);
}
