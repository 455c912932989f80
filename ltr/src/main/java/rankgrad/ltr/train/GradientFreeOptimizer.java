package rankgrad.ltr.train;

/**
 * Minimizes an {@link Objective} by stochastic approximation: each iteration estimates the gradient
 * from evaluations of the objective alone and takes a step theta -= a_t g. Used for objectives
 * that have no useful gradient, such as mean NDCG of a model's parameters.
 */
public sealed interface GradientFreeOptimizer permits Spsa, Fdsa {

    /** Performs iteration {@code t} (0-based) in place on {@code theta}; returns the evaluations spent. */
    int iterate(double[] theta, Objective objective, long t);

    /** Evaluations one iteration costs for a parameter vector of {@code d} values. */
    int evaluationsPerIteration(int d);

    /** The name on the command line ("spsa:4", "fdsa"). */
    String name();
}
