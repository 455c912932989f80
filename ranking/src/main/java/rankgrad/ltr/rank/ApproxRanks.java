package rankgrad.ltr.rank;

import java.util.Objects;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * Approximate ranks (Qin et al. 2010; Bruch et al. 2019, Eq. 6) as a custom-gradient node: per
 * query,
 * <pre>  pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i)),   sigma(x) = 1 / (1 + e^{-x})</pre>
 * a smooth function of the scores; the backward is its exact gradient (the type-1 pair derivative
 * alpha sb (1 - sb)). Default alpha = 10 (Bruch et al. Sec. 3). O(m^2) time and O(m) memory per
 * query; the output has the input's shape and dtype.
 *
 * <pre>{@code
 * Var ranks = ApproxRanks.of(batch, 10).apply(scores);
 * }</pre>
 */
public final class ApproxRanks implements Op<Tensor> {
    /** Bruch et al.'s choice of sigmoid steepness. */
    public static final double DEFAULT_ALPHA = 10.0;

    private final QueryBatch batch;
    private final RankMode.Approximate mode;
    private final PairwiseBackend backend;

    private ApproxRanks(QueryBatch batch, double alpha, PairwiseBackend backend) {
        this.batch = Objects.requireNonNull(batch, "batch");
        this.mode = new RankMode.Approximate(alpha);
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** The operator for {@code batch} on the selected pairwise backend. */
    public static ApproxRanks of(QueryBatch batch, double alpha) {
        return new ApproxRanks(batch, alpha, PairwiseBackends.selected());
    }

    /** The same operator on another pairwise backend. */
    public ApproxRanks withBackend(PairwiseBackend other) {
        return new ApproxRanks(batch, mode.alpha(), other);
    }

    /** {@code Var.apply(this, scores)}. */
    public Var apply(Var scores) {
        return Var.apply(this, scores);
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor scores = in[0];
        Inputs.requireScores(name(), scores, batch);
        return Op.result(mode.ranks(backend, scores, batch), scores);
    }

    @Override
    public Tensor[] backward(Tensor scores, Tensor gradOut, boolean[] needsGrad) {
        if (!needsGrad[0]) {
            return new Tensor[] {null};
        }
        return new Tensor[] {mode.scoreGradient(backend, scores, batch, gradOut)};
    }

    @Override
    public String name() {
        return "approx-ranks";
    }
}
