package rankgrad.nn.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class AdamTest {
    /** L = sum(c * p): the gradient is c at every step, so each step can be worked out by hand. */
    private static final Tensor C = Tensor.vector(0.5, -0.1);

    private static double[] twoSteps(Adam.Settings settings, DType dtype) {
        Var p = Var.param(Tensor.vector(1.0, -2.0).to(dtype));
        Adam adam = Adam.create(List.of(p), settings);
        for (int t = 0; t < 2; t++) {
            adam.zeroGrad();
            Ops.sum(Ops.mul(p, Var.constant(C.to(dtype)))).backward();
            adam.step();
        }
        return p.value().toDoubleArray();
    }

    private static Adam.Settings lr01() {
        return Adam.Settings.defaults().withLearningRate(0.1);
    }

    @Test
    void twoStepsWithoutWeightDecay() {
        // g = c at both steps: m_t / (1 - 0.9^t) = c and v_t / (1 - 0.999^t) = c^2, so each step moves
        // p by lr * c / (|c| + eps) = 0.1 sign(c) (1 - eps / |c|): p2 = (1, -2) - 2 (0.1, -0.1) + O(1e-8).
        double[] expected = {0.8000000040000006, -1.8000000199999986};
        // Float64 arithmetic of a handful of operations: 1e-15.
        assertArrayEquals(expected, twoSteps(lr01(), DType.F64), 1e-15);
    }

    @Test
    void twoStepsWithL2AddedToTheGradient() {
        // g1 = c + 0.5 p0 = (1, -1.1) moves p by 0.1 sign(g1) to (0.9, -1.9); g2 = c + 0.5 p1 =
        // (0.95, -1.05); m2 = 0.09 (1, -1.1) + 0.1 g2 = (0.185, -0.204), v2 = 0.000999 (1, 1.21) +
        // 0.001 g2^2 = (0.0019015, 0.00231129); p2 = p1 - 0.1 (m2 / 0.19) / (sqrt(v2 / 0.001999) + eps).
        double[] expected = {0.8001664876318763, -1.8001482374252264};
        assertArrayEquals(expected, twoSteps(lr01().withWeightDecay(0.5), DType.F64), 1e-15);
    }

    @Test
    void twoStepsWithDecoupledWeightDecay() {
        // AdamW: p is first scaled by 1 - 0.1 * 0.5 = 0.95, then moved by 0.1 sign(c) as without decay:
        // p1 = 0.95 (1, -2) - (0.1, -0.1) = (0.85, -1.8); p2 = 0.95 p1 - (0.1, -0.1) = (0.7075, -1.61).
        double[] expected = {0.7075000039000006, -1.6100000194999984};
        assertArrayEquals(expected, twoSteps(lr01().withDecoupledWeightDecay(0.5), DType.F64), 1e-15);
    }

    @Test
    void float32FollowsFloat64() {
        Adam.Settings s = lr01().withWeightDecay(0.5);
        // Same arithmetic in float32: a few float32 ulps of values ~2 (2.4e-7 each).
        assertArrayEquals(twoSteps(s, DType.F64), twoSteps(s, DType.F32), 2e-6);
    }

    @Test
    void parametersWithoutGradientAreLeftAlone() {
        Var a = Var.param(Tensor.vector(1.0));
        Var b = Var.param(Tensor.vector(5.0));
        Adam adam = Adam.create(List.of(a, b), lr01());
        Ops.sum(a).backward();
        adam.step();
        assertEquals(5.0, b.value().get(0), 0.0);
        assertEquals(0.0, adam.state().get("step.1").item(), 0.0);
        assertEquals(1.0, adam.state().get("step.0").item(), 0.0);
        adam.zeroGrad();
        assertNull(a.grad());
    }

    @Test
    void resumingFromSavedStateContinuesExactly() {
        Var p = Var.param(Tensor.vector(1f, -2f, 3f));
        Map<String, Var> named = Map.of("w", p);
        Adam first = Adam.create(named, lr01().withWeightDecay(0.01));
        step(first, p);
        // Snapshot model and optimizer, as a checkpoint would.
        Tensor savedP = p.value().copy();
        Map<String, Tensor> saved = new LinkedHashMap<>();
        first.state().forEach((k, v) -> saved.put(k, v.copy()));
        step(first, p);
        double[] uninterrupted = p.value().toDoubleArray();

        Var q = Var.param(savedP);
        Adam resumed = Adam.create(Map.of("w", q), lr01().withWeightDecay(0.01));
        resumed.loadState(saved);
        step(resumed, q);
        assertArrayEquals(uninterrupted, q.value().toDoubleArray(), 0.0);
        assertEquals(List.of("step.w", "exp_avg.w", "exp_avg_sq.w"), List.copyOf(resumed.state().keySet()));
    }

    private static void step(Adam adam, Var p) {
        adam.zeroGrad();
        Ops.sum(Ops.mul(p, p)).backward();
        adam.step();
    }

    @Test
    void badSettingsAndStateAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Adam.Settings.defaults().withLearningRate(0));
        assertThrows(IllegalArgumentException.class, () -> Adam.Settings.defaults().withBetas(1.0, 0.999));
        assertThrows(IllegalArgumentException.class, () -> Adam.Settings.defaults().withWeightDecay(-1));
        Adam adam = Adam.create(Map.of("w", Var.param(Tensor.vector(1.0, 2.0))), lr01());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> adam.loadState(Map.of("step.w", Tensor.scalar(DType.F64, 1))));
        assertTrue(e.getMessage().contains("exp_avg.w"), e.getMessage());
        Var interior = Ops.mul(Var.param(Tensor.vector(1.0)), 2.0);
        assertThrows(IllegalArgumentException.class, () -> Adam.create(List.of(interior), lr01()));
    }

    @Test
    void aWeightLeftWithOnlyL2NeverStaysSubnormal() {
        // The trap of a dead unit's weight under Adam + L2 (Yu's lr 1e-3, L2 1e-3): 100 steps of
        // gradient 1, then only lambda p. p then shrinks ever faster; unflushed, float32 arithmetic
        // leaves it near 1e-41 after ~20,000 steps with m = 0, where it stays.
        Var p = Var.param(Tensor.vector(0.05).to(DType.F32));
        Adam adam = Adam.create(Map.of("w", p), Adam.Settings.defaults().withWeightDecay(1e-3));
        Tensor m = adam.state().get("exp_avg.w");
        Tensor v = adam.state().get("exp_avg_sq.w");
        for (int t = 1; t <= 30_000; t++) {
            adam.zeroGrad();
            Ops.sum(Ops.mul(p, Var.constant(Tensor.vector(t <= 100 ? 1.0 : 0.0).to(DType.F32)))).backward();
            adam.step();
            for (Tensor x : new Tensor[] {p.value(), m, v}) {
                float value = x.f32()[0];
                assertTrue(value == 0f || Math.abs(value) >= Float.MIN_NORMAL, "subnormal " + value + " at step " + t);
            }
        }
        assertEquals(0f, p.value().f32()[0], "the weight reached 0 instead of a subnormal");
    }

    @Test
    void float64FlushZeroesExactlyTheSubnormals() {
        assertEquals(0.0, Adam.flush(Double.MIN_VALUE));
        assertEquals(0.0, Adam.flush(-Double.MIN_NORMAL / 2));
        assertEquals(-Double.MIN_NORMAL, Adam.flush(-Double.MIN_NORMAL));
        assertEquals(1.5, Adam.flush(1.5));
        assertTrue(Double.isNaN(Adam.flush(Double.NaN)), "NaN passes through to the divergence check");
    }
}
