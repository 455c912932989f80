package rankgrad.ltr.loss;

import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * REG-SHF-SDCG (Wu et al. 2009, Eq. 18-19; DESIGN section 3.4): a regression loss blended into
 * SHF-SDCG by a schedule over training steps,
 *
 * <pre>
 *   L_q(t) = tau_t * MSE_q - (1 - tau_t) * SHF-SDCG@k_q / IDCG@k_q,   MSE_q = (1/m) sum_i (s_i - y_i)^2
 *   tau_t  = 1 / (1 + e^{gamma (t - T/2)}),   gamma = ln(0.999999 / 0.000001) / (T/2 - 1)
 * </pre>
 *
 * so that tau_1 = 0.999999 and tau_{T/2} = 1/2: pointwise regression first, the listwise SHF-SDCG
 * last. The second term is {@link SmoothedDcgLoss}'s loss (its value is already -SHF-SDCG / IDCG),
 * so any of its variants (annealed weight, a, b) can be blended. The step t and the schedule length
 * T are inputs: {@link #atStep(long)} gives the loss of step t; T is given to {@link #of}, or, for
 * {@link #overRun} (what {@link Losses#parse} makes), by the trainer through {@link #forRun}. As for
 * every loss here, a query without relevant documents contributes 0 and a zero gradient,
 * regression term included.
 *
 * <p>The loss is a graph of two nodes: the regression term (O(m) per query, float64 on the CPU) and
 * the SHF-SDCG node (pairwise backend, float32 for float32 scores), blended by tau_t.
 *
 * <pre>{@code
 * RegShfSdcgLoss reg = RegShfSdcgLoss.of(SmoothedDcgLoss.shfSdcg(10), 1000);
 * for (int t = 1; t <= 1000; t++) {
 *     Var loss = reg.atStep(t).loss(scores, batch);
 *     ...
 * }
 * }</pre>
 *
 * <p>Thread-safety: immutable (the wrapped loss's call counter is shared).
 */
public final class RegShfSdcgLoss implements RankingLoss {
    /** tau_1 of Eq. 19. */
    private static final double TAU_FIRST = 0.999999;
    /** The schedule length of {@link #overRun} before the trainer sets it. */
    private static final int RUN_LENGTH = 0;

    private final SmoothedDcgLoss shf;
    private final int totalSteps;
    private final int step;

    private RegShfSdcgLoss(SmoothedDcgLoss shf, int totalSteps, int step) {
        if (totalSteps != RUN_LENGTH && totalSteps <= 2) {
            throw new IllegalArgumentException("the schedule length T of REG-SHF-SDCG must be > 2 (tau_1 = 0.999999"
                    + " needs T/2 > 1), got " + totalSteps + "; train for more steps (epochs x batches per epoch)");
        }
        if (step < 1) {
            throw new IllegalArgumentException("the step t counts from 1, got " + step);
        }
        this.shf = Objects.requireNonNull(shf, "shf");
        this.totalSteps = totalSteps;
        this.step = step;
    }

    /** The blend of regression and {@code shf} over a schedule of {@code totalSteps} steps, at step 1. */
    public static RegShfSdcgLoss of(SmoothedDcgLoss shf, int totalSteps) {
        return new RegShfSdcgLoss(shf, totalSteps, 1);
    }

    /**
     * The blend of regression and {@code shf} over the training run that uses it: the trainer
     * sets T to the run's length ({@link #forRun}); {@link #loss} before that is an error.
     */
    public static RegShfSdcgLoss overRun(SmoothedDcgLoss shf) {
        return new RegShfSdcgLoss(shf, RUN_LENGTH, 1);
    }

    /**
     * For {@link #overRun}, the same blend with T = {@code runSteps}; a loss made with {@link #of}
     * keeps its own T.
     */
    @Override
    public RegShfSdcgLoss forRun(long runSteps) {
        return totalSteps == RUN_LENGTH ? new RegShfSdcgLoss(shf, Math.toIntExact(runSteps), step) : this;
    }

    /** The same blend at step t (1-based; steps past T keep decreasing tau towards 0). */
    @Override
    public RegShfSdcgLoss atStep(long t) {
        return new RegShfSdcgLoss(shf.atStep(t), totalSteps, Math.toIntExact(t));
    }

    /** The same blend at step t for a shard of its batch (see {@link RankingLoss#atStep(long, int)}). */
    @Override
    public RegShfSdcgLoss atStep(long t, int firstQuery) {
        return new RegShfSdcgLoss(shf.atStep(t, firstQuery), totalSteps, Math.toIntExact(t));
    }

    /** The same blend with SHF-SDCG on another pairwise backend. */
    @Override
    public RegShfSdcgLoss withBackend(PairwiseBackend backend) {
        return new RegShfSdcgLoss(shf.withBackend(backend), totalSteps, step);
    }

    /** tau_t of Eq. 19. */
    public double tau() {
        requireSchedule();
        double gamma = Math.log(TAU_FIRST / (1 - TAU_FIRST)) / (totalSteps / 2.0 - 1);
        return 1.0 / (1.0 + Math.exp(gamma * (step - totalSteps / 2.0)));
    }

    public int step() {
        return step;
    }

    /** T, or 0 for a loss made by {@link #overRun} whose run has not set it. */
    public int totalSteps() {
        return totalSteps;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        double tau = tau();
        Var regression = Var.apply(new QueryLossOp(name(), batch, RegShfSdcgLoss::squaredError, 0L, 0L, 0), scores);
        return Ops.add(Ops.mul(regression, tau), Ops.mul(shf.loss(scores, batch), 1 - tau));
    }

    @Override
    public String name() {
        return "reg-" + shf.name();
    }

    private void requireSchedule() {
        if (totalSteps == RUN_LENGTH) {
            throw new IllegalStateException(name() + " has no schedule length T yet: call forRun(T) with the number of"
                    + " training steps (Trainer.fit does), or make it with RegShfSdcgLoss.of(shf, T)");
        }
    }

    /** MSE_q = (1/m) sum_i (s_i - y_i)^2 with its gradient. */
    private static double squaredError(double[] s, float[] y, int from, int m, SplittableRandom unused, double weight,
            double[] grad) {
        double squares = 0;
        for (int i = from; i < from + m; i++) {
            double r = s[i] - y[i];
            squares += r * r;
            grad[i] += weight * 2 * r / m;
        }
        return squares / m;
    }
}
