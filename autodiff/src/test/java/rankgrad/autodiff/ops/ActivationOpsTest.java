package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class ActivationOpsTest {

    private static final UnaryOperator<Var> RELU = Ops::relu;
    private static final UnaryOperator<Var> LEAKY = x -> Ops.leakyRelu(x, 0.1);
    private static final UnaryOperator<Var> CELU = x -> Ops.celu(x, 2.0);
    private static final UnaryOperator<Var> TANH = Ops::tanh;
    private static final UnaryOperator<Var> SIGMOID = Ops::sigmoid;
    private static final Map<String, UnaryOperator<Var>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("relu", RELU);
        ALL.put("leakyRelu(0.1)", LEAKY);
        ALL.put("celu(2)", CELU);
        ALL.put("tanh", TANH);
        ALL.put("sigmoid", SIGMOID);
    }

    private static double[] apply(UnaryOperator<Var> f, double... x) {
        return f.apply(Var.constant(Tensor.vector(x))).value().toDoubleArray();
    }

    @Test
    void valuesOnHandExamples() {
        // Exact for relu and leaky relu; the transcendental ones are compared with the JDK's
        // double functions written out, to 1 ulp-level slack (1e-15).
        assertArrayEquals(new double[] {0, 0, 0, 2.5}, apply(RELU, -3, -0.0, 0, 2.5), 0.0);
        assertArrayEquals(new double[] {-0.3, 0, 2.5}, apply(LEAKY, -3, 0, 2.5), 1e-15);
        assertArrayEquals(new double[] {2 * (Math.exp(-1.5) - 1), 0, 4}, apply(CELU, -3, 0, 4), 1e-15);
        assertArrayEquals(new double[] {Math.tanh(-3), 0, Math.tanh(0.5)}, apply(TANH, -3, 0, 0.5), 1e-15);
        assertArrayEquals(new double[] {1 / (1 + Math.exp(3)), 0.5, 1 / (1 + Math.exp(-0.5))},
                apply(SIGMOID, -3, 0, 0.5), 1e-15);
    }

    @Test
    void backwardMatchesCentralDifference() {
        SplittableRandom rng = new SplittableRandom(11);
        ALL.forEach((name, f) -> {
            // Values kept at least 0.05 away from the kinks of relu / leaky relu at 0.
            double[] x = new double[40];
            double[] w = new double[40];
            for (int i = 0; i < x.length; i++) {
                double mag = rng.nextDouble(0.05, 4.0);
                x[i] = rng.nextBoolean() ? mag : -mag;
                w[i] = rng.nextDouble(-1, 1);
            }
            Tensor weights = Tensor.vector(w);
            Function<Var[], Var> loss = v -> Ops.sum(Ops.mul(f.apply(v[0]), Var.constant(weights)));
            Tensor[] in = {Tensor.vector(x)};
            GradientCheck.Report report = GradientCheck.withDefaults().withStep(1e-5).withPerCoordinate(true).check(loss, in);
            // Central differences in float64 with h = 1e-5 are accurate to ~1e-9 here.
            report.comparisons().forEach(c -> assertTrue(c.within(1e-8, 1e-8), () -> name + ": " + c));
        });
    }

    @Test
    void float32MatchesFloat64OnLargeInputs() {
        // 100003 elements: several parallel chunks plus a ragged tail in every kernel call.
        int n = 100_003;
        SplittableRandom rng = new SplittableRandom(5);
        double[] x = new double[n];
        double[] g = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rng.nextDouble(-8, 8);
            g[i] = rng.nextDouble(-1, 1);
        }
        ALL.forEach((name, f) -> {
            Var x64 = Var.param(Tensor.vector(x));
            Var x32 = Var.param(Tensor.vector(x).to(DType.F32));
            Var y64 = f.apply(x64);
            Var y32 = f.apply(x32);
            y64.backward(Tensor.vector(g));
            y32.backward(Tensor.vector(g).to(DType.F32));
            // Inputs are rounded to float32 (relative 6e-8) and outputs are O(8) at most; CELU's
            // exp(x/alpha) - 1 in float32 and the kernels' few-ulp exp/tanh stay below 1e-5 absolute.
            assertArraysClose(y64.value().toDoubleArray(), y32.value().toDoubleArray(), 1e-5, name + " forward");
            assertArraysClose(x64.grad().toDoubleArray(), x32.grad().toDoubleArray(), 1e-5, name + " backward");
        });
    }

    @Test
    void sigmoidIsStableAtExtremes() {
        double[] x = {-1000, -100, 100, 1000, -Float.MAX_VALUE, Float.MAX_VALUE};
        for (DType dtype : DType.values()) {
            Var v = Var.param(Tensor.vector(x).to(dtype));
            Var y = Ops.sigmoid(v);
            Ops.sum(y).backward();
            double[] ys = y.value().toDoubleArray();
            double[] gs = v.grad().toDoubleArray();
            for (int i = 0; i < x.length; i++) {
                assertTrue(ys[i] >= 0 && ys[i] <= 1, dtype + " sigmoid(" + x[i] + ") = " + ys[i]);
                assertTrue(Double.isFinite(gs[i]) && gs[i] >= 0, dtype + " sigmoid'(" + x[i] + ") = " + gs[i]);
            }
            // 1 - sigma(1000) is far below the rounding of 1, and sigma(-1000) underflows to 0.
            assertEquals(1.0, ys[3], 0.0);
            assertEquals(0.0, ys[0], 0.0);
        }
    }

    @Test
    void celuIsFiniteForLargeInputsInFloat32() {
        // exp(1000 / alpha) overflows to infinity inside the op; the x > 0 branch must not see it.
        Var x = Var.param(Tensor.vector(1000f, -1000f, 88.7f));
        Var y = Ops.celu(x, 1.0);
        Ops.sum(y).backward();
        assertArrayEquals(new double[] {1000, -1, 88.7f}, y.value().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {1, 0, 1}, x.grad().toDoubleArray(), 0.0);
    }

    @Test
    void reluGradientAtZeroIsZeroAndLeakyReluIsSlope() {
        Var x = Var.param(Tensor.vector(0.0, 0.0));
        Ops.sum(Ops.relu(x)).backward();
        assertArrayEquals(new double[] {0, 0}, x.grad().toDoubleArray(), 0.0);
        Var z = Var.param(Tensor.vector(0.0, -2.0));
        Ops.sum(Ops.leakyRelu(z, 0.25)).backward();
        assertArrayEquals(new double[] {0.25, 0.25}, z.grad().toDoubleArray(), 0.0);
    }

    @Test
    void invalidSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Celu.withAlpha(0));
        assertThrows(IllegalArgumentException.class, () -> Celu.withAlpha(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> LeakyRelu.withSlope(Double.POSITIVE_INFINITY));
    }

    static void assertArraysClose(double[] expected, double[] actual, double tol, String what) {
        assertEquals(expected.length, actual.length, what + " length");
        for (int i = 0; i < expected.length; i++) {
            if (Math.abs(expected[i] - actual[i]) > tol) {
                throw new AssertionError(what + " differs at " + i + ": " + expected[i] + " vs " + actual[i]);
            }
        }
    }
}
