package rankgrad.ltr.rank;

/**
 * The regularization of a projection onto the permutahedron, which makes {@link SoftRank} and
 * {@link SoftSort} differentiable (Blondel, Teboul, Berthet &amp; Djolonga, ICML 2020, "Fast
 * Differentiable Sorting and Ranking", Sec. 4; docs/design.md §3.11). With P(w) the permutahedron
 * (the convex hull of the permutations of w) and strength epsilon:
 * <ul>
 *   <li>{@link #QUADRATIC} (Psi = Q = ||.||^2 / 2): P_Q(z, w) = argmin_{mu in P(w)} ||mu - z||^2, the
 *       Euclidean projection; its isotonic dual is least squares, solved by pool adjacent violators
 *       with block means;</li>
 *   <li>{@link #ENTROPIC} (Psi = E = &lt;mu, log mu - 1&gt;): P_E(z, w) = log argmin_{mu in P(e^w)} KL(mu, e^z),
 *       the KL projection; its isotonic dual pools blocks by log-sum-exp, and its soft ranks are
 *       positive by construction.</li>
 * </ul>
 */
public enum Regularization {
    /** Quadratic regularization Q: Euclidean projection onto the permutahedron. */
    QUADRATIC("q"),
    /** Entropic regularization E: KL projection onto the permutahedron. */
    ENTROPIC("e");

    private final String letter;

    Regularization(String letter) {
        this.letter = letter;
    }

    /** The letter in operator names: "q" (softrank-q) or "e" (softrank-e). */
    public String letter() {
        return letter;
    }
}
