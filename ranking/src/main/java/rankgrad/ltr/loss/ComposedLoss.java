package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.rank.DifferentiableRanks;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.TieBreak;

/**
 * Any differentiable metric of ranks through any differentiable rank operator: minus the {@link
 * RankMetric} (Pre@k, AP, nDCG, nDCG@k, nERR@k, RR; Yu et al. Eq. 13-16) of the ranks of a {@link
 * DifferentiableRanks} operator, averaged over the queries of a batch,
 * <pre>  L = -(1/Q) sum_q M(R(s_q))</pre>
 * named {@code METRIC~OPERATOR} ({@code ndcg@10~softrank-q:0.1}, {@code ap~sigmoid:10},
 * {@code nerr@5~twin3}). The metric reads the operator's rank variables and, for the cutoff and
 * position-weighted metrics, the positions of the scores' order (docs/design.md §3.3, §3.11). With
 * the twin-sigmoid operator this is Yu et al.'s loss ({@code ndcg~twin3} is {@code ndcg-type3} bit
 * for bit), with sigmoid ranks the ApproxNDCG family ({@code ndcg~sigmoid:10} is {@code approx-ndcg}).
 *
 * <pre>{@code
 * RankingLoss loss = Losses.parse("ndcg@10~softrank-q:0.1", 42);
 * }</pre>
 *
 * <p>Each call draws the tie keys of call number c = 0, 1, 2, ... of its seed ({@link TieBreak}),
 * as the twin-sigmoid losses do, when an exact operator breaks ties with them or the metric orders
 * tied scores by them (positions); otherwise it draws none.
 * A query without relevant documents contributes 0 and a zero gradient (and counts in Q); NaN or
 * infinite scores raise {@link IllegalArgumentException} naming the query.
 */
public final class ComposedLoss implements RankingLoss {
    private final RankMetric metric;
    private final DifferentiableRanks ranks;
    private final TieBreak tieBreak;

    private ComposedLoss(RankMetric metric, DifferentiableRanks ranks, TieBreak tieBreak) {
        this.metric = Objects.requireNonNull(metric, "metric");
        this.ranks = Objects.requireNonNull(ranks, "ranks");
        this.tieBreak = tieBreak;
    }

    /** Minus {@code metric} through {@code ranks}, ties seeded by {@code seed}. */
    public static ComposedLoss of(RankMetric metric, DifferentiableRanks ranks, long seed) {
        return new ComposedLoss(metric, ranks, TieBreak.seeded(seed));
    }

    @Override
    public ComposedLoss atStep(long step) {
        return atStep(step, 0);
    }

    @Override
    public ComposedLoss atStep(long step, int firstQuery) {
        return new ComposedLoss(metric, ranks, TieBreak.seeded(tieBreak.seed(), step, firstQuery));
    }

    /** The same loss with the operator's pairwise work on {@code backend} (its tie-breaker starts again at call 0). */
    @Override
    public ComposedLoss withBackend(PairwiseBackend backend) {
        return new ComposedLoss(metric, ranks.withBackend(backend), TieBreak.seeded(tieBreak.seed()));
    }

    public RankMetric metric() {
        return metric;
    }

    public DifferentiableRanks ranks() {
        return ranks;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        // Keys only where they are read: an exact operator breaks score ties with them, a
        // position-reading metric orders tied scores with them (a permutation of 10^6 keys costs
        // as much as the soft ranks' isotonic regression).
        int[] keys = ranks.exact() || metric.readsPositions()
                ? TieBreak.batchKeys(tieBreak.seed(), tieBreak.nextCall(), tieBreak.firstQuery(), batch.offsets()) : null;
        return Var.apply(new MetricLossOp(name(), batch, ranks, keys, MetricLossOp.RankFunction.of(metric)), scores);
    }

    /** METRIC~OPERATOR, e.g. "ndcg@10~softrank-q:0.1" (the name {@link Losses#parse} reads). */
    @Override
    public String name() {
        return metric.name() + "~" + ranks.name();
    }
}
