package rankgrad.testkit;

import java.util.Arrays;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;

/**
 * QuickTheories generators of float64 unit directions, for directional-derivative checks
 * ({@link GradientLaws#assertDirectionalDerivativeMatches}): the derivative of f at x along d,
 * (f(x + h d) - f(x - h d)) / 2h, against dot(gradient, d).
 *
 * <p>Half of the directions are coordinate vectors e_i, which locate a wrong gradient entry; the
 * other half are dense, each component a multiple of 2^-20 in [-1, 1] before normalisation, which
 * involve every entry at once (a wrong entry cannot hide behind a zero component). A failing
 * direction shrinks towards e_0.
 *
 * <pre>{@code
 * qt().forAll(RankingCases.distinctScores(3, 12).flatMap(c -> Directions.unit(c.documents()).map(d -> ...)))
 * }</pre>
 */
public final class Directions {
    private static final int RESOLUTION = 1 << 20;

    private Directions() {
    }

    /** Unit vectors of length n (n >= 1; an empty array for n = 0). */
    public static Gen<double[]> unit(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("direction length must be >= 0, got " + n);
        }
        Gen<double[]> gen = in -> {
            double[] d = new double[n];
            if (n == 0) {
                return d;
            }
            if (in.next(Constraint.between(0, 1)) == 0) {
                d[(int) in.next(Constraint.between(0, n - 1))] = 1;
                return d;
            }
            double norm2 = 0;
            for (int i = 0; i < n; i++) {
                d[i] = (double) in.next(Constraint.between(-RESOLUTION, RESOLUTION)) / RESOLUTION;
                norm2 += d[i] * d[i];
            }
            if (norm2 == 0) {
                d[0] = 1;
                return d;
            }
            double scale = 1 / Math.sqrt(norm2);
            for (int i = 0; i < n; i++) {
                d[i] *= scale;
            }
            return d;
        };
        return gen.describedAs(Arrays::toString);
    }
}
