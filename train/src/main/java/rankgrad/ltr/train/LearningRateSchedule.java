package rankgrad.ltr.train;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The learning rate of optimizer step t (1-based) as a factor of the base rate lr:
 * lr_t = lr f(t), a linear warm-up over W steps followed by a decay.
 *
 * <pre>
 *   f(t) = t / W                                         for t &lt;= W       (warm-up; W = 0: none)
 *   then, with u = t - W - 1 steps done since the warm-up and U = T - W of the run's T steps:
 *   constant:  f = 1
 *   cosine:    f = (1 + cos(pi min(u, U) / U)) / 2         (Loshchilov and Hutter, ICLR 2017, Eq. 5,
 *                                                           one cycle, eta_min = 0: 1 at the first
 *                                                           step after the warm-up, 0 only after T)
 *   step:      f = gamma^floor(u / S)                     (S steps at each rate, as PyTorch's StepLR)
 * </pre>
 *
 * Warm-up as in Goyal et al. 2017 (Sec. 2.2, gradual warm-up) and the Transformer schedule. The
 * factor depends on the step alone, so a run resumed from a checkpoint (which stores the step)
 * continues the schedule bit for bit.
 *
 * <pre>{@code
 * LearningRateSchedule s = LearningRateSchedule.cosine(200);       // 200 warm-up steps, then cosine
 * double lr = base * s.factor(step, totalSteps);
 * }</pre>
 *
 * @param warmupSteps W &gt;= 0
 * @param decay what follows the warm-up
 * @param stepSize S &gt;= 1, steps per decay for {@link Decay#STEP} (ignored otherwise)
 * @param gamma the factor per decay for {@link Decay#STEP}, in (0, 1] (ignored otherwise)
 */
public record LearningRateSchedule(int warmupSteps, Decay decay, int stepSize, double gamma) {

    /** What follows the warm-up. */
    public enum Decay {
        CONSTANT, COSINE, STEP;

        /** The command-line spelling. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * The decay called {@code name} (constant, cosine, step).
         *
         * @throws IllegalArgumentException naming the choices
         */
        public static Decay parse(String name) {
            for (Decay d : values()) {
                if (d.label().equals(name)) {
                    return d;
                }
            }
            throw new IllegalArgumentException("unknown decay '" + name + "'; choose one of constant, cosine, step");
        }
    }

    public LearningRateSchedule {
        Objects.requireNonNull(decay, "decay");
        if (warmupSteps < 0) {
            throw new IllegalArgumentException("the warm-up must be >= 0 steps, got " + warmupSteps);
        }
        if (stepSize < 1) {
            throw new IllegalArgumentException("the decay step size must be >= 1 step, got " + stepSize);
        }
        if (!(gamma > 0 && gamma <= 1)) {
            throw new IllegalArgumentException("the decay factor gamma must be in (0, 1], got " + gamma);
        }
    }

    /** The base rate at every step (no warm-up, no decay): the default. */
    public static LearningRateSchedule constant() {
        return new LearningRateSchedule(0, Decay.CONSTANT, 1, 1.0);
    }

    /** Warm-up over {@code warmupSteps}, then cosine decay to 0 at the run's last step. */
    public static LearningRateSchedule cosine(int warmupSteps) {
        return new LearningRateSchedule(warmupSteps, Decay.COSINE, 1, 1.0);
    }

    /** Whether every step uses the base rate. */
    public boolean isConstant() {
        return warmupSteps == 0 && (decay == Decay.CONSTANT || decay == Decay.STEP && gamma == 1.0);
    }

    /**
     * f(t) for step {@code step} (1-based) of a run of {@code totalSteps} steps.
     *
     * @throws IllegalArgumentException for a step &lt; 1
     */
    public double factor(long step, long totalSteps) {
        if (step < 1) {
            throw new IllegalArgumentException("steps count from 1, got " + step);
        }
        if (step <= warmupSteps) {
            return (double) step / warmupSteps;
        }
        long u = step - warmupSteps - 1;
        return switch (decay) {
            case CONSTANT -> 1.0;
            case COSINE -> {
                long span = totalSteps - warmupSteps;
                yield span <= 0 ? 1.0 : (1 + Math.cos(Math.PI * Math.min(u, span) / span)) / 2;
            }
            case STEP -> Math.pow(gamma, (double) (u / stepSize));
        };
    }

    /** The settings as JSON values (model info, checkpoints). */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("warmupSteps", warmupSteps);
        m.put("decay", decay.label());
        if (decay == Decay.STEP) {
            m.put("stepSize", stepSize);
            m.put("gamma", gamma);
        }
        return m;
    }

    @Override
    public String toString() {
        return "warm-up " + warmupSteps + " steps, then " + decay.label()
                + (decay == Decay.STEP ? " (x" + gamma + " every " + stepSize + " steps)" : "");
    }
}
