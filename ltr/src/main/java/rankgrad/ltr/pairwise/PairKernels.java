package rankgrad.ltr.pairwise;

/**
 * The O(m) inner loops of the O(m^2) rank computations: one row of pair terms of one query,
 * summed on the fly so that no m x m array ever exists. Two implementations: {@link
 * ScalarPairKernels} (plain Java, the oracle, always present) and {@code VectorPairKernels}
 * (Panama Vector API), chosen once by {@link PairKernelProvider}.
 *
 * <p>Every method reads the documents {@code [off, off + m)} of the flat arrays of a batch; the
 * row's own document may lie in that range (its pair term is 0 or accounted for, see each
 * method). Notation: sigma(x) = 1 / (1 + e^{-x}), z_kj = s_k - s_j, sb = sigma(alpha z_kj),
 * u_kj = sign(y_k - y_j).
 *
 * <p>Implementations may differ from the scalar oracle by reassociation of the sums and by a few
 * ulps in exp; they are stateless and thread-safe.
 */
public interface PairKernels {

    /** A short name for logs and benchmark labels, e.g. "scalar" or "vector(512-bit)". */
    String name();

    /**
     * sum_{j in [off, off+m)} sigma(alpha (s_j - si)): the sigmoid part of the approximate rank
     * pi^- (Qin et al.; Bruch et al. Eq. 6). When the row's own document is in the range it adds
     * sigma(0) = 1/2, so pi^-(i) = 1/2 + this sum.
     */
    float sigmoidRowSumF32(float[] s, int off, int m, float si, float alpha);

    /** {@link #sigmoidRowSumF32} in float64. */
    double sigmoidRowSumF64(double[] s, int off, int m, double si, double alpha);

    /**
     * The gradient of sum_i g_i r_i with respect to s_k, where r_i = 1 + sum_{j != i}
     * (1 - h(s_i - s_j)) and the backward replaces dh/dz by the pair derivative d_kj of {@code
     * type} ({@link BackwardType}):
     * <ul>
     *   <li>TYPE1 (d symmetric): sum_j d_kj (g_j - g_k), d_kj = alpha sb (1 - sb);</li>
     *   <li>TYPE2, TYPE3 (d antisymmetric: d_jk = -d_kj): -sum_j d_kj (g_k + g_j).</li>
     * </ul>
     * The term j = k is zero in all three, so the row's own document may lie in the range.
     */
    float rankGradientRowF32(BackwardType type, float[] s, float[] y, float[] g, int off, int m,
            float sk, float yk, float gk, float alpha);

    /** {@link #rankGradientRowF32} in float64 (labels stay float32, as in a batch). */
    double rankGradientRowF64(BackwardType type, double[] s, float[] y, double[] g, int off, int m,
            double sk, float yk, double gk, double alpha);
}
