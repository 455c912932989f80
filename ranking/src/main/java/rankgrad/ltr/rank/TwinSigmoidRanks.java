package rankgrad.ltr.rank;

import java.util.Objects;
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
public final class TwinSigmoidRanks implements Op<TwinSigmoidRanks.Saved> {
    /** The residuals of a forward call: the scores and the rank mode with that call's tie keys. */
    public record Saved(Tensor scores, RankMode mode) {
    }

    private final QueryBatch batch;
    private final BackwardType type;
    private final double alphaB;
    private final TieBreak tieBreak;
    private final PairwiseBackend backend;

    private TwinSigmoidRanks(QueryBatch batch, BackwardType type, double alphaB, TieBreak tieBreak,
            PairwiseBackend backend) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.type = Objects.requireNonNull(type, "type");
        this.alphaB = Inputs.requirePositiveFinite("alpha_b", alphaB);
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
    public Result<Saved> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name(), scores, batch);
        RankMode mode = new RankMode.TwinSigmoid(type, alphaB,
                TieBreak.batchKeys(tieBreak.seed(), tieBreak.nextCall(), tieBreak.firstQuery(), batch.offsets()));
        return Op.result(mode.ranks(backend, scores, batch), new Saved(scores, mode));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        return new Tensor[] {saved.mode().scoreGradient(backend, saved.scores(), batch, gradOut)};
    }

    @Override
    public String name() {
        return "twin-sigmoid-ranks-type" + type.number();
    }
}
