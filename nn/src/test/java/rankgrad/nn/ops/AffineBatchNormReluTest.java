package rankgrad.nn.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Workspace;

/** The fused Linear + BatchNorm + ReLU node against the three ops it replaces. */
class AffineBatchNormReluTest {
    private static final double EPS = 1e-5;
    private static final BatchNorm.StatisticsSink IGNORE = (m, v, n) -> { };

    private static Tensor random(SplittableRandom rng, DType dtype, double lo, double hi, int... shape) {
        Tensor t = Tensor.zeros(dtype, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(lo, hi));
        }
        return t;
    }

    @Test
    void backwardMatchesCentralDifferencesInFloat64() {
        SplittableRandom rng = new SplittableRandom(5);
        Tensor x = random(rng, DType.F64, -2, 2, 7, 3);
        Tensor w = random(rng, DType.F64, -1, 1, 3, 4);
        Tensor b = random(rng, DType.F64, -1, 1, 4);
        Tensor gamma = random(rng, DType.F64, 0.5, 2, 4);
        Tensor beta = random(rng, DType.F64, -0.5, 0.5, 4);
        AffineBatchNormRelu op = AffineBatchNormRelu.of(EPS, IGNORE);
        // The ReLU kink: central differences with h = 1e-6 are only valid 1e-3 or more away from it.
        Tensor u = Var.apply(BatchNorm.training(EPS), Var.constant(Ops.affine(Var.constant(x),
                Var.constant(w), Var.constant(b)).value()), Var.constant(gamma), Var.constant(beta)).value();
        for (int i = 0; i < u.size(); i++) {
            assertTrue(Math.abs(u.get(i)) > 1e-3, "seed puts a pre-activation at the kink: " + u.get(i));
        }
        // float64 with h = 1e-6: GradientCheck's error model expects ~1e-9 here; a wrong term errs by O(1).
        GradientCheck.withDefaults().withSeed(11).checkOp(op, x, w, b, gamma, beta).assertWithin(1e-6);
    }

    /** relu(batchNorm(affine(x, w, b))) with the unfused ops, reporting statistics to {@code seen}. */
    private static Var composed(Var[] v, List<double[]> seen) {
        Var z = Ops.affine(v[0], v[1], v[2]);
        return Ops.relu(Var.apply(BatchNorm.training(EPS, (m, var, n) -> {
            seen.add(m);
            seen.add(var);
        }), z, v[3], v[4]));
    }

    private static Var[] params(Tensor... t) {
        Var[] v = new Var[t.length];
        for (int i = 0; i < t.length; i++) {
            v[i] = Var.param(t[i].copy());
        }
        return v;
    }

    private static void assertSameBits(Tensor expected, Tensor actual, String what) {
        assertArrayEquals(expected.f32(), actual.f32(), 0f, what);
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(Float.floatToRawIntBits(expected.f32()[i]), Float.floatToRawIntBits(actual.f32()[i]),
                    what + " at " + i);
        }
    }

    @Test
    void float32IsBitIdenticalToTheUnfusedOpsWithAndWithoutAWorkspace() {
        // 1000 x 100 spans 4 row chunks of 327 rows and a vector tail of 4 columns at 16 lanes.
        int n = 1000;
        int k = 24;
        int c = 100;
        SplittableRandom rng = new SplittableRandom(6);
        Tensor x = random(rng, DType.F32, -3, 3, n, k);
        Tensor w = random(rng, DType.F32, -0.5, 0.5, k, c);
        // A large bias: the fused node adds it in its passes instead of storing Z + b.
        Tensor b = random(rng, DType.F32, 50, 60, c);
        Tensor gamma = random(rng, DType.F32, 0.5, 2, c);
        Tensor beta = random(rng, DType.F32, -1, 1, c);
        Tensor g = random(rng, DType.F32, -1, 1, n, c);
        List<double[]> seenComposed = new ArrayList<>();
        Var[] pc = params(x, w, b, gamma, beta);
        Var yc = composed(pc, seenComposed);
        yc.backward(g);
        Workspace ws = new Workspace();
        for (int round = 0; round < 3; round++) {
            // Round 0: fresh tensors; rounds 1-2: a workspace, the second time with recycled arrays
            // full of the first round's values (which a missed overwrite would leak into the result).
            List<double[]> seen = new ArrayList<>();
            BatchNorm.StatisticsSink sink = (m, var, rows) -> {
                seen.add(m);
                seen.add(var);
            };
            AffineBatchNormRelu op = round == 0 ? AffineBatchNormRelu.of(EPS, sink)
                    : AffineBatchNormRelu.inWorkspace(EPS, sink, ws, false, false);
            Var[] pf = params(x, w, b, gamma, beta);
            Var yf = Var.apply(op, pf);
            assertSameBits(yc.value(), yf.value(), "y, round " + round);
            yf.backward(g);
            for (int i = 0; i < 5; i++) {
                assertSameBits(pc[i].grad(), pf[i].grad(), "gradient of input " + i + ", round " + round);
            }
            assertArrayEquals(seenComposed.get(0), seen.get(0), 0.0, "mean");
            assertArrayEquals(seenComposed.get(1), seen.get(1), 0.0, "variance");
        }
        assertTrue(ws.freeCount() >= 2, "Z and dZ go back to the workspace");
    }

    @Test
    void float64MatchesTheUnfusedOps() {
        SplittableRandom rng = new SplittableRandom(7);
        Tensor[] in = {random(rng, DType.F64, -2, 2, 40, 5), random(rng, DType.F64, -1, 1, 5, 6),
            random(rng, DType.F64, -1, 1, 6), random(rng, DType.F64, 0.5, 2, 6), random(rng, DType.F64, -1, 1, 6)};
        Tensor g = random(rng, DType.F64, -1, 1, 40, 6);
        Var[] pc = params(in);
        Var yc = composed(pc, new ArrayList<>());
        yc.backward(g);
        Var[] pf = params(in);
        Var yf = Var.apply(AffineBatchNormRelu.of(EPS, IGNORE), pf);
        yf.backward(g);
        // The same float64 formulas, evaluated in a slightly different order (the bias is added in
        // each pass): 1e-12 on values and gradients of order 1-40 is a few hundred ulps.
        assertArrayEquals(yc.value().f64(), yf.value().f64(), 1e-12);
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(pc[i].grad().f64(), pf[i].grad().f64(), 1e-12, "input " + i);
        }
    }

    @Test
    void aSecondBackwardFailsWithAMessage() {
        SplittableRandom rng = new SplittableRandom(8);
        Var[] p = params(random(rng, DType.F32, -1, 1, 4, 2), random(rng, DType.F32, -1, 1, 2, 3),
                random(rng, DType.F32, -1, 1, 3), random(rng, DType.F32, 1, 2, 3), random(rng, DType.F32, -1, 1, 3));
        AffineBatchNormRelu op = AffineBatchNormRelu.of(EPS, IGNORE);
        Tensor g = Tensor.full(DType.F32, 1, 4, 3);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            Var y = Var.apply(op, p);
            y.backward(g);
            y.backward(g);
        });
        assertTrue(e.getMessage().contains("already been differentiated"), e.getMessage());
    }
}
