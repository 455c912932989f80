package rankgrad.ltr.rank;

import java.util.Objects;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
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
public final class SoftSort implements Op<SoftSort.Saved> {

    /** What backward needs: each query's permutation and blocks. */
    public static final class Saved {
        private final PermutahedronKernel.State[] states;
        private final Tensor scores;

        private Saved(PermutahedronKernel.State[] states, Tensor scores) {
            this.states = states;
            this.scores = scores;
        }
    }

    private final QueryBatch batch;
    private final Regularization regularization;
    private final double epsilon;

    private SoftSort(QueryBatch batch, Regularization regularization, double epsilon) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.regularization = Objects.requireNonNull(regularization, "regularization");
        this.epsilon = Inputs.requirePositiveFinite("soft sort strength epsilon", epsilon);
    }

    /** The operator for {@code batch} with {@code regularization} and strength {@code epsilon} &gt; 0. */
    public static SoftSort of(QueryBatch batch, Regularization regularization, double epsilon) {
        return new SoftSort(batch, regularization, epsilon);
    }

    /** {@code Var.apply(this, scores)}. */
    public Var apply(Var scores) {
        return Var.apply(this, scores);
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name(), scores, batch);
        double[] theta = scores.toDoubleArray();
        double[] sorted = new double[theta.length];
        PermutahedronKernel.State[] states = new PermutahedronKernel.State[batch.queries()];
        PermutahedronKernel.forEachQuery(batch, q -> states[q] =
                PermutahedronKernel.sort(theta, PermutahedronKernel.order(scores, theta, batch.start(q), batch.size(q), true),
                        batch.start(q), batch.size(q), epsilon, regularization, sorted));
        return Op.result(Tensor.of(sorted, scores.shape()).to(scores.dtype()), new Saved(states, scores));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        double[] g = gradOut.toDoubleArray();
        double[] out = new double[g.length];
        PermutahedronKernel.forEachQuery(batch, q ->
                PermutahedronKernel.sortVjp(saved.states[q], g, batch.start(q), batch.size(q), out));
        return new Tensor[] {Tensor.of(out, saved.scores.shape()).to(saved.scores.dtype())};
    }

    public Regularization regularization() {
        return regularization;
    }

    public double epsilon() {
        return epsilon;
    }

    /** "soft-sort-q" or "soft-sort-e". */
    @Override
    public String name() {
        return "soft-sort-" + regularization.letter();
    }
}
