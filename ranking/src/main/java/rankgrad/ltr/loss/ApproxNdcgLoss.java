package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.ApproxRanks;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.RankMode;

/**
 * ApproxNDCG (Qin et al. 2010; Bruch et al. 2019): minus the nDCG of the approximate ranks
 * ({@link ApproxRanks}, Bruch Eq. 6), averaged over the queries of a batch:
 * <pre>  L = -(1/Q) sum_q (1/IDCG_q) sum_i (2^{y_i} - 1) / log2(1 + pi^-(i)),
 *  pi^-(i) = 1 + sum_{j != i} sigma(alpha (s_j - s_i))</pre>
 * the same nDCG function as the twin-sigmoid loss ({@link RankMetric#ndcg()}), on smooth ranks, so
 * the value is an approximation of -nDCG and the backward is its exact gradient. Default alpha =
 * 10 (Bruch et al.). Forward and backward each take O(m^2) time and O(m) memory per query.
 *
 * <pre>{@code
 * RankingLoss loss = ApproxNdcgLoss.of(ApproxNdcgLoss.DEFAULT_ALPHA);
 * }</pre>
 *
 * <p>A query without relevant documents contributes 0 and a zero gradient (and counts in Q); NaN
 * or infinite scores raise {@link IllegalArgumentException} naming the query.
 */
public final class ApproxNdcgLoss implements RankingLoss {
    /** Bruch et al.'s choice of sigmoid steepness. */
    public static final double DEFAULT_ALPHA = ApproxRanks.DEFAULT_ALPHA;

    private final RankMode.Approximate mode;
    private final PairwiseBackend backend;

    private ApproxNdcgLoss(double alpha, PairwiseBackend backend) {
        this.mode = new RankMode.Approximate(alpha);
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** ApproxNDCG with sigmoid steepness {@code alpha} on the selected pairwise backend. */
    public static ApproxNdcgLoss of(double alpha) {
        return new ApproxNdcgLoss(alpha, PairwiseBackends.selected());
    }

    /** The same loss on another pairwise backend. */
    @Override
    public ApproxNdcgLoss withBackend(PairwiseBackend other) {
        return new ApproxNdcgLoss(mode.alpha(), other);
    }

    public double alpha() {
        return mode.alpha();
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new MetricLossOp(name(), batch, backend, mode, MetricLossOp.RankFunction.of(RankMetric.ndcg())),
                scores);
    }

    /** "approx-ndcg", or "approx-ndcg:ALPHA" for another alpha than the default (the name {@link Losses#parse} reads). */
    @Override
    public String name() {
        return mode.alpha() == DEFAULT_ALPHA ? "approx-ndcg" : "approx-ndcg:" + mode.alpha();
    }
}
