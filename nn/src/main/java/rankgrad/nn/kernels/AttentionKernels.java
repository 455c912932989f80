package rankgrad.nn.kernels;

/**
 * The hot loops of listwise self-attention ({@code ops.AttentionScores}, {@code
 * ops.RaggedSoftmax}, {@code ops.AttentionMix} and the fused {@code ops.ScaledDotProductAttention})
 * on one list and head at a time, behind one interface with two implementations: {@link
 * ScalarAttentionKernels} (plain Java, always present, the test oracle) and {@code
 * VectorAttentionKernels} (Panama Vector API), chosen once by {@link NnKernelProvider#attention()}.
 * The three products of attention and its gradients are {@link #scoresF64} (S = scale A B^T),
 * {@link #mixF64} (O += scale P B) and {@link #mixTransposedF64} (O += scale P^T A); the softmax is
 * {@link #softmaxF64} and {@link #softmaxBackwardF64}.
 *
 * <p>Float32 to train, float64 to check: the products come in both dtypes, {@link #scoresF32},
 * {@link #mixF32} and {@link #mixTransposedF32} being the float64 formulas term for term in float32
 * arithmetic (every product and every sum rounded to float, the scale too), so float32 tensors are
 * read and written where they lie, twice the lanes of a vector, while float64 tensors (the gradient
 * checks) keep float64 sums. The softmax has one dtype, float64: a row of float32 logits widens
 * exactly, and the caller rounds the weights once to float32.
 *
 * <p>Every implementation gives the scalar reference's bits exactly, on any vector width:
 * <ul>
 *   <li>The products sum each output element on its own, in the order written below, one
 *       rounded multiply and one rounded add per term (no fused multiply-add): a vector lane
 *       holds one output element, so only independent elements share a vector and no sum is ever
 *       split across lanes.
 *   <li>The softmax sums a row in {@value #SUM_LANES} interleaved partial sums (element k goes to
 *       partial k mod {@value #SUM_LANES}, each partial summed in index order), then adds the
 *       partials as ((p0 + p4) + (p2 + p6)) + ((p1 + p5) + (p3 + p7)): the order of {@value
 *       #SUM_LANES} float64 lanes whatever the hardware's width, which the scalar reference
 *       performs with eight locals. Its exponential is {@code rankgrad.simd.internal.LaneMath#exp}
 *       (the bits of the Vector API kernels' exp), not {@code Math.exp}.
 * </ul>
 *
 * <p>Matrices are row-major with row stride {@code stride} (the N x w projections of attention:
 * a head reads d &lt;= stride consecutive columns); score blocks are m x m, row-major, dense. Every
 * implementation is thread-safe (scratch, where one needs it, is per thread).
 */
public interface AttentionKernels {
    /** Partial sums of a softmax row: the float64 lanes of a 512-bit vector. */
    int SUM_LANES = 8;

    /** A short name for logs, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /**
     * Attention logits of one list and head (Vaswani et al. 2017, Eq. 1): for i, j &lt; m,
     * <pre>
     *   s[sOff + i m + j] = scale * (sum_{c &lt; d} a[aOff + i stride + c] * b[bOff + j stride + c])
     * </pre>
     * the sum from c = 0 upwards starting at 0. Also the weights' gradient of the mix
     * (dP = dO V^T, scale 1).
     */
    void scoresF64(double[] a, int aOff, double[] b, int bOff, int stride, int m, int d, double scale, double[] s,
            int sOff);

    /**
     * Weighted rows (the mix O = P V, and dQ = scale dS K): for i &lt; m, c &lt; d,
     * <pre>
     *   out[outOff + i stride + c] += (scale * p[pOff + i m + j]) * b[bOff + j stride + c]   for j = 0, 1, .., m - 1
     * </pre>
     * added one term at a time onto the element's value.
     */
    void mixF64(double[] p, int pOff, double[] b, int bOff, int stride, int m, int d, double scale, double[] out,
            int outOff);

    /**
     * Weighted rows through the transposed weights (dV = P^T dO, and dK = scale dS^T Q): for
     * j &lt; m, c &lt; d,
     * <pre>
     *   out[outOff + j stride + c] += (scale * p[pOff + i m + j]) * a[aOff + i stride + c]   for i = 0, 1, .., m - 1
     * </pre>
     * added one term at a time onto the element's value.
     */
    void mixTransposedF64(double[] p, int pOff, double[] a, int aOff, int stride, int m, int d, double scale,
            double[] out, int outOff);

    /**
     * {@link #scoresF64} in float32: for i, j &lt; m,
     * <pre>
     *   s[sOff + i m + j] = scale * (sum_{c &lt; d} a[aOff + i stride + c] * b[bOff + j stride + c])
     * </pre>
     * every product, sum and the scaling rounded to float, the sum from c = 0 upwards starting at 0.
     */
    void scoresF32(float[] a, int aOff, float[] b, int bOff, int stride, int m, int d, float scale, float[] s,
            int sOff);

    /**
     * {@link #mixF64} in float32: for i &lt; m, c &lt; d,
     * <pre>
     *   out[outOff + i stride + c] += (scale * p[pOff + i m + j]) * b[bOff + j stride + c]   for j = 0, 1, .., m - 1
     * </pre>
     * added one term at a time onto the element's value, the weight (scale * p), the product and
     * the sum each rounded to float.
     */
    void mixF32(float[] p, int pOff, float[] b, int bOff, int stride, int m, int d, float scale, float[] out,
            int outOff);

    /**
     * {@link #mixTransposedF64} in float32: for j &lt; m, c &lt; d,
     * <pre>
     *   out[outOff + j stride + c] += (scale * p[pOff + i m + j]) * a[aOff + i stride + c]   for i = 0, 1, .., m - 1
     * </pre>
     * added one term at a time onto the element's value, the weight, the product and the sum each
     * rounded to float.
     */
    void mixTransposedF32(float[] p, int pOff, float[] a, int aOff, int stride, int m, int d, float scale,
            float[] out, int outOff);

    /**
     * Softmax of one row x[off .. off+n-1] into y: with mx = max_k x_k (NaN if any is NaN),
     * y_k = e_k / sum_k e_k, e_k = exp(x_k - mx), the sum in the {@value #SUM_LANES}-lane order of
     * this interface. An empty row writes nothing. y may be x (the row is normalized in place).
     */
    void softmaxF64(double[] x, double[] y, int off, int n);

    /**
     * The softmax's input gradient over one row: dx_k = y_k * (g_k - t), t = sum_k g_k * y_k in the
     * {@value #SUM_LANES}-lane order, for k in off .. off+n-1. dx may be g.
     */
    void softmaxBackwardF64(double[] y, double[] g, double[] dx, int off, int n);
}
