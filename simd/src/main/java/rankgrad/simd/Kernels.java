package rankgrad.simd;

/**
 * The general array kernels of the engine (elementwise maps, reductions, GEMM), behind one
 * interface with two implementations: {@link ScalarKernels} (plain Java, always present, the test
 * oracle) and {@code VectorKernels} (Panama Vector API), chosen once by {@link KernelProvider}.
 * A kernel that only one op family needs lives with that family, behind its own interface on the
 * same selection rule (nn's batch-norm and Adam kernels, the ranking pair kernels; docs/design.md
 * §2).
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
     * The index i &lt; n of the first NaN or infinity among a[off+i], or -1 when all are finite
     * (the trainer checks every gradient, weight and optimizer state after each step). Exact:
     * every implementation returns the scalar loop's index.
     */
    int firstNonFiniteF32(float[] a, int off, int n);

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
