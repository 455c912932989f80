package rankgrad.ltr.rank;

import java.util.Objects;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;

/**
 * What {@link SoftRank} and {@link SoftSort} share as custom-gradient nodes: a projection onto the
 * permutahedron per query (Blondel et al., ICML 2020, Sec. 4-5; docs/design.md §3.11), computed
 * in float64 by {@link PermutahedronKernel} in parallel tasks fixed by the batch and rounded once
 * to the scores' dtype, with the exact vector-Jacobian product from each query's saved
 * permutation and isotonic blocks. A subclass says which projection (ranks or sorted values) and
 * its per-query backward. Thread-safety: immutable.
 */
public abstract sealed class PermutahedronProjection implements Op<PermutahedronProjection.Saved>
        permits SoftRank, SoftSort {

    /** What backward needs: each query's permutation and blocks, and the scores (for shape and dtype). */
    public static final class Saved {
        private final PermutahedronKernel.State[] states;
        private final Tensor scores;

        private Saved(PermutahedronKernel.State[] states, Tensor scores) {
            this.states = states;
            this.scores = scores;
        }
    }

    final QueryBatch batch;
    final Regularization regularization;
    final double epsilon;

    PermutahedronProjection(String strengthName, QueryBatch batch, Regularization regularization, double epsilon) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.regularization = Objects.requireNonNull(regularization, "regularization");
        this.epsilon = Inputs.requirePositiveFinite(strengthName, epsilon);
    }

    /** Query {@code q}'s projection of {@code theta} (the scores widened to float64) into {@code out}. */
    abstract PermutahedronKernel.State project(Tensor scores, double[] theta, int q, double[] out);

    /** Query {@code q}'s dL/ds from its output gradient {@code g}, into {@code out}. */
    abstract void queryVjp(PermutahedronKernel.State state, double[] g, int q, double[] out);

    /** {@code Var.apply(this, scores)}. */
    public Var apply(Var scores) {
        return Var.apply(this, scores);
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name(), scores, batch);
        double[] theta = scores.toDoubleArray();
        double[] out = new double[theta.length];
        PermutahedronKernel.State[] states = new PermutahedronKernel.State[batch.queries()];
        PermutahedronKernel.forEachQuery(batch, q -> states[q] = project(scores, theta, q, out));
        return Op.result(Tensor.of(out, scores.shape()).to(scores.dtype()), new Saved(states, scores));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        return new Tensor[] {vjp(saved, gradOut)};
    }

    /** dL/ds from the output's gradient, in the scores' dtype. */
    Tensor vjp(Saved saved, Tensor outputGrad) {
        double[] g = outputGrad.toDoubleArray();
        double[] out = new double[g.length];
        PermutahedronKernel.forEachQuery(batch, q -> queryVjp(saved.states[q], g, q, out));
        return Tensor.of(out, saved.scores.shape()).to(saved.scores.dtype());
    }

    public Regularization regularization() {
        return regularization;
    }

    public double epsilon() {
        return epsilon;
    }
}
