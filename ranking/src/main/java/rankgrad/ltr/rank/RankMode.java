package rankgrad.ltr.rank;

import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * How rank variables are computed from the scores of a ragged batch, and how a gradient with
 * respect to them flows back to the scores: the three rank operators of the papers, each a forward
 * and a backward call of a {@link PairwiseBackend}, float32 scores in float32 and float64 scores in
 * float64.
 * <ul>
 *   <li>{@link TwinSigmoid}: the twin-sigmoid ranks pi^+ (Yu et al. 2020, Eq. 12): exact ranks with
 *       seeded tie keys, backward by the pair derivative of a {@link BackwardType} (Eq. 11, 20, 21);</li>
 *   <li>{@link Approximate}: the approximate ranks pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i))
 *       (Qin et al.; Bruch et al. Eq. 6; Wu et al.'s SDCG ranks with a = alpha), backward their exact
 *       gradient;</li>
 *   <li>{@link SmoothedHinge}: the smoothed-hinge ranks of SHF-SDCG (Wu et al. Eq. 12-15, DESIGN
 *       section 3.4), backward their exact gradient.</li>
 * </ul>
 * Ranks and gradients have the scores' shape and dtype; the work is O(m^2) time and O(m) memory per
 * query (exact ranks: a sort, O(m log m)).
 */
public sealed interface RankMode permits RankMode.TwinSigmoid, RankMode.Approximate, RankMode.SmoothedHinge {

    /** The rank variables r of {@code scores} on {@code batch}. */
    Tensor ranks(PairwiseBackend backend, Tensor scores, QueryBatch batch);

    /** dL/ds from {@code rankGrad} = dL/dr at {@code scores}, through this mode's backward. */
    Tensor scoreGradient(PairwiseBackend backend, Tensor scores, QueryBatch batch, Tensor rankGrad);

    /** Whether the ranks are exact, a permutation of 1..m per query, so that positions can be read from them. */
    boolean exact();

    /**
     * Twin-sigmoid ranks: forward exact, r_i = 1 + #{j : s_j &gt; s_i, or s_j == s_i and key_j &lt; key_i}
     * ({@link PairwiseBackend#exactRanksF32}); backward {@link PairwiseBackend#rankGradientF32} with
     * {@code type} and steepness alpha_b.
     *
     * @param tieKeys per query a permutation of 0..m-1, flat over the batch ({@link TieBreak#batchKeys}),
     *     drawn afresh for each forward call
     */
    record TwinSigmoid(BackwardType type, double alphaB, int[] tieKeys) implements RankMode {
        public TwinSigmoid {
            Objects.requireNonNull(type, "type");
            Inputs.requirePositiveFinite("alpha_b", alphaB);
            Objects.requireNonNull(tieKeys, "tieKeys");
        }

        @Override
        public Tensor ranks(PairwiseBackend backend, Tensor scores, QueryBatch batch) {
            if (tieKeys.length != batch.documents()) {
                throw new IllegalArgumentException("twin-sigmoid ranks: " + tieKeys.length + " tie keys for a batch of "
                        + batch.documents() + " documents");
            }
            Tensor ranks = Tensor.zerosLike(scores);
            if (scores.dtype() == DType.F32) {
                backend.exactRanksF32(scores.f32(), batch.offsets(), tieKeys, ranks.f32());
            } else {
                backend.exactRanksF64(scores.f64(), batch.offsets(), tieKeys, ranks.f64());
            }
            return ranks;
        }

        @Override
        public Tensor scoreGradient(PairwiseBackend backend, Tensor scores, QueryBatch batch, Tensor rankGrad) {
            return rankGradient(backend, type, alphaB, scores, batch, rankGrad);
        }

        @Override
        public boolean exact() {
            return true;
        }
    }

    /**
     * Approximate ranks pi^- with sigmoid steepness alpha ({@link PairwiseBackend#approxRanksF32}),
     * backward their exact gradient ({@link PairwiseBackend#rankGradientF32}, type 1, same alpha).
     */
    record Approximate(double alpha) implements RankMode {
        public Approximate {
            Inputs.requirePositiveFinite("alpha", alpha);
        }

        @Override
        public Tensor ranks(PairwiseBackend backend, Tensor scores, QueryBatch batch) {
            Tensor ranks = Tensor.zerosLike(scores);
            if (scores.dtype() == DType.F32) {
                backend.approxRanksF32(scores.f32(), batch.offsets(), (float) alpha, ranks.f32());
            } else {
                backend.approxRanksF64(scores.f64(), batch.offsets(), alpha, ranks.f64());
            }
            return ranks;
        }

        @Override
        public Tensor scoreGradient(PairwiseBackend backend, Tensor scores, QueryBatch batch, Tensor rankGrad) {
            return rankGradient(backend, BackwardType.TYPE1, alpha, scores, batch, rankGrad);
        }

        @Override
        public boolean exact() {
            return false;
        }
    }

    /**
     * The smoothed-hinge ranks rhat of SHF-SDCG with slope a = alpha ({@link
     * PairwiseBackend#hingeRanksF32}), backward their exact gradient ({@link
     * PairwiseBackend#hingeRankGradientF32}). They read the batch's labels.
     */
    record SmoothedHinge(double alpha) implements RankMode {
        public SmoothedHinge {
            Inputs.requirePositiveFinite("alpha (rank smoothing)", alpha);
        }

        @Override
        public Tensor ranks(PairwiseBackend backend, Tensor scores, QueryBatch batch) {
            Tensor ranks = Tensor.zerosLike(scores);
            if (scores.dtype() == DType.F32) {
                backend.hingeRanksF32((float) alpha, scores.f32(), batch.labels(), batch.offsets(), ranks.f32());
            } else {
                backend.hingeRanksF64(alpha, scores.f64(), batch.labels(), batch.offsets(), ranks.f64());
            }
            return ranks;
        }

        @Override
        public Tensor scoreGradient(PairwiseBackend backend, Tensor scores, QueryBatch batch, Tensor rankGrad) {
            Tensor grad = Tensor.zerosLike(scores);
            if (scores.dtype() == DType.F32) {
                backend.hingeRankGradientF32((float) alpha, scores.f32(), batch.labels(), batch.offsets(),
                        rankGrad.f32(), grad.f32());
            } else {
                backend.hingeRankGradientF64(alpha, scores.f64(), batch.labels(), batch.offsets(), rankGrad.f64(),
                        grad.f64());
            }
            return grad;
        }

        @Override
        public boolean exact() {
            return false;
        }
    }

    /** dL/ds from dL/dr through {@link PairwiseBackend#rankGradientF32}, in the scores' dtype. */
    private static Tensor rankGradient(PairwiseBackend backend, BackwardType type, double alpha, Tensor scores,
            QueryBatch batch, Tensor rankGrad) {
        Tensor grad = Tensor.zerosLike(scores);
        if (scores.dtype() == DType.F32) {
            backend.rankGradientF32(type, (float) alpha, scores.f32(), batch.labels(), batch.offsets(), rankGrad.f32(),
                    grad.f32());
        } else {
            backend.rankGradientF64(type, alpha, scores.f64(), batch.labels(), batch.offsets(), rankGrad.f64(),
                    grad.f64());
        }
        return grad;
    }
}
