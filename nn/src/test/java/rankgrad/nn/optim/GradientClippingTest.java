package rankgrad.nn.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class GradientClippingTest {

    @Test
    void scalesToTheMaximumNormAndReturnsTheNormBefore() {
        // Gradients (3, 0) and (4): global norm 5.
        Var a = Var.param(Tensor.vector(1.0, 1.0));
        Var b = Var.param(Tensor.vector(1.0));
        Ops.add(Ops.sum(Ops.mul(a, Var.constant(Tensor.vector(3.0, 0.0)))), Ops.mul(Ops.sum(b), 4.0)).backward();
        double norm = GradientClipping.clipGlobalNorm(List.of(a, b), 1.0);
        assertEquals(5.0, norm, 0.0);
        // Scale 1 / (5 + 1e-6) as PyTorch: within 1e-6 of (0.6, 0) and (0.8).
        assertArrayEquals(new double[] {0.6, 0.0}, a.grad().toDoubleArray(), 1e-6);
        assertArrayEquals(new double[] {0.8}, b.grad().toDoubleArray(), 1e-6);
        assertEquals(1.0, GradientClipping.globalNorm(List.of(a, b)), 1e-6);
    }

    @Test
    void gradientsBelowTheMaximumAreUntouched() {
        Var a = Var.param(Tensor.vector(3f, 4f));
        Ops.sum(Ops.mul(a, a)).backward();
        Tensor before = a.grad();
        assertEquals(10.0, GradientClipping.clipGlobalNorm(List.of(a), 10.0), 1e-6);
        assertSame(before, a.grad());
    }

    @Test
    void aGradientTensorSharedByTwoParametersIsScaledOnceForEach() {
        // The backward of a + b hands the same tensor to both inputs; clipping must not write into it.
        Var a = Var.param(Tensor.vector(0.0, 0.0));
        Var b = Var.param(Tensor.vector(0.0, 0.0));
        Ops.sum(Ops.add(a, b)).backward();
        Tensor shared = a.grad();
        double norm = GradientClipping.clipGlobalNorm(List.of(a, b), 1.0);
        assertEquals(2.0, norm, 1e-15);
        // Each gradient 1 / 2 (up to the 1e-6 guard), not 1 / 4, and the original tensor still holds 1s.
        assertArrayEquals(new double[] {0.5, 0.5}, a.grad().toDoubleArray(), 1e-6);
        assertArrayEquals(new double[] {0.5, 0.5}, b.grad().toDoubleArray(), 1e-6);
        assertArrayEquals(new double[] {1, 1}, shared.toDoubleArray(), 0.0);
    }

    @Test
    void nonFiniteNormLeavesGradientsForTheCallerToReport() {
        Var a = Var.param(Tensor.vector(Double.NaN, 1.0));
        Ops.sum(Ops.mul(a, a)).backward();
        Tensor before = a.grad();
        assertEquals(Double.NaN, GradientClipping.clipGlobalNorm(List.of(a), 1.0));
        assertSame(before, a.grad());
        assertThrows(IllegalArgumentException.class, () -> GradientClipping.clipGlobalNorm(List.of(a), 0.0));
    }

    @Test
    void float32GradientsKeepTheirDtype() {
        Var a = Var.param(Tensor.vector(30f, 40f));
        Ops.sum(Ops.mul(a, a)).backward();
        assertEquals(100.0, GradientClipping.clipGlobalNorm(List.of(a), 1.0), 1e-4);
        assertEquals(DType.F32, a.grad().dtype());
        // float32 rounding of 0.6 and 0.8.
        assertArrayEquals(new double[] {0.6, 0.8}, a.grad().toDoubleArray(), 1e-6);
    }
}
