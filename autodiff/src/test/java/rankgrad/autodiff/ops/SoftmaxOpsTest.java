package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** Hand-computed values and gradients of logsumexp, softmax and log-softmax. */
class SoftmaxOpsTest {
    /** Float64: a handful of roundings of values of order 1. */
    private static final double F64_TOL = 1e-15;
    /** Float32: a handful of roundings at 6e-8 relative of values below 4. */
    private static final double F32_TOL = 1e-6;

    /** S = sum e^(x - 3) for x = 1, 2, 3; softmax(1, 2, 3) = e^(x - 3) / S. */
    private static final double S = 1 + Math.exp(-1) + Math.exp(-2);
    private static final double[] P = {Math.exp(-2) / S, Math.exp(-1) / S, 1 / S};

    private static Var m(double[][] rows) {
        return Var.param(Tensor.matrix(DType.F64, rows));
    }

    @Test
    void logSumExpOfAllIsScalarWithSoftmaxGradient() {
        for (DType dtype : DType.values()) {
            double tol = dtype == DType.F64 ? F64_TOL : F32_TOL;
            Var x = Var.param(Tensor.vector(1.0, 2.0, 3.0).to(dtype));
            Var y = Ops.logSumExp(x);
            assertEquals(0, y.value().rank());
            assertEquals(3 + Math.log(S), y.value().item(), 4 * tol); // 3.4 has 4x the ulp of 1
            y.backward();
            assertArrayEquals(P, x.grad().toDoubleArray(), tol);
        }
    }

    @Test
    void logSumExpDoesNotOverflow() {
        for (DType dtype : DType.values()) {
            Var x = Var.param(Tensor.vector(1000.0, 1000.0).to(dtype));
            Var y = Ops.logSumExp(x);
            // Float32 rounds 1000 + ln 2 to an ulp of 6e-5.
            assertEquals(1000 + Math.log(2), y.value().item(), dtype == DType.F64 ? 1e-12 : 1e-4);
            y.backward();
            // exp((x - m) - ln 2) with x - m = 0 exactly: one exp and one rounding of ln 2.
            assertArrayEquals(new double[] {0.5, 0.5}, x.grad().toDoubleArray(), 1e-7);
        }
        Tensor minusInf = Tensor.vector(Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY);
        assertEquals(Double.NEGATIVE_INFINITY, Ops.logSumExp(Var.constant(minusInf)).value().item());
    }

    @Test
    void logSumExpPerAxisWithAndWithoutKeepDims() {
        Var x = m(new double[][] {{1, 2, 3}, {0, 0, 0}});
        Var rows = Ops.logSumExp(x, 1, false);
        assertArrayEquals(new int[] {2}, rows.value().shape());
        assertArrayEquals(new double[] {3 + Math.log(S), Math.log(3)}, rows.value().toDoubleArray(), F64_TOL);
        assertArrayEquals(new int[] {2, 1}, Ops.logSumExp(x, 1, true).value().shape());
        Var cols = Ops.logSumExp(x, 0, true);
        assertArrayEquals(new int[] {1, 3}, cols.value().shape());
        double[] expected = {Math.log1p(Math.E), Math.log(1 + Math.exp(2)), Math.log(1 + Math.exp(3))};
        assertArrayEquals(expected, cols.value().toDoubleArray(), 4 * F64_TOL); // values up to 3.05
        assertArrayEquals(new int[] {3}, Ops.logSumExp(x, 0, false).value().shape());
        // Gradient of column sums of logsumexp: each column's softmax over its two entries.
        Ops.sum(cols).backward();
        double[] g = x.grad().toDoubleArray();
        for (int j = 0; j < 3; j++) {
            assertEquals(1.0, g[j] + g[3 + j], F64_TOL, "column " + j + " gradient sums to 1");
        }
        assertEquals(Math.E / (1 + Math.E), g[0], F64_TOL);
    }

    @Test
    void softmaxValuesAndGradient() {
        for (DType dtype : DType.values()) {
            double tol = dtype == DType.F64 ? F64_TOL : F32_TOL;
            Var x = Var.param(Tensor.vector(1.0, 2.0, 3.0).to(dtype));
            Var y = Ops.softmax(x);
            assertArrayEquals(P, y.value().toDoubleArray(), tol);
            // L = y_0: dL/dx_j = y_0 (delta_0j - y_j).
            Ops.sum(Ops.gather(y, 0)).backward();
            double[] expected = {P[0] * (1 - P[0]), -P[0] * P[1], -P[0] * P[2]};
            assertArrayEquals(expected, x.grad().toDoubleArray(), tol);
        }
    }

    @Test
    void softmaxIsStableForLargeInputs() {
        for (DType dtype : DType.values()) {
            Var x = Var.constant(Tensor.vector(1000.0, 0.0, 1000.0).to(dtype));
            assertArrayEquals(new double[] {0.5, 0, 0.5}, Ops.softmax(x).value().toDoubleArray(), 0.0);
        }
    }

    @Test
    void softmaxPerRowAndPerColumn() {
        double ln3 = Math.log(3);
        Var x = m(new double[][] {{0, ln3}, {0, 0}});
        assertArrayEquals(new double[] {0.25, 0.75, 0.5, 0.5}, Ops.softmax(x).value().toDoubleArray(), F64_TOL);
        assertArrayEquals(new double[] {0.25, 0.75, 0.5, 0.5}, Ops.softmax(x, 1).value().toDoubleArray(), F64_TOL);
        assertArrayEquals(new double[] {0.5, 0.75, 0.5, 0.25}, Ops.softmax(x, 0).value().toDoubleArray(), F64_TOL);
        assertArrayEquals(new double[] {1.0 / 6, 0.5, 1.0 / 6, 1.0 / 6}, Ops.softmax(x, -1).value().toDoubleArray(), F64_TOL);
    }

    @Test
    void logSoftmaxValuesAndGradient() {
        for (DType dtype : DType.values()) {
            double tol = dtype == DType.F64 ? F64_TOL : F32_TOL;
            Var x = Var.param(Tensor.vector(1.0, 2.0, 3.0).to(dtype));
            Var y = Ops.logSoftmax(x);
            double lse = 3 + Math.log(S);
            // Values up to -2.4 and an expected value formed from 3.4: 4x the ulp of 1.
            assertArrayEquals(new double[] {1 - lse, 2 - lse, 3 - lse}, y.value().toDoubleArray(), 4 * tol);
            // L = y_0: dL/dx_j = delta_0j - softmax_j.
            Ops.sum(Ops.gather(y, 0)).backward();
            assertArrayEquals(new double[] {1 - P[0], -P[1], -P[2]}, x.grad().toDoubleArray(), tol);
        }
    }

    @Test
    void logSoftmaxKeepsFarTailsFinite() {
        // softmax(0, -1000) underflows to (1, 0), but its log is (0, -1000), not -infinity.
        for (DType dtype : DType.values()) {
            Var x = Var.constant(Tensor.vector(0.0, -1000.0).to(dtype));
            assertArrayEquals(new double[] {0, -1000}, Ops.logSoftmax(x).value().toDoubleArray(), 0.0);
        }
    }

    @Test
    void logSoftmaxPerColumn() {
        Var x = m(new double[][] {{0, Math.log(3)}, {0, 0}});
        double[] y = Ops.logSoftmax(x, 0).value().toDoubleArray();
        double[] expected = {Math.log(0.5), Math.log(0.75), Math.log(0.5), Math.log(0.25)};
        assertArrayEquals(expected, y, 4 * F64_TOL); // logs of 0.25 .. 0.75: values up to 1.4
    }

    @Test
    void axisErrorsSayWhatToDo() {
        Var v = Var.param(Tensor.vector(1.0, 2.0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ops.softmax(v, 0));
        assertTrue(e.getMessage().contains("needs a matrix") && e.getMessage().contains("axis -1"), e.getMessage());
        Var x = m(new double[][] {{1, 2}});
        e = assertThrows(IllegalArgumentException.class, () -> Ops.logSumExp(x, 2, false));
        assertTrue(e.getMessage().contains("axis must be 0 or 1"), e.getMessage());
    }
}
