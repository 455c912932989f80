package rankgrad.autodiff;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Finite-difference check of a backward pass, in float64: point it at your own {@link Op} (or any
 * function of {@link Var}s) and it compares the gradient the engine computes with central
 * differences of the forward pass.
 *
 * <pre>{@code
 * GradientCheck.withDefaults()
 *         .checkOp(myOp, Tensor.vector(0.3, -1.2, 2.0), Tensor.vector(1.0, 0.5, 0.25))
 *         .assertWithin(1e-6);
 * // or, for a function with constant side inputs:
 * GradientCheck.withDefaults().withSeed(7)
 *         .check(x -> Var.apply(myRankLoss, x[0], Var.constant(labels)), scores)
 *         .assertWithin(1e-6);
 * }</pre>
 *
 * <p>What it computes. The inputs are converted to float64. A function f of any output shape is
 * contracted to a scalar with fixed random weights w ~ N(0, 1) (from the seed),
 * L(x) = sum_k w_k f(x)_k, so that every output element and every entry of the Jacobian takes
 * part. The backward pass gives dL/dx. Then:
 * <ul>
 *   <li>(a) along random unit directions d (joint over all inputs, Gaussian then normalised) the
 *       directional derivative (L(x + h d) - L(x - h d)) / 2h is compared with dot(dL/dx, d);</li>
 *   <li>(b) per coordinate (optional, on by default) (L(x + h e_i) - L(x - h e_i)) / 2h is
 *       compared with dL/dx_i, which locates a wrong entry.</li>
 * </ul>
 *
 * <p>Error model. By Taylor's theorem the central difference is
 * L'(x; d) + (h^2 / 6) L'''(x; d) + O(h^4): truncation error O(h^2). Each evaluation of L is
 * rounded with a relative error of a few eps (eps = 2^-52 = 2.2e-16 in float64), and dividing the
 * difference by 2h amplifies it to about eps |L| / h: rounding error O(eps / h). The sum
 * h^2 |L'''| / 6 + eps |L| / h is smallest near h = (3 eps |L| / |L'''|)^(1/3), about 1e-5 for
 * quantities of order 1. The default h = 1e-6 sits just below it, where the expected error is
 * about 2e-10 |L| + 2e-13 |L'''|: tolerances of 1e-6 then leave three to four orders of margin,
 * while a wrong backward (a sign, a missing factor, a misplaced index) errs by the size of the
 * gradient itself. In float32 (eps = 1.2e-7) the best attainable error would be about 1e-5 to
 * 1e-4, far too close to real mistakes, which is why the check always runs in float64. The step is
 * absolute: for inputs far from magnitude 1, scale h with them; keep inputs at least ~1e-3 away
 * from kinks and singularities, where the difference straddles a non-smooth point.
 *
 * <p>Comparison: {@link Report#assertWithin(double, double)} accepts
 * |backward - numeric| &lt;= absTol + relTol |numeric| (the rule of NumPy's {@code allclose}).
 *
 * <p>Side effects: f runs 2 + 2 (directions + input elements) times and must be
 * deterministic;
 * {@link Var#param parameters} it closes over receive gradients from the one backward pass.
 * Instances are immutable and thread-safe.
 */
public final class GradientCheck {
    /** The default step for float64, see the error model above. */
    public static final double DEFAULT_STEP = 1e-6;
    /** The default number of random directions. */
    public static final int DEFAULT_DIRECTIONS = 3;

    private final double step;
    private final long seed;
    private final int directions;
    private final boolean perCoordinate;

    private GradientCheck(double step, long seed, int directions, boolean perCoordinate) {
        if (!(step > 0) || !Double.isFinite(step)) {
            throw new IllegalArgumentException("step must be a positive finite number, got " + step);
        }
        if (directions < 0) {
            throw new IllegalArgumentException("directions must be >= 0, got " + directions);
        }
        if (directions == 0 && !perCoordinate) {
            throw new IllegalArgumentException("nothing to check: no directions and no per-coordinate differences");
        }
        this.step = step;
        this.seed = seed;
        this.directions = directions;
        this.perCoordinate = perCoordinate;
    }

    /** Step {@value #DEFAULT_STEP}, seed 0, {@value #DEFAULT_DIRECTIONS} directions, per coordinate. */
    public static GradientCheck withDefaults() {
        return new GradientCheck(DEFAULT_STEP, 0L, DEFAULT_DIRECTIONS, true);
    }

    /** The same check with step h. */
    public GradientCheck withStep(double h) {
        return new GradientCheck(h, seed, directions, perCoordinate);
    }

    /** The same check with another seed for the output weights and the directions. */
    public GradientCheck withSeed(long newSeed) {
        return new GradientCheck(step, newSeed, directions, perCoordinate);
    }

    /** The same check with {@code n} random directions (0 for per-coordinate only). */
    public GradientCheck withDirections(int n) {
        return new GradientCheck(step, seed, n, perCoordinate);
    }

    /** The same check with or without per-coordinate differences (2 evaluations per element). */
    public GradientCheck withPerCoordinate(boolean on) {
        return new GradientCheck(step, seed, directions, on);
    }

    /** Checks {@code op} applied to {@code inputs}, differentiating with respect to every input. */
    public Report checkOp(Op<?> op, Tensor... inputs) {
        Objects.requireNonNull(op, "op");
        Function<Var[], Var> f = xs -> Var.apply(op, xs);
        return check(f, inputs);
    }

    /**
     * Checks {@code f} at {@code inputs}. f receives one {@link Var} per input and must compute in
     * the inputs' dtype, float64 (make its constants with {@code Tensor.scalar(DType.F64, ..)} or
     * {@link Ops#scalar}); its output may have any shape.
     */
    public Report check(Function<Var[], Var> f, Tensor... inputs) {
        Objects.requireNonNull(f, "f");
        if (inputs.length == 0) {
            throw new IllegalArgumentException("no inputs to differentiate with respect to");
        }
        Tensor[] x = new Tensor[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            x[i] = inputs[i].to(DType.F64);
        }
        SplittableRandom rng = new SplittableRandom(seed);
        Tensor out = evaluate(f, x);
        double[] w = gaussian(rng, out.size());
        double[][] grads = backward(f, x, w);
        List<Comparison> comparisons = new ArrayList<>();
        int total = Arrays.stream(x).mapToInt(Tensor::size).sum();
        for (int t = 0; t < directions && total > 0; t++) {
            double[][] d = unitDirection(rng, x);
            double analytic = 0;
            for (int i = 0; i < x.length; i++) {
                for (int k = 0; k < d[i].length; k++) {
                    analytic += grads[i][k] * d[i][k];
                }
            }
            double numeric = centralDifference(f, x, w, d);
            comparisons.add(new Comparison("direction " + t, analytic, numeric));
        }
        if (perCoordinate) {
            for (int i = 0; i < x.length; i++) {
                for (int k = 0; k < x[i].size(); k++) {
                    double[][] e = new double[x.length][];
                    for (int j = 0; j < x.length; j++) {
                        e[j] = new double[x[j].size()];
                    }
                    e[i][k] = 1;
                    comparisons.add(new Comparison(coordinate(i, x[i], k), grads[i][k], centralDifference(f, x, w, e)));
                }
            }
        }
        return new Report(step, seed, List.copyOf(comparisons));
    }

    /** L(x + h d) - L(x - h d), over 2h. */
    private double centralDifference(Function<Var[], Var> f, Tensor[] x, double[] w, double[][] d) {
        return (loss(f, shifted(x, d, step), w) - loss(f, shifted(x, d, -step), w)) / (2 * step);
    }

    private static double loss(Function<Var[], Var> f, Tensor[] x, double[] w) {
        Tensor y = evaluate(f, x);
        double s = 0;
        for (int k = 0; k < w.length; k++) {
            s += w[k] * y.get(k);
        }
        return s;
    }

    private static Tensor evaluate(Function<Var[], Var> f, Tensor[] x) {
        try (NoGrad ignored = NoGrad.enter()) {
            Var[] vars = new Var[x.length];
            for (int i = 0; i < x.length; i++) {
                vars[i] = Var.constant(x[i]);
            }
            Var y = Objects.requireNonNull(f.apply(vars), "the checked function returned null");
            if (y.dtype() != DType.F64) {
                throw new IllegalArgumentException("the checked function returned " + y.dtype()
                        + "; it must compute in float64, the dtype of its inputs (create constants as F64)");
            }
            return y.value();
        }
    }

    private static double[][] backward(Function<Var[], Var> f, Tensor[] x, double[] w) {
        Var[] params = new Var[x.length];
        for (int i = 0; i < x.length; i++) {
            params[i] = Var.param(x[i]);
        }
        Var y = f.apply(params);
        if (y.requiresGrad()) {
            Tensor weights = Tensor.of(w.clone(), y.value().shape());
            Var.apply(weightedSum(weights), y).backward();
        }
        double[][] grads = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            Tensor g = params[i].grad();
            grads[i] = g == null ? new double[x[i].size()] : g.toDoubleArray();
        }
        return grads;
    }

    /** L = sum_k w_k y_k as its own node, so the check does not rely on the ops it may be checking. */
    private static Op<Void> weightedSum(Tensor w) {
        return Op.of("GradientCheck.weightedSum", in -> {
            double s = 0;
            for (int k = 0; k < w.size(); k++) {
                s += w.get(k) * in[0].get(k);
            }
            return Op.result(Tensor.scalar(DType.F64, s), null);
        }, (unused, g, needs) -> {
            Tensor dy = Tensor.zerosLike(w);
            for (int k = 0; k < w.size(); k++) {
                dy.set(k, g.item() * w.get(k));
            }
            return new Tensor[] {dy};
        });
    }

    private static Tensor[] shifted(Tensor[] x, double[][] d, double h) {
        Tensor[] out = new Tensor[x.length];
        for (int i = 0; i < x.length; i++) {
            double[] v = x[i].toDoubleArray();
            for (int k = 0; k < v.length; k++) {
                v[k] += h * d[i][k];
            }
            out[i] = Tensor.of(v, x[i].shape());
        }
        return out;
    }

    private static double[][] unitDirection(SplittableRandom rng, Tensor[] x) {
        double[][] d = new double[x.length][];
        double norm2 = 0;
        for (int i = 0; i < x.length; i++) {
            d[i] = gaussian(rng, x[i].size());
            for (double v : d[i]) {
                norm2 += v * v;
            }
        }
        double scale = 1 / Math.sqrt(norm2);
        for (double[] di : d) {
            for (int k = 0; k < di.length; k++) {
                di[k] *= scale;
            }
        }
        return d;
    }

    private static double[] gaussian(SplittableRandom rng, int n) {
        double[] v = new double[n];
        for (int k = 0; k < n; k++) {
            v[k] = rng.nextGaussian();
        }
        return v;
    }

    private static String coordinate(int input, Tensor x, int k) {
        String at = x.rank() == 2 ? "[" + k / x.cols() + ", " + k % x.cols() + "]" : x.rank() == 1 ? "[" + k + "]" : "";
        return "input " + input + at;
    }

    /**
     * One comparison of the backward pass with a central difference.
     *
     * @param where "direction t" or "input i[r, c]"
     * @param analytic what the backward pass gives: dot(dL/dx, d), or dL/dx at the coordinate
     * @param numeric the central difference
     */
    public record Comparison(String where, double analytic, double numeric) {
        /** |analytic - numeric|. */
        public double absError() {
            return Math.abs(analytic - numeric);
        }

        /** |analytic - numeric| / max(|analytic|, |numeric|); 0 when both are 0. */
        public double relError() {
            double scale = Math.max(Math.abs(analytic), Math.abs(numeric));
            return scale == 0 ? 0 : absError() / scale;
        }

        /** Whether |analytic - numeric| &lt;= absTol + relTol |numeric| (false for NaN). */
        public boolean within(double absTol, double relTol) {
            return absError() <= absTol + relTol * Math.abs(numeric);
        }

        @Override
        public String toString() {
            return where + ": backward " + analytic + " vs central difference " + numeric
                    + " (abs error " + absError() + ", rel error " + relError() + ")";
        }
    }

    /**
     * The outcome of a check: every comparison made, with the step and seed that reproduce it.
     *
     * @param step the finite-difference step h
     * @param seed the seed of the output weights and directions
     * @param comparisons directions first, then coordinates in input order
     */
    public record Report(double step, long seed, List<Comparison> comparisons) {
        private static final int SHOWN = 10;

        public Report {
            comparisons = List.copyOf(comparisons);
        }

        /** The largest absolute error (NaN if any comparison is NaN). */
        public double maxAbsError() {
            return worstAbsolute().map(Comparison::absError).orElse(0.0);
        }

        /** The largest relative error (NaN if any comparison is NaN). */
        public double maxRelError() {
            return worstRelative().map(Comparison::relError).orElse(0.0);
        }

        /** The comparison with the largest absolute error, where it is. */
        public Optional<Comparison> worstAbsolute() {
            return comparisons.stream().max(Comparator.comparingDouble(Comparison::absError));
        }

        /** The comparison with the largest relative error, where it is. */
        public Optional<Comparison> worstRelative() {
            return comparisons.stream().max(Comparator.comparingDouble(Comparison::relError));
        }

        /** {@link #assertWithin(double, double)} with one tolerance for both terms. */
        public Report assertWithin(double tolerance) {
            return assertWithin(tolerance, tolerance);
        }

        /**
         * Throws an {@link AssertionError} listing the worst comparisons unless every one satisfies
         * |backward - numeric| &lt;= absTol + relTol |numeric|; returns this report otherwise.
         */
        public Report assertWithin(double absTol, double relTol) {
            List<Comparison> failed = comparisons.stream()
                    .filter(c -> !c.within(absTol, relTol))
                    .sorted(Comparator.comparingDouble(Comparison::absError).reversed())
                    .toList();
            if (failed.isEmpty()) {
                return this;
            }
            StringBuilder sb = new StringBuilder("gradient check failed: ").append(failed.size()).append(" of ")
                    .append(comparisons.size()).append(" comparisons exceed |backward - numeric| <= ").append(absTol)
                    .append(" + ").append(relTol).append(" |numeric| (step ").append(step).append(", seed ")
                    .append(seed).append(')');
            failed.stream().limit(SHOWN).forEach(c -> sb.append("\n  ").append(c));
            if (failed.size() > SHOWN) {
                sb.append("\n  ... and ").append(failed.size() - SHOWN).append(" more");
            }
            throw new AssertionError(sb.toString());
        }
    }
}
