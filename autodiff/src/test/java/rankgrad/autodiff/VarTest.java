package rankgrad.autodiff;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VarTest {

    @Test
    void productRuleAndFanOut() {
        // L = sum(a * a + a * b): dL/da = 2a + b, dL/db = a. 'a' fans out three times.
        Var a = Var.param(Tensor.vector(1.0, 2.0, 3.0));
        Var b = Var.param(Tensor.vector(4.0, 5.0, 6.0));
        Ops.sum(Ops.add(Ops.mul(a, a), Ops.mul(a, b))).backward();
        assertArrayEquals(new double[] {6, 9, 12}, a.grad().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {1, 2, 3}, b.grad().toDoubleArray(), 0.0);
    }

    @Test
    void gradientsReachingANodeSeveralTimesAddUpWithoutTouchingSharedTensors() {
        // dL/dx = 1 + 1 + 3, dL/dz = 1. Add hands one gradient tensor to both of its inputs, so x's
        // first gradient may also be z's: adding x's later gradients into it in place would change
        // z's. Both operand orders, since which of x's gradients arrives first follows the graph's
        // order. Large enough to be added in several parallel ranges.
        int n = 100_003;
        for (boolean sumFirst : new boolean[] {true, false}) {
            Var x = Var.param(Tensor.zeros(DType.F32, n));
            Var z = Var.param(Tensor.zeros(DType.F32, n));
            Var sum = Ops.add(Ops.add(x, z), x);
            Var scaled = Ops.mul(x, 3.0);
            Ops.sum(sumFirst ? Ops.add(sum, scaled) : Ops.add(scaled, sum)).backward();
            float[] dx = x.grad().f32();
            float[] dz = z.grad().f32();
            for (int i = 0; i < n; i += 997) {
                assertEquals(5f, dx[i], "dL/dx[" + i + "]");
                assertEquals(1f, dz[i], "dL/dz[" + i + "]");
            }
            assertEquals(5f, dx[n - 1]);
            assertEquals(1f, dz[n - 1]);
        }
    }

    @Test
    void matmulGradientsOfRowBroadcastBias() {
        // y = x W + bias, L = sum(y): dW[p][j] = sum_i x[i][p], dbias[j] = rows.
        Var x = Var.constant(Tensor.matrix(DType.F64, new double[][] {{1, 2}, {3, 4}, {5, 6}}));
        Var w = Var.param(Tensor.matrix(DType.F64, new double[][] {{1, 0, -1}, {2, 1, 0}}));
        Var bias = Var.param(Tensor.vector(0.5, 0.5, 0.5));
        Var y = Ops.add(Ops.matmul(x, w), bias);
        assertArrayEquals(new double[] {5.5, 2.5, -0.5, 11.5, 4.5, -2.5, 17.5, 6.5, -4.5}, y.value().toDoubleArray(), 0.0);
        Ops.sum(y).backward();
        assertArrayEquals(new double[] {9, 9, 9, 12, 12, 12}, w.grad().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {3, 3, 3}, bias.grad().toDoubleArray(), 0.0);
        assertNull(x.grad(), "constants get no gradient");
    }

    @Test
    void longChainsDoNotOverflowTheStack() {
        Var x = Var.param(Tensor.scalar(DType.F64, 1.0));
        Var y = x;
        for (int i = 0; i < 200_000; i++) {
            y = Ops.add(y, 1.0);
        }
        y.backward();
        assertEquals(1.0, x.grad().item(), 0.0);
    }

    @Test
    void noGradScopeRecordsNothing() {
        Var x = Var.param(Tensor.vector(1.0f, 2.0f));
        Var y;
        try (NoGrad ignored = NoGrad.enter()) {
            y = Ops.sum(Ops.mul(x, x));
        }
        assertTrue(y.isLeaf());
        assertThrows(IllegalStateException.class, y::backward);
    }

    @Test
    void opWithoutBackwardSaysSo() {
        Op<Void> forwardOnly = new Op<>() {
            @Override
            public Result<Void> forward(Tensor... in) {
                return Op.result(in[0].copy(), null);
            }

            @Override
            public String name() {
                return "argsortish";
            }
        };
        Var x = Var.param(Tensor.vector(1.0, 2.0));
        Var y = Ops.sum(Var.apply(forwardOnly, x));
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, y::backward);
        assertEquals("no gradient rule for argsortish", e.getMessage());
    }

    @Test
    void gradientOfWrongShapeIsRejected() {
        Op<Void> broken = Op.of("broken", in -> Op.result(in[0].copy(), null),
                (saved, g, needs) -> new Tensor[] {Tensor.zeros(DType.F64, 3)});
        Var x = Var.param(Tensor.vector(1.0, 2.0));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Ops.sum(Var.apply(broken, x)).backward());
        assertTrue(e.getMessage().contains("gradient from broken input 0 has F64[3]"), e.getMessage());
    }
}
