package rankgrad.ltr.train.gradientfree;

/** A function of a flat parameter vector to minimize, known only through evaluations. */
@FunctionalInterface
public interface Objective {
    /** L(theta); must not modify {@code theta}. */
    double value(double[] theta);
}
