package rankgrad.ltr.rank;

import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * Soft sort by projection onto the permutahedron (Blondel et al., ICML 2020, Sec. 4-5;
 * docs/design.md §3.11) as a custom-gradient node: per query of m documents, with x the scores
 * sorted descending, rho = (m, ..., 1), w = rho / eps,
 * <pre>
 *   s = P_Psi(rho / eps, x):   quadratic  s = w - v_Q(w, x);   entropic  s = w - v_E(w, x)
 * </pre>
 * written by position (s_1 the soft largest). As eps -&gt; 0 it is the descending sort; as eps
 * grows every value approaches the query's mean (quadratic). The output of query q occupies its
 * documents' slots of the flat batch, by position, not by document.
 *
 * <p>The backward is the exact vector-Jacobian product: ds_p/dx_j = 1/|B| (quadratic) or
 * softmax(x_B)_j (entropic) for j in the isotonic block B of position p, routed back through the
 * sort. fast-soft-sort's numpy {@code SoftSort} with {@code regularization="kl"} weights the block
 * with softmax(w_B) instead, which is not the derivative of its own forward (central differences
 * of its forward agree with this class; docs/operators.md, the fixture test).
 *
 * <pre>{@code
 * Var sorted = SoftSort.of(batch, Regularization.QUADRATIC, 0.1).apply(scores);
 * }</pre>
 *
 * <p>Cost, arithmetic and threads as {@link SoftRank}. Thread-safety: immutable.
 */
public final class SoftSort extends PermutahedronProjection {

    private SoftSort(QueryBatch batch, Regularization regularization, double epsilon) {
        super("soft sort strength epsilon", batch, regularization, epsilon);
    }

    /** The operator for {@code batch} with {@code regularization} and strength {@code epsilon} &gt; 0. */
    public static SoftSort of(QueryBatch batch, Regularization regularization, double epsilon) {
        return new SoftSort(batch, regularization, epsilon);
    }

    @Override
    PermutahedronKernel.State project(Tensor scores, double[] theta, int q, double[] out) {
        return PermutahedronKernel.sort(theta, PermutahedronKernel.order(scores, theta, batch.start(q), batch.size(q), true),
                batch.start(q), batch.size(q), epsilon, regularization, out);
    }

    @Override
    void queryVjp(PermutahedronKernel.State state, double[] g, int q, double[] out) {
        PermutahedronKernel.sortVjp(state, g, batch.start(q), batch.size(q), out);
    }

    /** "soft-sort-q" or "soft-sort-e". */
    @Override
    public String name() {
        return "soft-sort-" + regularization.letter();
    }
}
