package rankgrad.properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.testkit.GradientLaws;
import rankgrad.testkit.OpCase;
import rankgrad.testkit.OpCases;

/**
 * Laws of the built-in ops' gradients, on random shapes (dimensions 1..7) and values. QuickTheories
 * shrinks a failure to a small example and prints it with the seed that reproduces it.
 */
class OpGradientProperties {
    /** Small shapes make each example cheap; 50 per op over ~75 ops keeps the class to seconds. */
    private static final int EXAMPLES_PER_OP = 50;

    /**
     * Float64 central differences with h = 1e-6 err by about 2e-10 |L| + 2e-13 |L'''| (see
     * GradientCheck); here |L| stays below ~1e3 (at most 7 x 7 outputs of size up to e^3 times
     * N(0, 1) weights), so the expected error is below ~2e-7. A wrong backward errs by the size of
     * a gradient entry, O(0.1..10) for these inputs.
     */
    private static final double GRADIENT_TOLERANCE = 1e-6;

    /**
     * float32 rounds at 6e-8 relative; a case chains at most ~10 roundings over sums of at most 7
     * terms of magnitude up to ~50, so results agree to ~1e-5 relative to (1 + |value|). A wrong
     * float32 path (a misplaced offset, a missing term) is off by O(1).
     */
    private static final double F32_TOLERANCE = 1e-4;

    /** Every built-in op, and the rank operators with a smooth backward. */
    static List<OpCase> cases() {
        return Stream.concat(OpCases.all().stream(), OpCases.rankOperators().stream()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void backwardMatchesCentralDifference(OpCase op) {
        qt().withExamples(EXAMPLES_PER_OP).forAll(op.examples(), longs().all()).checkAssert((e, seed) ->
                GradientLaws.assertBackwardMatchesCentralDifference(op, e, seed, GRADIENT_TOLERANCE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void float32AgreesWithFloat64(OpCase op) {
        qt().withExamples(EXAMPLES_PER_OP).forAll(op.examples(), longs().all()).checkAssert((e, seed) ->
                GradientLaws.assertFloat32AgreesWithFloat64(op, e, seed, F32_TOLERANCE));
    }

    /** A node used several times receives the sum of the gradients of its uses. */
    @Test
    void fanOutAccumulates() {
        List<UnaryOperator<Var>> uses = List.of(
                Ops::exp,
                v -> Ops.mul(v, v),
                v -> Ops.matmul(v, true, v, false),
                Ops::softplus,
                Ops::logSoftmax,
                v -> Ops.sum(v, 0, true),
                v -> Ops.gather(v, 0, 0));
        OpCase shape = new OpCase("fan-out", d -> new int[][] {{d[0], d[1]}}, 0.5, 2, (e, x) -> x[0]);
        qt().withExamples(100).forAll(shape.examples(), integers().between(1, 4), longs().all())
                .checkAssert((e, count, seed) -> {
                    SplittableRandom rng = new SplittableRandom(seed);
                    int[] chosen = rng.ints(count, 0, uses.size()).toArray();
                    Tensor x = e.inputs()[0];
                    Tensor[] weights = new Tensor[count];
                    Var shared = Var.param(x);
                    Var total = null;
                    for (int u = 0; u < count; u++) {
                        Var y = uses.get(chosen[u]).apply(shared);
                        weights[u] = gaussian(rng, y.value().shape());
                        Var term = Ops.sum(Ops.mul(y, Var.constant(weights[u])));
                        total = total == null ? term : Ops.add(total, term);
                    }
                    total.backward();
                    double[] expected = new double[x.size()];
                    double scale = 1;
                    for (int u = 0; u < count; u++) {
                        Var alone = Var.param(x);
                        Ops.sum(Ops.mul(uses.get(chosen[u]).apply(alone), Var.constant(weights[u]))).backward();
                        for (int k = 0; k < expected.length; k++) {
                            expected[k] += alone.grad().get(k);
                            scale = Math.max(scale, Math.abs(alone.grad().get(k)));
                        }
                    }
                    // Each use's gradient is computed by the same ops both ways; only the order in
                    // which up to 4 terms are added may differ: a few ulps of the largest term.
                    assertArrayEquals(expected, shared.grad().toDoubleArray(), 1e-14 * count * scale,
                            "uses " + Arrays.toString(chosen));
                });
    }

    /**
     * y = softplus(X w) written as one custom node with a hand-derived backward
     * (dL/dX = (g . sigmoid(Xw)) w^T, dL/dw = X^T (g . sigmoid(Xw))) has the value and gradients
     * the engine derives for the same function composed of matmul and softplus.
     */
    @Test
    void customNodeEqualsAutomaticGradient() {
        OpCase shape = new OpCase("softplus(Xw)", d -> new int[][] {{d[0], d[1]}, {d[1], 1}}, -2, 2, (e, x) -> x[0]);
        qt().withExamples(100).forAll(shape.examples(), longs().all()).checkAssert((e, seed) -> {
            Tensor weights = gaussian(new SplittableRandom(seed), e.inputs()[0].rows(), 1);
            Var xc = Var.param(e.inputs()[0]);
            Var wc = Var.param(e.inputs()[1]);
            Var custom = Var.apply(SOFTPLUS_OF_LINEAR, xc, wc);
            Ops.sum(Ops.mul(custom, Var.constant(weights))).backward();
            Var xa = Var.param(e.inputs()[0]);
            Var wa = Var.param(e.inputs()[1]);
            Var automatic = Ops.softplus(Ops.matmul(xa, wa));
            Ops.sum(Ops.mul(automatic, Var.constant(weights))).backward();
            // Same formulas in float64; the matmul kernel may sum in another order or with FMA,
            // which moves results by a few ulps of values that stay below ~100 here.
            double tol = 1e-12;
            assertArrayEquals(automatic.value().toDoubleArray(), custom.value().toDoubleArray(), tol, "value");
            assertArrayEquals(xa.grad().toDoubleArray(), xc.grad().toDoubleArray(), tol, "dL/dX");
            assertArrayEquals(wa.grad().toDoubleArray(), wc.grad().toDoubleArray(), tol, "dL/dw");
        });
    }

    /** What the custom node keeps for backward. */
    private record Linear(Tensor x, Tensor w, double[] z) {
    }

    /** softplus(X w) for X (n x d) and w (d x 1) as one node, float64, with its backward by hand. */
    private static final Op<Linear> SOFTPLUS_OF_LINEAR = Op.of("softplusOfLinear", in -> {
        Tensor x = in[0];
        Tensor w = in[1];
        int n = x.rows();
        int d = x.cols();
        double[] z = new double[n];
        Tensor y = Tensor.zeros(DType.F64, n, 1);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                z[i] += x.get(i, j) * w.get(j);
            }
            y.set(i, Math.max(z[i], 0) + Math.log1p(Math.exp(-Math.abs(z[i]))));
        }
        return Op.result(y, new Linear(x, w, z));
    }, (saved, g, needs) -> {
        Tensor x = saved.x();
        int n = x.rows();
        int d = x.cols();
        Tensor dx = Tensor.zeros(DType.F64, n, d);
        Tensor dw = Tensor.zeros(DType.F64, d, 1);
        for (int i = 0; i < n; i++) {
            double s = g.get(i) / (1 + Math.exp(-saved.z()[i]));
            for (int j = 0; j < d; j++) {
                dx.set(i * d + j, s * saved.w().get(j));
                dw.set(j, dw.get(j) + x.get(i, j) * s);
            }
        }
        return new Tensor[] {dx, dw};
    });

    private static Tensor gaussian(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F64, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextGaussian());
        }
        return t;
    }
}
