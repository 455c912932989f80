package rankgrad.ltr.rank;

import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * Differentiable ranks of a query: scores -&gt; rank variables, with a vector-Jacobian product. The
 * one interface through which every exact metric ({@link RankMetric}) is applied through every rank
 * operator: the loss registry's {@code METRIC~OPERATOR} names (docs/operators.md) pair a metric
 * with any implementation, and a new rank operator (NeuralSort, a sorting network) is one class
 * implementing this plus one row of {@code rankgrad.ltr.loss.RankOperators}.
 *
 * <p>The contract, for a ragged batch ({@link QueryBatch}: the queries' documents end to end):
 * <ul>
 *   <li>{@link #forward} returns one rank variable r_i per document, in the scores' shape and
 *       dtype; the ranks of a query depend on that query's scores only. Rank 1 is the best: a
 *       higher score never gets a larger rank than a lower one in the limit the operator relaxes,
 *       and r_i stays in [1, m] for a query of m documents (the metrics take 1 / log2(1 + r) and
 *       1 / r). {@link #exact()} operators return a permutation of 1..m per query.</li>
 *   <li>{@link Ranked#vjp} maps dL/dr (the ranks' shape and dtype) to dL/ds for the scores of that
 *       forward call. It is the exact gradient of {@link Ranked#ranks()} for a smooth operator;
 *       a surrogate operator (twin-sigmoid types 2 and 3) documents what it returns instead.</li>
 *   <li>{@code tieKeys} are per query a permutation of 0..m-1 (flat over the batch, {@link
 *       TieBreak#batchKeys}), drawn afresh for each call by the loss: an exact operator breaks
 *       score ties with them (smaller key ranks first) and always gets them; an operator whose
 *       ranks are not exact ignores them and must accept null.</li>
 *   <li>float64 scores are the reference that gradient checks use; float32 scores may run in
 *       float32 kernels (SIMD, a GPU backend). Results do not depend on the number of threads. An
 *       instance is immutable; a {@link Ranked} belongs to the graph node that made it.</li>
 * </ul>
 *
 * <pre>{@code
 * DifferentiableRanks soft = DifferentiableRanks.softRank(Regularization.QUADRATIC, 0.1);
 * DifferentiableRanks.Ranked ranked = soft.forward(scores, batch, TieBreak.batchKeys(42, 0, batch.offsets()));
 * Tensor r = ranked.ranks();
 * Tensor dLds = ranked.vjp(dLdr);
 * }</pre>
 */
public interface DifferentiableRanks {

    /** One forward call: the rank variables and their vector-Jacobian product. */
    interface Ranked {
        /** r, one per document, in the scores' shape and dtype. */
        Tensor ranks();

        /** dL/ds from {@code rankGrad} = dL/dr, in the scores' shape and dtype. */
        Tensor vjp(Tensor rankGrad);
    }

    /** The operator's name in loss names: "twin3", "sigmoid:10", "softrank-q:0.1". */
    String name();

    /** Whether the forward ranks are exact: a permutation of 1..m per query. */
    boolean exact();

    /** The ranks of {@code scores} (one per document of {@code batch}); see the class comment for {@code tieKeys}. */
    Ranked forward(Tensor scores, QueryBatch batch, int[] tieKeys);

    /** The same operator with its pairwise work on {@code backend}; operators without pairwise work return themselves. */
    default DifferentiableRanks withBackend(PairwiseBackend backend) {
        return this;
    }

    /**
     * Twin-sigmoid ranks (Yu et al. 2020, Eq. 12): exact forward ranks with ties broken by the tie
     * keys, backward of {@code type} with steepness {@code alphaB} (Eq. 11, 20, 21), on {@code backend}.
     */
    static DifferentiableRanks twinSigmoid(BackwardType type, double alphaB, PairwiseBackend backend) {
        return new PairwiseRanks.TwinSigmoid(type, alphaB, backend);
    }

    /** Approximate ranks pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i)) (Qin et al.; Bruch Eq. 6), on {@code backend}. */
    static DifferentiableRanks sigmoid(double alpha, PairwiseBackend backend) {
        return new PairwiseRanks.Sigmoid(alpha, backend);
    }

    /** Soft ranks by projection onto the permutahedron ({@link SoftRank}; Blondel et al. 2020). */
    static DifferentiableRanks softRank(Regularization regularization, double epsilon) {
        return new SoftRank.Operator(regularization, epsilon);
    }

    /**
     * Soft ranks of a relaxed permutation matrix P (NeuralSort, SoftSort): r_j = sum_i (i + 1) P_ij /
     * sum_i P_ij, the mean position of document j under P's column j ({@link RelaxedSort#expectedRanks}).
     */
    static DifferentiableRanks relaxedSort(RelaxedSort sort) {
        return new RelaxedSortRanks(sort);
    }

    /**
     * The ranks of a fixed {@link RankMode} on {@code backend}, tie keys ignored (a twin-sigmoid
     * mode carries its own): how the losses built on a mode (ApproxNDCG, SDCG, the twin-sigmoid
     * losses) reach the metric node.
     */
    static DifferentiableRanks of(RankMode mode, PairwiseBackend backend) {
        return new PairwiseRanks.Fixed(mode, backend);
    }
}
