package rankgrad.ltr.train.gradientfree;

import java.util.Locale;

/**
 * Minimizes an {@link Objective} by stochastic approximation: each iteration estimates the gradient
 * from evaluations of the objective alone and takes a step theta -= a_t g. Used for objectives
 * that have no useful gradient, such as mean NDCG of a model's parameters.
 */
public sealed interface GradientFreeOptimizer permits Spsa, Fdsa {

    /** Whether {@code name} names a gradient-free optimizer ("spsa", "spsa:F", "fdsa"), well formed or not. */
    static boolean isGradientFree(String name) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        return n.equals("spsa") || n.startsWith("spsa:") || n.equals("fdsa");
    }

    /**
     * The optimizer called {@code name}: {@code spsa:F} (SPSA with F evaluations per iteration, F
     * even and at least 2) or {@code fdsa}; {@code seed} seeds SPSA's perturbations.
     *
     * @throws IllegalArgumentException saying what is wrong with the name
     */
    static GradientFreeOptimizer parse(String name, SpsaGains gains, long seed) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        if (n.equals("fdsa")) {
            return Fdsa.of(gains);
        }
        if (n.startsWith("spsa:") && n.substring("spsa:".length()).matches("\\d{1,9}")) {
            int f = Integer.parseInt(n.substring("spsa:".length()));
            if (f >= 2 && f % 2 == 0) {
                return Spsa.of(f, gains, seed);
            }
        }
        throw new IllegalArgumentException(name + ": SPSA:F needs an even F >= 2 (e.g. spsa:4); the other gradient-free"
                + " optimizer is fdsa");
    }

    /** Performs iteration {@code t} (0-based) in place on {@code theta}; returns the evaluations spent. */
    int iterate(double[] theta, Objective objective, long t);

    /** Evaluations one iteration costs for a parameter vector of {@code d} values. */
    int evaluationsPerIteration(int d);

    /** The name on the command line ("spsa:4", "fdsa"). */
    String name();
}
