package rankgrad.testkit;

import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * Keeps an op's inputs a margin away from its kinks, where a central difference (and a float32
 * rounding) could fall on the other side of the kink and disagree with the backward pass by O(1).
 * The inputs are still drawn by QuickTheories, so a failure still shrinks; a constant computed
 * from the example's unperturbed values moves only those that fall within the margin, so that the
 * perturbations of a gradient check (at most its step, 1e-6, per element) never cross the kink.
 */
final class KinkMargins {
    private KinkMargins() {
    }

    /**
     * x + s for a constant s of x's dtype, computed from {@code at} (the example's unperturbed value
     * of x): s moves every element of {@code at} that lies within {@code margin} of 0 to the
     * nearer of -margin and +margin, and is 0 elsewhere. The op under test then sees inputs at
     * least {@code margin} (less a rounding) away from 0, and its gradient with respect to x is its
     * derivative there.
     */
    static Var awayFromZero(Var x, Tensor at, double margin) {
        double[] v = at.toDoubleArray();
        double[] shift = new double[v.length];
        double[] zero = {0};
        for (int i = 0; i < v.length; i++) {
            shift[i] = nearestOutside(v[i], zero, margin) - v[i];
        }
        return Ops.add(x, Var.constant(Tensor.of(shift, at.shape()).to(x.dtype())));
    }

    /**
     * The point nearest {@code v} that is at least {@code margin} from every centre: {@code v}
     * itself when it is, else the nearest of the points centre +- margin that is (one always is:
     * the largest centre + margin).
     */
    static double nearestOutside(double v, double[] centres, double margin) {
        if (clear(v, centres, margin)) {
            return v;
        }
        double best = Double.NaN;
        for (double c : centres) {
            for (double candidate : new double[] {c - margin, c + margin}) {
                if (clear(candidate, centres, margin)
                        && (Double.isNaN(best) || Math.abs(candidate - v) < Math.abs(best - v))) {
                    best = candidate;
                }
            }
        }
        return best;
    }

    /** Whether p is margin from every centre, allowing the rounding of p = centre +- margin. */
    private static boolean clear(double p, double[] centres, double margin) {
        for (double c : centres) {
            if (Math.abs(p - c) < margin * (1 - 1e-9)) {
                return false;
            }
        }
        return true;
    }
}
