package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** Hand-computed values and gradients of the elementwise ops, in float64 and float32. */
class UnaryOpsTest {
    /** Float64 results of one library call each: a few ulps of values of order 1. */
    private static final double F64_TOL = 1e-15;
    /** Float32 results rounded once from double: half an ulp, 6e-8 relative, of values below 10. */
    private static final double F32_TOL = 1e-6;

    private static final double E = Math.E;

    /** Value of f at x and the gradient of sum(f(x)), in float64. */
    private static double[][] valueAndGrad(UnaryOperator<Var> f, double... x) {
        Var v = Var.param(Tensor.vector(x));
        Var y = f.apply(v);
        Ops.sum(y).backward();
        return new double[][] {y.value().toDoubleArray(), v.grad().toDoubleArray()};
    }

    /** The same in float32, widened for comparison. */
    private static double[][] valueAndGradF32(UnaryOperator<Var> f, double... x) {
        Var v = Var.param(Tensor.vector(x).to(DType.F32));
        Var y = f.apply(v);
        assertEquals(DType.F32, y.dtype());
        Ops.sum(y).backward();
        return new double[][] {y.value().toDoubleArray(), v.grad().toDoubleArray()};
    }

    private static void check(UnaryOperator<Var> f, double[] x, double[] value, double[] grad) {
        double[][] r = valueAndGrad(f, x);
        assertArrayEquals(value, r[0], F64_TOL, "value");
        assertArrayEquals(grad, r[1], F64_TOL, "gradient");
        double[][] r32 = valueAndGradF32(f, x);
        assertArrayEquals(value, r32[0], F32_TOL, "float32 value");
        assertArrayEquals(grad, r32[1], F32_TOL, "float32 gradient");
    }

    @Test
    void exp() {
        check(Ops::exp, new double[] {0, 1, -1}, new double[] {1, E, 1 / E}, new double[] {1, E, 1 / E});
    }

    @Test
    void log() {
        check(Ops::log, new double[] {1, E, 0.5}, new double[] {0, 1, -Math.log(2)}, new double[] {1, 1 / E, 2});
    }

    @Test
    void log1pIsAccurateForTinyArguments() {
        check(Ops::log1p, new double[] {0, 1}, new double[] {0, Math.log(2)}, new double[] {1, 0.5});
        // ln(1 + 1e-10) = 1e-10 - 5e-21 + O(1e-31); forming 1 + x first would give 1.00000008e-10.
        assertEquals(1e-10 - 5e-21, valueAndGrad(Ops::log1p, 1e-10)[0][0], 1e-25);
    }

    @Test
    void sqrt() {
        check(Ops::sqrt, new double[] {4, 9, 0.25}, new double[] {2, 3, 0.5}, new double[] {0.25, 1.0 / 6, 1});
    }

    @Test
    void powWithSeveralExponents() {
        check(v -> Ops.pow(v, 3), new double[] {2, -1}, new double[] {8, -1}, new double[] {12, 3});
        check(v -> Ops.pow(v, 2), new double[] {1.5, -2}, new double[] {2.25, 4}, new double[] {3, -4});
        check(v -> Ops.pow(v, -1), new double[] {2, 4}, new double[] {0.5, 0.25}, new double[] {-0.25, -1.0 / 16});
        check(v -> Ops.pow(v, 0.5), new double[] {4, 16}, new double[] {2, 4}, new double[] {0.25, 0.125});
        check(v -> Ops.pow(v, 1.5), new double[] {4, 1}, new double[] {8, 1}, new double[] {3, 1.5});
        assertThrows(IllegalArgumentException.class, () -> Ops.pow(Var.param(Tensor.vector(1.0)), Double.NaN));
    }

    @Test
    void reciprocalIsCorrectlyRounded() {
        // 1/3 must be the double nearest to one third, as a division gives.
        assertEquals(1.0 / 3, valueAndGrad(v -> Ops.pow(v, -1), 3)[0][0], 0.0);
    }

    @Test
    void divWithBroadcastDenominator() {
        // a / b with b a column: dL/da = 1 / b, dL/db_i = -sum_j a_ij / b_i^2.
        Var a = Var.param(Tensor.matrix(DType.F64, new double[][] {{1, 6}, {2, 4}}));
        Var b = Var.param(Tensor.matrix(DType.F64, new double[][] {{2}, {4}}));
        Var y = Ops.div(a, b);
        assertArrayEquals(new double[] {0.5, 3, 0.5, 1}, y.value().toDoubleArray(), 0.0);
        Ops.sum(y).backward();
        assertArrayEquals(new double[] {0.5, 0.5, 0.25, 0.25}, a.grad().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {-7.0 / 4, -6.0 / 16}, b.grad().toDoubleArray(), F64_TOL);
        Var c = Var.param(Tensor.vector(3.0));
        assertArrayEquals(new double[] {1.5}, Ops.div(c, 2).value().toDoubleArray(), 0.0);
    }

    @Test
    void softplusIsStable() {
        double s1 = 1 / (1 + Math.exp(-1));
        check(Ops::softplus, new double[] {0, 1, -1}, new double[] {Math.log(2), Math.log1p(E), Math.log1p(1 / E)},
                new double[] {0.5, s1, 1 - s1});
        // ln(1 + e^1000) would overflow to infinity; e^-1000 underflows to 0 without a NaN.
        check(Ops::softplus, new double[] {1000, -1000}, new double[] {1000, 0}, new double[] {1, 0});
        // softplus(-30) = e^-30 (1 - e^-30 / 2 ...): log1p keeps it to an ulp, while ln(1 + e^-30)
        // would round 1 + 9.4e-14 first and be off by ~1e-16, a relative error of 1e-3.
        assertEquals(Math.exp(-30), valueAndGrad(Ops::softplus, -30)[0][0], 1e-26);
    }

    @Test
    void logSigmoidIsStable() {
        double s1 = 1 / (1 + Math.exp(-1));
        check(Ops::logSigmoid, new double[] {0, 1, -1}, new double[] {-Math.log(2), Math.log(s1), Math.log(1 - s1)},
                new double[] {0.5, 1 - s1, s1});
        // ln(sigmoid(-1000)) = -1000 - ln(1 + e^-1000): a naive log(sigmoid) gives -infinity.
        check(Ops::logSigmoid, new double[] {1000, -1000}, new double[] {0, -1000}, new double[] {0, 1});
    }
}
