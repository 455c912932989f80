package rankgrad.ltr.train.gradientfree;

/**
 * Finite-difference stochastic approximation (Yue &amp; Burges Sec. 4): one central difference per
 * coordinate, g_i = (L(theta + c_t e_i) - L(theta - c_t e_i)) / (2 c_t), 2d evaluations per
 * iteration; then theta -= a_t g.
 */
public final class Fdsa implements GradientFreeOptimizer {
    private final SpsaGains gains;

    private Fdsa(SpsaGains gains) {
        this.gains = gains;
    }

    /** FDSA with the given gains. */
    public static Fdsa of(SpsaGains gains) {
        return new Fdsa(gains);
    }

    @Override
    public int iterate(double[] theta, Objective objective, long t) {
        double[] g = estimate(theta, objective, t);
        double a = gains.step(t);
        for (int i = 0; i < theta.length; i++) {
            theta[i] -= a * g[i];
        }
        return 2 * theta.length;
    }

    /** The central-difference gradient estimate at theta for iteration t (2d evaluations). */
    public double[] estimate(double[] theta, Objective objective, long t) {
        double c = gains.perturbation(t);
        double[] probe = theta.clone();
        double[] g = new double[theta.length];
        for (int i = 0; i < theta.length; i++) {
            probe[i] = theta[i] + c;
            double plus = objective.value(probe);
            probe[i] = theta[i] - c;
            double minus = objective.value(probe);
            probe[i] = theta[i];
            g[i] = (plus - minus) / (2 * c);
        }
        return g;
    }

    @Override
    public int evaluationsPerIteration(int d) {
        return 2 * d;
    }

    @Override
    public String name() {
        return "fdsa";
    }
}
