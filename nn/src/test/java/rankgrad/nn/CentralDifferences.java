package rankgrad.nn;

import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import java.util.function.Function;

/**
 * Test helper: gradients of a scalar function of float64 tensors, by backward and by central
 * differences per coordinate, (f(x + h e_i) - f(x - h e_i)) / (2h).
 */
public final class CentralDifferences {
    /**
     * Step for float64 functions of O(1) values: truncation error ~ h^2 f''' ~ 1e-10, rounding
     * error ~ 1e-16 |f| / h ~ 1e-11.
     */
    public static final double STEP = 1e-5;

    private CentralDifferences() {
    }

    /** dL/d(inputs[k]) by central differences, inputs as constants (no graph). */
    public static double[] numeric(Function<Var[], Var> f, Tensor[] inputs, int k) {
        Tensor x = inputs[k];
        double[] out = new double[x.size()];
        for (int i = 0; i < out.length; i++) {
            double saved = x.get(i);
            x.set(i, saved + STEP);
            double plus = evaluate(f, inputs);
            x.set(i, saved - STEP);
            double minus = evaluate(f, inputs);
            x.set(i, saved);
            out[i] = (plus - minus) / (2 * STEP);
        }
        return out;
    }

    /** Gradients of f by backward, one per input (every input a parameter). */
    public static Tensor[] analytic(Function<Var[], Var> f, Tensor[] inputs) {
        Var[] vars = new Var[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            vars[i] = Var.param(inputs[i]);
        }
        f.apply(vars).backward();
        Tensor[] grads = new Tensor[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            grads[i] = vars[i].grad();
        }
        return grads;
    }

    /** The largest |a_i - b_i| / max(1, |b_i|). */
    public static double maxRelativeError(double[] a, double[] b) {
        double worst = 0;
        for (int i = 0; i < a.length; i++) {
            worst = Math.max(worst, Math.abs(a[i] - b[i]) / Math.max(1, Math.abs(b[i])));
        }
        return worst;
    }

    private static double evaluate(Function<Var[], Var> f, Tensor[] inputs) {
        Var[] vars = new Var[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            vars[i] = Var.constant(inputs[i]);
        }
        return f.apply(vars).value().item();
    }
}
