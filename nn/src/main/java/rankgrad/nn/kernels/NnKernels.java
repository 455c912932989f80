package rankgrad.nn.kernels;

/**
 * The hot loops of nn's fused bias + batch norm + ReLU node ({@code ops.AffineBatchNormRelu}) and
 * of its Adam optimizer, behind one interface with two implementations: {@link ScalarNnKernels}
 * (plain Java, always present, the test oracle) and {@code VectorNnKernels} (Panama Vector API),
 * chosen once by {@link NnKernelProvider}.
 *
 * <p>Unlike the general array kernels of {@code rankgrad.simd.Kernels}, every kernel here gives
 * its scalar reference's bits exactly: each float32 operation is rounded on its own (no fused
 * multiply-add) and each float64 accumulator sums its own column in row order, so only the loop
 * over columns is vectorized. The batch-norm kernels work on one row of an n x c matrix (columns
 * j &lt; n of the row starting at {@code off}; per-column arrays are indexed by j alone); their
 * callers split the rows with {@code RowChunks}. Every implementation is stateless and
 * thread-safe.
 */
public interface NnKernels {

    /** A short name for logs, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /**
     * Column sums of one row of a biased pre-activation, the first pass of batch-norm statistics:
     * sum[j] += (double) (z[zOff+j] + bias[j]) for j &lt; n, the float32 sum rounded once before it
     * is widened (the bits an {@code addF32} of the bias followed by a widening sum give).
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
     * where relu(v) = v for v &gt; 0, else +0 (NaN gives +0, as {@code Kernels.reluF32}).
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
}
