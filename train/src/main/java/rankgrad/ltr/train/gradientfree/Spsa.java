package rankgrad.ltr.train.gradientfree;

import java.util.SplittableRandom;

/**
 * Simultaneous perturbation stochastic approximation, SPSA:F (Spall; Yue &amp; Burges Sec. 4.1):
 * with a Rademacher vector Delta (each entry +1 or -1 with equal probability),
 * <pre>
 *   g = (L(theta + c_t Delta) - L(theta - c_t Delta)) / (2 c_t) * Delta^{-1}
 * </pre>
 * (Delta^{-1} elementwise, equal to Delta for +-1 entries); SPSA:F averages F/2 such estimates, F
 * evaluations per iteration whatever the dimension. Then theta -= a_t g.
 *
 * <p>Deterministic: the perturbations come from one seeded stream.
 */
public final class Spsa implements GradientFreeOptimizer {
    private final int evaluations;
    private final SpsaGains gains;
    private final SplittableRandom rng;

    private Spsa(int evaluations, SpsaGains gains, long seed) {
        this.evaluations = evaluations;
        this.gains = gains;
        this.rng = new SplittableRandom(seed);
    }

    /** SPSA:F with F (even, >= 2) evaluations per iteration. */
    public static Spsa of(int evaluations, SpsaGains gains, long seed) {
        if (evaluations < 2 || evaluations % 2 != 0) {
            throw new IllegalArgumentException("SPSA:F needs an even F >= 2, got " + evaluations);
        }
        return new Spsa(evaluations, gains, seed);
    }

    @Override
    public int iterate(double[] theta, Objective objective, long t) {
        double[] g = estimate(theta, objective, t);
        double a = gains.step(t);
        for (int i = 0; i < theta.length; i++) {
            theta[i] -= a * g[i];
        }
        return evaluations;
    }

    /** The SPSA:F gradient estimate at theta for iteration t (uses F evaluations). */
    public double[] estimate(double[] theta, Objective objective, long t) {
        int d = theta.length;
        double c = gains.perturbation(t);
        double[] g = new double[d];
        double[] delta = new double[d];
        double[] probe = new double[d];
        int estimates = evaluations / 2;
        for (int e = 0; e < estimates; e++) {
            for (int i = 0; i < d; i++) {
                delta[i] = rng.nextBoolean() ? 1.0 : -1.0;
                probe[i] = theta[i] + c * delta[i];
            }
            double plus = objective.value(probe);
            for (int i = 0; i < d; i++) {
                probe[i] = theta[i] - c * delta[i];
            }
            double minus = objective.value(probe);
            double scale = (plus - minus) / (2 * c) / estimates;
            for (int i = 0; i < d; i++) {
                g[i] += scale / delta[i];
            }
        }
        return g;
    }

    @Override
    public int evaluationsPerIteration(int d) {
        return evaluations;
    }

    @Override
    public String name() {
        return "spsa:" + evaluations;
    }
}
