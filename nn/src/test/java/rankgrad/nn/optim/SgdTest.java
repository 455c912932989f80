package rankgrad.nn.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class SgdTest {

    /** Two steps on L = sum(p^2) (gradient 2p) from p = (1, -2). */
    private static double[] twoSteps(Sgd.Settings settings, DType dtype) {
        Var p = Var.param(Tensor.vector(1.0, -2.0).to(dtype));
        Sgd sgd = Sgd.create(List.of(p), settings);
        for (int t = 0; t < 2; t++) {
            sgd.zeroGrad();
            Ops.sum(Ops.mul(p, p)).backward();
            sgd.step();
        }
        return p.value().toDoubleArray();
    }

    @Test
    void twoStepsWithMomentumAndWeightDecay() {
        // d = 2p + 0.01p = 2.01p. Step 1: b1 = 2.01 p0, p1 = p0 - 0.1 b1 = 0.799 p0.
        // Step 2: b2 = 0.9 b1 + 2.01 p1 = 2.01 (0.9 + 0.799) p0, p2 = p1 - 0.1 b2 = 0.457501 p0.
        Sgd.Settings s = Sgd.Settings.of(0.1).withMomentum(0.9).withWeightDecay(0.01);
        // A few float64 roundings of O(1) values: 1e-15.
        assertArrayEquals(new double[] {0.457501, -0.915002}, twoSteps(s, DType.F64), 1e-15);
        // float32: a few ulps of O(1) values.
        assertArrayEquals(new double[] {0.457501, -0.915002}, twoSteps(s, DType.F32), 1e-6);
    }

    @Test
    void twoPlainSteps() {
        // p_{t+1} = p_t - 0.1 * 2 p_t = 0.8 p_t, twice: 0.64 p0. float32 runs on the axpy kernel.
        assertArrayEquals(new double[] {0.64, -1.28}, twoSteps(Sgd.Settings.of(0.1), DType.F64), 1e-15);
        assertArrayEquals(new double[] {0.64, -1.28}, twoSteps(Sgd.Settings.of(0.1), DType.F32), 1e-6);
    }

    @Test
    void momentumBufferIsTheCheckpointState() {
        Var p = Var.param(Tensor.vector(1.0, -2.0));
        Sgd sgd = Sgd.create(List.of(p), Sgd.Settings.of(0.1).withMomentum(0.5));
        Ops.sum(Ops.mul(p, p)).backward();
        sgd.step();
        // The first buffer is the gradient itself, 2 p0.
        assertArrayEquals(new double[] {2, -4}, sgd.state().get("momentum_buffer.0").toDoubleArray(), 0.0);
        assertEquals(0, Sgd.create(List.of(p), Sgd.Settings.of(0.1)).state().size());
    }
}
