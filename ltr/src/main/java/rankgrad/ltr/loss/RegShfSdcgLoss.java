package rankgrad.ltr.loss;

import java.util.Objects;
import java.util.SplittableRandom;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;

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
 * T are inputs: {@link #atStep(long)} gives the loss of step t. As for every loss here, a query
 * without relevant documents contributes 0 and a zero gradient, regression term included.
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

    private final SmoothedDcgLoss shf;
    private final int totalSteps;
    private final int step;
    private final double gamma;

    private RegShfSdcgLoss(SmoothedDcgLoss shf, int totalSteps, int step) {
        if (totalSteps <= 2) {
            throw new IllegalArgumentException("the schedule length T must be > 2 (tau_1 = 0.999999 needs T/2 > 1), got "
                    + totalSteps);
        }
        if (step < 1) {
            throw new IllegalArgumentException("the step t counts from 1, got " + step);
        }
        this.shf = Objects.requireNonNull(shf, "shf");
        this.totalSteps = totalSteps;
        this.step = step;
        this.gamma = Math.log(TAU_FIRST / (1 - TAU_FIRST)) / (totalSteps / 2.0 - 1);
    }

    /** The blend of regression and {@code shf} over a schedule of {@code totalSteps} steps, at step 1. */
    public static RegShfSdcgLoss of(SmoothedDcgLoss shf, int totalSteps) {
        return new RegShfSdcgLoss(shf, totalSteps, 1);
    }

    /** The same blend at step t (1-based; steps past T keep decreasing tau towards 0). */
    @Override
    public RegShfSdcgLoss atStep(long t) {
        return new RegShfSdcgLoss(shf.atStep(t), totalSteps, Math.toIntExact(t));
    }

    /** tau_t of Eq. 19. */
    public double tau() {
        return 1.0 / (1.0 + Math.exp(gamma * (step - totalSteps / 2.0)));
    }

    public int step() {
        return step;
    }

    public int totalSteps() {
        return totalSteps;
    }

    @Override
    public Var loss(Var scores, QueryBatch batch) {
        return Var.apply(new QueryLossOp(name(), batch, this::query, shf.seed(), shf.nextCall()), scores);
    }

    @Override
    public String name() {
        return "reg-" + shf.name();
    }

    private double query(double[] s, float[] y, int from, int m, SplittableRandom random, double weight, double[] grad) {
        double tau = tau();
        double squares = 0;
        for (int i = from; i < from + m; i++) {
            double r = s[i] - y[i];
            squares += r * r;
            grad[i] += weight * tau * 2 * r / m;
        }
        double ranking = shf.query(s, y, from, m, random, weight * (1 - tau), grad);
        return tau * squares / m + (1 - tau) * ranking;
    }
}
