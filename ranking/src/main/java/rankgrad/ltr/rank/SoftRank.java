package rankgrad.ltr.rank;

import java.math.BigDecimal;
import java.util.Objects;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * Soft ranks by projection onto the permutahedron (Blondel, Teboul, Berthet &amp; Djolonga, ICML
 * 2020, "Fast Differentiable Sorting and Ranking", Sec. 4-5; docs/design.md §3.11) as a
 * custom-gradient node: per query of m documents, with rho = (m, m - 1, ..., 1) and strength
 * epsilon &gt; 0,
 * <pre>
 *   r = P_Psi(-s / eps, rho),   P_Psi(z, w) = argmin_{mu in P(w)} Psi-distance(mu, z)
 *   quadratic (Psi = Q):  r = z - v_Q(z_sigma, rho)_{sigma^-1},            z = -s / eps
 *   entropic  (Psi = E):  r = exp(z - v_E(z_sigma, log rho)_{sigma^-1})
 * </pre>
 * with sigma the descending sort of z and v the isotonic solutions of Sec. 5 (pool adjacent
 * violators, {@link Regularization}). Rank 1 is the highest score, as everywhere in rankgrad
 * (fast-soft-sort's {@code direction="DESCENDING"}). The ranks lie in the permutahedron of rho:
 * they sum to m (m + 1) / 2, every one is in [1, m]; as eps -&gt; 0 they become the exact ranks,
 * as eps grows they all approach (m + 1) / 2. Tied scores get equal ranks.
 *
 * <p>The backward is the exact vector-Jacobian product (Sec. 5: the isotonic Jacobian is block
 * diagonal with constant blocks 1/|B|, or softmax rows for E): dL/ds = -(g - pool(g)) / eps for
 * quadratic, and the same with g r in place of g and softmax-weighted pools for entropic.
 *
 * <pre>{@code
 * Var ranks = SoftRank.of(batch, Regularization.QUADRATIC, 0.1).apply(scores);
 * }</pre>
 *
 * <p>Cost per query: forward one sort, O(m log m), then O(m); backward O(m) time and the forward's
 * O(m) residuals (the permutation, the blocks, for E the softmax weights and ranks). Queries run
 * in parallel tasks fixed by the batch. Arithmetic is float64 for float32 and float64 scores,
 * rounded once to the scores' dtype. No vector kernel: the sort and PAV are sequential and
 * data-dependent, and the O(m) passes are gathers and scatters through the permutation (the
 * benchmark in docs/operators.md shows the sort and PAV take most of the time). Thread-safety:
 * immutable.
 */
public final class SoftRank extends PermutahedronProjection {
    /** fast-soft-sort's default regularization strength. */
    public static final double DEFAULT_EPSILON = 1.0;

    private SoftRank(QueryBatch batch, Regularization regularization, double epsilon) {
        super("soft rank strength epsilon", batch, regularization, epsilon);
    }

    /** The operator for {@code batch} with {@code regularization} and strength {@code epsilon} &gt; 0. */
    public static SoftRank of(QueryBatch batch, Regularization regularization, double epsilon) {
        return new SoftRank(batch, regularization, epsilon);
    }

    @Override
    PermutahedronKernel.State project(Tensor scores, double[] theta, int q, double[] out) {
        return PermutahedronKernel.rank(theta, PermutahedronKernel.order(scores, theta, batch.start(q), batch.size(q), false),
                batch.start(q), batch.size(q), epsilon, regularization, out);
    }

    @Override
    void queryVjp(PermutahedronKernel.State state, double[] g, int q, double[] out) {
        PermutahedronKernel.rankVjp(state, g, batch.start(q), batch.size(q), epsilon, out);
    }

    /** The operator as {@link DifferentiableRanks}, for the metric losses ("softrank-q:0.1"). */
    record Operator(Regularization regularization, double epsilon) implements DifferentiableRanks {
        Operator {
            Objects.requireNonNull(regularization, "regularization");
            Inputs.requirePositiveFinite("soft rank strength epsilon", epsilon);
        }

        @Override
        public String name() {
            return "softrank-" + regularization.letter() + ":" + BigDecimal.valueOf(epsilon).stripTrailingZeros().toPlainString();
        }

        @Override
        public boolean exact() {
            return false;
        }

        @Override
        public Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys) {
            SoftRank op = SoftRank.of(batch, regularization, epsilon);
            Result<Saved> result = op.forward(scores);
            return new Ranked() {
                @Override
                public Tensor ranks() {
                    return result.output();
                }

                @Override
                public Tensor vjp(Tensor rankGrad) {
                    return op.vjp(result.residuals(), rankGrad);
                }
            };
        }
    }

    /** "soft-rank-q" or "soft-rank-e". */
    @Override
    public String name() {
        return "soft-rank-" + regularization.letter();
    }
}
