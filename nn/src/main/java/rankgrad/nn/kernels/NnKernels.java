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
 * over columns is vectorized. The batch-norm kernels work on rows [from, to) of a row-major matrix
 * of {@code cols} columns (element e = i*cols+j; per-column arrays are indexed by j alone); their
 * callers split the rows with {@code RowChunks}. Every implementation is stateless and
 * thread-safe.
 */
public interface NnKernels {

    /** A short name for logs, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /**
     * Column sums of rows [from, to) of a biased pre-activation z (rows of {@code cols} floats), the
     * first pass of batch-norm statistics: sum[j] += (double) (z[i*cols+j] + bias[j]) for each row i
     * in order, the float32 sum rounded once before it is widened (the bits an {@code addF32} of the
     * bias followed by a widening sum give).
     */
    void biasedColumnSumsF32(float[] z, float[] bias, double[] sum, int from, int to, int cols);

    /**
     * The second pass of batch-norm statistics over rows [from, to): with
     * v = (double) (z[i*cols+j] + bias[j]), d = v - mean[j] and q[j] += d * d for each row i in order,
     * each operation rounded on its own (no fused multiply-add).
     */
    void biasedSquaredDeviationsF32(float[] z, float[] bias, double[] mean, double[] q, int from, int to, int cols);

    /**
     * The forward pass of bias + batch norm + ReLU over rows [from, to), in float32 with each
     * operation rounded on its own: y[e] = relu(((z[e] + bias[j]) - mu[j]) * scale[j] + shift[j]) for
     * e = i*cols+j, where relu(v) = v for v &gt; 0, else +0 (NaN gives +0, as {@code Kernels.reluF32}).
     */
    void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int from,
            int to, int cols);

    /**
     * The column sums the batch-norm backward needs, over rows [from, to) of the fused bias + batch
     * norm + ReLU node: with dy = y[e] &gt; 0 ? g[e] : 0 (the ReLU backward) and
     * xc = (z[e] + bias[j]) - mu[j] in float32, sumDy[j] += dy and sumDyXc[j] += dy * (double) xc in
     * float64 (each operation rounded on its own), rows in order.
     */
    void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int from, int to, int cols);

    /**
     * The input gradient of the fused bias + batch norm + ReLU node over rows [from, to), with the
     * column sums of its result (the bias gradient): with dy and xc as in
     * {@link #batchNormReluSumsF32}, d = (k[j] * dy + b[j] * xc) + c[j] in float32 (each operation
     * rounded on its own), dz[e] = d and colSum[j] += d in float64, rows in order.
     */
    void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k, float[] b,
            float[] c, float[] dz, double[] colSum, int from, int to, int cols);

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
