package rankgrad.testkit;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/**
 * Gradient laws, as assertions on one generated example: put them in a QuickTheories property and
 * a failure is shrunk and printed with its seed. All finite differences run in float64.
 *
 * <ul>
 *   <li><b>Backward equals central differences</b> (for a custom-gradient node, any function of
 *       {@link Var}s, a ranking loss or rank operator): {@link GradientCheck} contracts the output
 *       to L(x) = sum_k w_k f(x)_k with weights w ~ N(0, 1) and compares the backward pass's dL/dx
 *       with (L(x + h d) - L(x - h d)) / 2h along random unit directions d and along every
 *       coordinate, accepting |backward - numeric| &lt;= tol (1 + |numeric|). Central differences
 *       err by h^2/6 |L'''| + eps |L| / h, about 1e-10 for h = 1e-6 and quantities of order 1,
 *       while a wrong backward errs by the size of a gradient entry: 1e-6 is a usual tolerance.
 *       Keep inputs farther than h from kinks (the {@link RankingCases#distinctScores} scores are
 *       1/16 apart).</li>
 *   <li><b>Float32 agrees with float64</b> ({@link #assertFloat32AgreesWithFloat64}): an op's
 *       value and gradients computed in float32 from float32-representable inputs are within
 *       tol (1 + |float64 result|) of the float64 ones.</li>
 *   <li><b>A gradient computed outside the graph</b> (a kernel's analytic derivative, a reference
 *       formula) against central differences of a plain function, per coordinate or along a
 *       {@link Directions float64 direction}.</li>
 * </ul>
 *
 * <pre>{@code
 * qt().forAll(RankingCases.distinctScores(3, 8))
 *         .checkAssert(c -> GradientLaws.assertBackwardMatchesCentralDifference(myLoss::loss, c, 1e-6));
 * }</pre>
 */
public final class GradientLaws {
    private GradientLaws() {
    }

    /**
     * The operator's backward at the case's scores (float64) matches central differences:
     * {@link GradientCheck#withDefaults()} (step 1e-6, 3 directions and every coordinate) seeded
     * with the case's seed.
     */
    public static void assertBackwardMatchesCentralDifference(RankOperator op, RankingCase c, double tolerance) {
        assertBackwardMatchesCentralDifference(GradientCheck.withDefaults(), op, c, tolerance);
    }

    /** As {@link #assertBackwardMatchesCentralDifference(RankOperator, RankingCase, double)} with the step and directions of {@code check}. */
    public static void assertBackwardMatchesCentralDifference(GradientCheck check, RankOperator op, RankingCase c,
            double tolerance) {
        check.withSeed(c.seed()).check(x -> op.apply(x[0], c.batch()), c.tensor(DType.F64)).assertWithin(tolerance);
    }

    /** The op's backward at the example's inputs (float64) matches central differences, output weights and directions from {@code seed}. */
    public static void assertBackwardMatchesCentralDifference(OpCase op, OpExample e, long seed, double tolerance) {
        GradientCheck.withDefaults().withSeed(seed).check(x -> op.body().apply(e, x), e.inputs()).assertWithin(tolerance);
    }

    /**
     * The op run in float32 agrees with the op run in float64, on the example's inputs rounded to
     * float32 (so only the arithmetic differs): for L = sum_k w_k y_k with float32 weights w ~ N(0, 1)
     * from {@code seed}, |L32 - L64| &lt;= tol (1 + |L64|) and the same for every entry of every
     * input's gradient.
     */
    public static void assertFloat32AgreesWithFloat64(OpCase op, OpExample e, long seed, double tolerance) {
        Evaluated f32 = evaluate(op, e, DType.F32, seed);
        Evaluated f64 = evaluate(op, e, DType.F64, seed);
        assertClose(f64.loss(), f32.loss(), tolerance, op + ": loss");
        for (int i = 0; i < f64.grads().length; i++) {
            for (int k = 0; k < f64.grads()[i].length; k++) {
                assertClose(f64.grads()[i][k], f32.grads()[i][k], tolerance, op + ": gradient of input " + i + " at " + k);
            }
        }
    }

    /**
     * {@code gradient} is the gradient of {@code f} at {@code x}: for every coordinate i,
     * |gradient_i - (f(x + h e_i) - f(x - h e_i)) / 2h| &lt;= tol (1 + |numeric|).
     */
    public static void assertGradientMatchesCentralDifference(ToDoubleFunction<double[]> f, double[] x,
            double[] gradient, double step, double tolerance) {
        checkLengths(x, gradient, "gradient");
        for (int i = 0; i < x.length; i++) {
            double[] e = new double[x.length];
            e[i] = 1;
            compare(f, x, e, gradient[i], step, tolerance, "coordinate " + i);
        }
    }

    /**
     * {@code gradient} gives the derivative of {@code f} at {@code x} along {@code direction}:
     * |dot(gradient, d) - (f(x + h d) - f(x - h d)) / 2h| &lt;= tol (1 + |numeric|).
     */
    public static void assertDirectionalDerivativeMatches(ToDoubleFunction<double[]> f, double[] x, double[] gradient,
            double[] direction, double step, double tolerance) {
        checkLengths(x, gradient, "gradient");
        checkLengths(x, direction, "direction");
        double analytic = 0;
        for (int i = 0; i < x.length; i++) {
            analytic += gradient[i] * direction[i];
        }
        compare(f, x, direction, analytic, step, tolerance, "direction " + Arrays.toString(direction));
    }

    private static void compare(ToDoubleFunction<double[]> f, double[] x, double[] d, double analytic, double step,
            double tolerance, String where) {
        double[] plus = x.clone();
        double[] minus = x.clone();
        for (int i = 0; i < x.length; i++) {
            plus[i] += step * d[i];
            minus[i] -= step * d[i];
        }
        double numeric = (f.applyAsDouble(plus) - f.applyAsDouble(minus)) / (2 * step);
        if (!(Math.abs(analytic - numeric) <= tolerance * (1 + Math.abs(numeric)))) {
            throw new AssertionError(where + ": gradient gives " + analytic + ", central difference (step " + step + ") "
                    + numeric + ", |difference| " + Math.abs(analytic - numeric) + " > " + tolerance + " (1 + |numeric|)"
                    + " at x = " + Arrays.toString(x));
        }
    }

    private static void checkLengths(double[] x, double[] other, String name) {
        if (other.length != x.length) {
            throw new IllegalArgumentException(name + " has " + other.length + " entries for " + x.length + " coordinates");
        }
    }

    /** The loss and input gradients of a case in one dtype. */
    private record Evaluated(double loss, double[][] grads) {
    }

    private static Evaluated evaluate(OpCase op, OpExample e, DType dtype, long seed) {
        Tensor[] inputs = e.inputs(DType.F32);
        Var[] x = new Var[inputs.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = Var.param(inputs[i].to(dtype));
        }
        Var y = op.body().apply(e, x);
        Tensor w = gaussian(new SplittableRandom(seed), y.value().shape()).to(DType.F32).to(dtype);
        Var loss = Ops.sum(Ops.mul(y, Var.constant(w)));
        loss.backward();
        double[][] grads = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            Tensor g = x[i].grad();
            grads[i] = g == null ? new double[inputs[i].size()] : g.toDoubleArray();
        }
        return new Evaluated(loss.value().item(), grads);
    }

    private static void assertClose(double expected, double actual, double tolerance, String what) {
        if (!(Math.abs(actual - expected) <= tolerance * (1 + Math.abs(expected)))) {
            throw new AssertionError(what + ": float32 " + actual + ", float64 " + expected + ", |difference| "
                    + Math.abs(actual - expected) + " > " + tolerance + " (1 + |float64|)");
        }
    }

    private static Tensor gaussian(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F64, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextGaussian());
        }
        return t;
    }
}
