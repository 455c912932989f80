package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class AffineTest {

    private static Tensor random(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F64, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(-1, 1));
        }
        return t;
    }

    @Test
    void equalsMatmulPlusBiasWithItsGradients() {
        // 3000 rows: the bias gradient's column sums span several row chunks.
        SplittableRandom rng = new SplittableRandom(3);
        Tensor x = random(rng, 3000, 7);
        Tensor w = random(rng, 7, 5);
        Tensor b = random(rng, 5);
        Tensor g = random(rng, 3000, 5);
        Var[] fused = {Var.param(x), Var.param(w), Var.param(b)};
        Var[] composed = {Var.param(x), Var.param(w), Var.param(b)};
        Var yf = Ops.affine(fused[0], fused[1], fused[2]);
        Var yc = Ops.add(Ops.matmul(composed[0], composed[1]), composed[2]);
        // Same GEMM, same additions: identical values and identical dx, dW.
        assertArrayEquals(yc.value().toDoubleArray(), yf.value().toDoubleArray(), 0.0);
        yf.backward(g);
        yc.backward(g);
        assertArrayEquals(composed[0].grad().toDoubleArray(), fused[0].grad().toDoubleArray(), 0.0);
        assertArrayEquals(composed[1].grad().toDoubleArray(), fused[1].grad().toDoubleArray(), 0.0);
        // db sums 3000 values of magnitude <= 1 in another order (chunks): float64 rounding, ~1e-13.
        assertArrayEquals(composed[2].grad().toDoubleArray(), fused[2].grad().toDoubleArray(), 1e-11);
    }

    @Test
    void float32MatchesFloat64() {
        SplittableRandom rng = new SplittableRandom(4);
        Tensor x = random(rng, 2500, 13);
        Tensor w = random(rng, 13, 9);
        Tensor b = random(rng, 9);
        Tensor g = random(rng, 2500, 9);
        Var[] v64 = {Var.param(x), Var.param(w), Var.param(b)};
        Var[] v32 = {Var.param(x.to(DType.F32)), Var.param(w.to(DType.F32)), Var.param(b.to(DType.F32))};
        Var y64 = Ops.affine(v64[0], v64[1], v64[2]);
        Var y32 = Ops.affine(v32[0], v32[1], v32[2]);
        y64.backward(g);
        y32.backward(g.to(DType.F32));
        // Outputs are sums of 13 products in float32 (error ~1e-6); dW and db sum 2500 terms of
        // size <= 1 (float32 accumulation error up to ~2500 * 6e-8 * |sum|, well under 1e-3).
        ActivationOpsTest.assertArraysClose(y64.value().toDoubleArray(), y32.value().toDoubleArray(), 1e-5, "y");
        ActivationOpsTest.assertArraysClose(v64[0].grad().toDoubleArray(), v32[0].grad().toDoubleArray(), 1e-5, "dx");
        ActivationOpsTest.assertArraysClose(v64[1].grad().toDoubleArray(), v32[1].grad().toDoubleArray(), 1e-3, "dW");
        ActivationOpsTest.assertArraysClose(v64[2].grad().toDoubleArray(), v32[2].grad().toDoubleArray(), 1e-3, "db");
    }

    @Test
    void mismatchedShapesAreRejectedWithTheShapes() {
        Var x = Var.constant(Tensor.zeros(DType.F64, 4, 3));
        Var w = Var.constant(Tensor.zeros(DType.F64, 2, 5));
        Var b = Var.constant(Tensor.zeros(DType.F64, 5));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ops.affine(x, w, b));
        assertTrue(e.getMessage().contains("3 columns") && e.getMessage().contains("2 rows"), e.getMessage());
        Var w2 = Var.constant(Tensor.zeros(DType.F64, 3, 5));
        Var b2 = Var.constant(Tensor.zeros(DType.F64, 4));
        assertThrows(IllegalArgumentException.class, () -> Ops.affine(x, w2, b2));
    }
}
