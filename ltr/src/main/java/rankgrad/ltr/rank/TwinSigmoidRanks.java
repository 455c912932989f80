package rankgrad.ltr.rank;

import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * Twin-sigmoid ranks (Yu et al. 2020, Eq. 12) as a custom-gradient node: per query,
 * <pre>  pi^+(i) = 1 + sum_{j != i} (1 - sigma^+(s_i - s_j))</pre>
 * with the forward sigma^+ the step function (alpha_f -> infinity) and ties, -0.0 against +0.0
 * included, broken by the seeded permutation of {@link TieBreak}. The forward ranks are therefore
 * exact: a permutation of 1..m equal to sorting by score ({@link rankgrad.ltr.Ranking}). The
 * backward replaces d sigma^+ / dz by the pair derivative of {@link BackwardType} with alpha_b
 * (Eq. 11, 20, 21; default alpha_b = 1), in O(m^2) time and O(m) memory per query.
 *
 * <pre>{@code
 * TieBreak ties = TieBreak.seeded(42);
 * Var ranks = TwinSigmoidRanks.of(batch, BackwardType.TYPE1, 1.0, ties).apply(scores);
 * }</pre>
 *
 * <p>Types 2 and 3 read the batch's labels (u = sign(y_i - y_j)). The output has the input's
 * shape and dtype. Thread-safety: an instance may be applied from several threads; each forward
 * takes the next call number of its {@link TieBreak}.
 */
public final class TwinSigmoidRanks implements Op<Tensor> {
    private final QueryBatch batch;
    private final BackwardType type;
    private final double alphaB;
    private final TieBreak tieBreak;
    private final PairwiseBackend backend;

    private TwinSigmoidRanks(QueryBatch batch, BackwardType type, double alphaB, TieBreak tieBreak,
            PairwiseBackend backend) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.type = Objects.requireNonNull(type, "type");
        this.alphaB = Inputs.requireAlpha("alpha_b", alphaB);
        this.tieBreak = Objects.requireNonNull(tieBreak, "tieBreak");
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** The operator for {@code batch} on the selected pairwise backend. */
    public static TwinSigmoidRanks of(QueryBatch batch, BackwardType type, double alphaB, TieBreak tieBreak) {
        return new TwinSigmoidRanks(batch, type, alphaB, tieBreak, PairwiseBackends.selected());
    }

    /** The same operator on another pairwise backend. */
    public TwinSigmoidRanks withBackend(PairwiseBackend other) {
        return new TwinSigmoidRanks(batch, type, alphaB, tieBreak, other);
    }

    /** {@code Var.apply(this, scores)}. */
    public Var apply(Var scores) {
        return Var.apply(this, scores);
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name(), scores, batch);
        int[] keys = TieBreak.batchKeys(tieBreak.seed(), tieBreak.nextCall(), batch.offsets());
        Tensor ranks = Tensor.zerosLike(scores);
        if (scores.dtype() == DType.F32) {
            backend.exactRanksF32(scores.f32(), batch.offsets(), keys, ranks.f32());
        } else {
            backend.exactRanksF64(scores.f64(), batch.offsets(), keys, ranks.f64());
        }
        return Op.result(ranks, scores);
    }

    @Override
    public Tensor[] backward(Tensor scores, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        return new Tensor[] {RankGradients.of(backend, type, alphaB, scores, batch, gradOut)};
    }

    @Override
    public String name() {
        return "twin-sigmoid-ranks-type" + type.number();
    }
}
