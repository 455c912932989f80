package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Parallel;
import rankgrad.nn.optim.Adam;

/**
 * The training-mode MLP runs each Linear, BatchNorm, ReLU triple as one fused node with its
 * internal tensors in a workspace: the same bits as the modules run one by one, and no tensor the
 * caller holds is ever recycled under them.
 */
class MlpFusedLayersTest {

    private static Mlp.Builder r4l(int features) {
        return Mlp.builder(features).hidden(40, 40, 40).activation(Activation.relu()).batchNorm(true).seed(3);
    }

    private static Tensor random(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F32, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextGaussian());
        }
        return t;
    }

    /** A loss sum(out * weights) whose gradient reaches every parameter. */
    private static Var loss(Var out, Tensor weights) {
        return Ops.sum(Ops.mul(out, Var.constant(weights)));
    }

    private static void assertSameBits(Map<String, Tensor> expected, Map<String, Tensor> actual, String when) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((name, t) -> assertArrayEquals(t.f32(), actual.get(name).f32(), 0f, name + " " + when));
    }

    /** Adam steps on batches of one size, fused ({@code Mlp.forward}) or not ({@code layers().forward}). */
    private static void assertFusedStepsEqualUnfused(Mlp.Builder spec, int rows, int features) {
        Mlp fused = spec.build();
        Mlp plain = spec.build();
        Adam a = Adam.create(fused.namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
        Adam b = Adam.create(plain.namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
        SplittableRandom rng = new SplittableRandom(9);
        for (int step = 0; step < 4; step++) {
            Tensor x = random(rng, rows, features);
            Tensor w = random(rng, rows, fused.spec().outputWidth());
            a.zeroGrad();
            b.zeroGrad();
            Var yf = fused.forward(Var.constant(x));
            Var yp = plain.layers().forward(Var.constant(x));
            assertArrayEquals(yp.value().f32(), yf.value().f32(), 0f, "output at step " + step);
            loss(yf, w).backward();
            loss(yp, w).backward();
            for (String name : fused.namedParameters().keySet()) {
                assertArrayEquals(plain.namedParameters().get(name).grad().f32(),
                        fused.namedParameters().get(name).grad().f32(), 0f, "gradient of " + name + " at step " + step);
            }
            a.step();
            b.step();
            assertSameBits(plain.state(), fused.state(), "after step " + step);
        }
    }

    @Test
    void fusedTrainingStepsAreBitIdenticalToTheModulesOneByOne() {
        assertFusedStepsEqualUnfused(r4l(30), 700, 30);
    }

    @Test
    void fusedStepsWithInputBatchNormAndActivatedOutputAreBitIdentical() {
        assertFusedStepsEqualUnfused(r4l(30).inputBatchNorm(true).lastActivated(true).output(2), 500, 30);
    }

    @Test
    void fusedTrainingGivesTheSameBitsForOneTwoAndThreeThreads() {
        int before = Parallel.threads();
        try {
            Map<String, Tensor> reference = null;
            for (int threads = 1; threads <= 3; threads++) {
                Parallel.setThreads(threads);
                // Width 100 on 1000 rows: 4 row chunks per pass, several GEMM blocks.
                Mlp net = Mlp.builder(30).hidden(100, 100).activation(Activation.relu()).batchNorm(true).seed(4).build();
                Adam adam = Adam.create(net.namedParameters(), Adam.Settings.defaults());
                SplittableRandom rng = new SplittableRandom(13);
                for (int step = 0; step < 3; step++) {
                    adam.zeroGrad();
                    loss(net.forward(Var.constant(random(rng, 1000, 30))), random(rng, 1000, 1)).backward();
                    adam.step();
                }
                if (reference == null) {
                    reference = net.state();
                } else {
                    assertSameBits(reference, net.state(), "with " + threads + " threads");
                }
            }
        } finally {
            Parallel.setThreads(before);
        }
    }

    /** Steps on one batch size (so the workspace recycles); the first step's output must not change. */
    private static void assertHeldOutputSurvivesLaterSteps(Mlp net, int rows, int features) {
        Adam adam = Adam.create(net.namedParameters(), Adam.Settings.defaults());
        SplittableRandom rng = new SplittableRandom(10);
        Var held = null;
        float[] copy = null;
        Map<String, float[]> gradients = new java.util.HashMap<>();
        for (int step = 0; step < 4; step++) {
            adam.zeroGrad();
            Var out = net.forward(Var.constant(random(rng, rows, features)));
            loss(out, random(rng, rows, net.spec().outputWidth())).backward();
            if (step == 0) {
                held = out;
                copy = out.value().f32().clone();
                net.namedParameters().forEach((name, p) -> gradients.put(name, p.grad().f32().clone()));
                // The gradients themselves are kept by the caller across the next steps.
                net.namedParameters().forEach((name, p) -> gradients.put(name + "#held", p.grad().f32()));
            }
            adam.step();
        }
        assertArrayEquals(copy, held.value().f32(), 0f, "an output handed out was overwritten by a later step");
        net.namedParameters().keySet().forEach(name -> assertArrayEquals(gradients.get(name),
                gradients.get(name + "#held"), 0f, "a gradient handed out was overwritten: " + name));
    }

    @Test
    void anOutputHandedOutIsNeverRecycled() {
        assertHeldOutputSurvivesLaterSteps(r4l(20).build(), 300, 20);
    }

    @Test
    void theOutputOfAFusedLastLayerIsNeverRecycled() {
        // Here the last module is a fused Linear, BatchNorm, ReLU: its output is the network's.
        assertHeldOutputSurvivesLaterSteps(r4l(20).lastActivated(true).output(3).build(), 300, 20);
    }

    @Test
    void twoForwardPassesBeforeOneBackwardKeepTheirOwnTensors() {
        Mlp fused = r4l(12).build();
        Mlp plain = r4l(12).build();
        SplittableRandom rng = new SplittableRandom(12);
        Tensor x1 = random(rng, 200, 12);
        Tensor x2 = random(rng, 200, 12);
        Tensor w1 = random(rng, 200, 1);
        Tensor w2 = random(rng, 200, 1);
        for (int round = 0; round < 2; round++) {
            Function<Function<Var, Var>, Var> twoBatches = f -> Ops.add(loss(f.apply(Var.constant(x1)), w1),
                    loss(f.apply(Var.constant(x2)), w2));
            fused.namedParameters().values().forEach(Var::zeroGrad);
            plain.namedParameters().values().forEach(Var::zeroGrad);
            twoBatches.apply(fused::forward).backward();
            twoBatches.apply(plain.layers()::forward).backward();
            for (String name : fused.namedParameters().keySet()) {
                assertArrayEquals(plain.namedParameters().get(name).grad().f32(),
                        fused.namedParameters().get(name).grad().f32(), 0f, name + " in round " + round);
            }
        }
    }
}
