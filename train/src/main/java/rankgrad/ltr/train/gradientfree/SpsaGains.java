package rankgrad.ltr.train.gradientfree;

/**
 * Spall's gain sequences for stochastic approximation (Yue &amp; Burges Sec. 4, docs/design.md §3.7):
 * step a_t = a / (t + 1 + A)^alpha and perturbation c_t = c / (t + 1)^gamma, with Spall's
 * recommended exponents alpha = 0.602 and gamma = 0.101.
 *
 * @param a step-size scale
 * @param c perturbation scale
 * @param stability A, about 10% of the planned iterations, damps the first steps
 * @param alpha decay exponent of a_t
 * @param gamma decay exponent of c_t
 */
public record SpsaGains(double a, double c, double stability, double alpha, double gamma) {

    public SpsaGains {
        if (!(a > 0) || !(c > 0) || !(stability >= 0) || !(alpha > 0) || !(gamma > 0)) {
            throw new IllegalArgumentException("gains need a, c, alpha, gamma > 0 and A >= 0: " + this);
        }
    }

    /** Spall's exponents with the given scales. */
    public static SpsaGains spall(double a, double c, double stability) {
        return new SpsaGains(a, c, stability, 0.602, 0.101);
    }

    /**
     * The gains for a run of {@code iterations} iterations with step scale {@code a}: perturbation
     * scale c = 0.05 and A = 10% of the iterations (Spall's advice), Spall's exponents.
     */
    public static SpsaGains forIterations(double a, int iterations) {
        return spall(a, 0.05, Math.max(1, iterations / 10));
    }

    /** a_t. */
    public double step(long t) {
        return a / Math.pow(t + 1 + stability, alpha);
    }

    /** c_t. */
    public double perturbation(long t) {
        return c / Math.pow(t + 1, gamma);
    }
}
