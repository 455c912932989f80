package rankgrad.ltr.loss;

import java.util.Objects;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Inputs;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.RankMode;
import rankgrad.ltr.rank.TieBreak;

/**
 * Direct metric optimization with twin-sigmoid ranks (Yu et al. 2020): the loss is minus a
 * {@link RankMetric} (Pre@k, AP, nDCG, nERR@k; Eq. 13-16) of the twin-sigmoid ranks ({@link
 * rankgrad.ltr.rank.TwinSigmoidRanks}, Eq. 12), averaged over the queries of a batch:
 * <pre>  L = -(1/Q) sum_q M(pi^+(s_q))</pre>
 * The forward ranks are exact (seeded random tie-breaking), so the value is exactly minus the mean
 * metric. The backward is sum_i (dL/dr_i) dr_i/ds with the pair derivative of the chosen {@link
 * BackwardType} (type 1: Eq. 11, the straight-through gradient; type 2: Eq. 20; type 3: Eq. 21),
 * fused per query into one O(m^2)-time, O(m)-memory pass. Yu's method names: "nDCG-type3" etc.
 *
 * <pre>{@code
 * RankingLoss loss = TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 42);
 * Var l = loss.loss(scores, batch);
 * l.backward();
 * }</pre>
 *
 * <p>A query without relevant documents contributes 0 and a zero gradient (and counts in Q); NaN
 * or infinite scores raise {@link IllegalArgumentException} naming the query. Each call draws the
 * tie permutations of call number c = 0, 1, 2, ... of its seed ({@link TieBreak}).
 */
public final class TwinSigmoidLoss implements RankingLoss {
    /** Yu et al.'s backward steepness (Sec. 6.3). */
    public static final double DEFAULT_ALPHA_B = 1.0;

    private final RankMetric metric;
    private final BackwardType type;
    private final double alphaB;
    private final TieBreak tieBreak;
    private final PairwiseBackend backend;

    private TwinSigmoidLoss(RankMetric metric, BackwardType type, double alphaB, TieBreak tieBreak,
            PairwiseBackend backend) {
        this.metric = Objects.requireNonNull(metric, "metric");
        this.type = Objects.requireNonNull(type, "type");
        this.alphaB = Inputs.requirePositiveFinite("alpha_b", alphaB);
        this.tieBreak = tieBreak;
        this.backend = Objects.requireNonNull(backend, "backend");
    }

    /** The loss minus {@code metric} with the backward {@code type}, alpha_b = 1, ties seeded by {@code seed}. */
    public static TwinSigmoidLoss of(RankMetric metric, BackwardType type, long seed) {
        return new TwinSigmoidLoss(metric, type, DEFAULT_ALPHA_B, TieBreak.seeded(seed), PairwiseBackends.selected());
    }

    /** The same loss with backward steepness {@code alphaB} (its tie-breaker starts again at call 0). */
    public TwinSigmoidLoss withAlphaB(double alphaB) {
        return new TwinSigmoidLoss(metric, type, alphaB, TieBreak.seeded(tieBreak.seed()), backend);
    }

    /** The same loss on another pairwise backend (its tie-breaker starts again at call 0). */
    @Override
    public TwinSigmoidLoss withBackend(PairwiseBackend other) {
        return new TwinSigmoidLoss(metric, type, alphaB, TieBreak.seeded(tieBreak.seed()), other);
    }

    /** The same loss drawing the tie permutations of call number {@code step} first (exact resume). */
    @Override
    public TwinSigmoidLoss atStep(long step) {
        return atStep(step, 0);
    }

    /** The same loss for a shard of step {@code step}'s batch (see {@link RankingLoss#atStep(long, int)}). */
    @Override
    public TwinSigmoidLoss atStep(long step, int firstQuery) {
        return new TwinSigmoidLoss(metric, type, alphaB, TieBreak.seeded(tieBreak.seed(), step, firstQuery), backend);
    }

    public RankMetric metric() {
        return metric;
    }

    public BackwardType type() {
        return type;
    }

    public double alphaB() {
        return alphaB;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        RankMode mode = new RankMode.TwinSigmoid(type, alphaB,
                TieBreak.batchKeys(tieBreak.seed(), tieBreak.nextCall(), tieBreak.firstQuery(), batch.offsets()));
        return Var.apply(new MetricLossOp(name(), batch, backend, mode, MetricLossOp.RankFunction.of(metric)), scores);
    }

    /** Yu's method name in lower case, e.g. "ndcg-type3", "precision@10-type1", "nerr@10-type2". */
    @Override
    public String name() {
        return metric.name() + "-type" + type.number();
    }
}
