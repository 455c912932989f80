package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Ops;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.optim.Adam;

class MlpTest {

    private static Mlp r4l(long seed) {
        return Mlp.builder(136).hidden(100, 100, 100, 100).activation(Activation.relu()).batchNorm(true)
                .lastActivated(false).output(1).seed(seed).build();
    }

    @Test
    void yusR4LHasTheExpectedLayersAndNames() {
        Mlp m = r4l(1);
        List<Layer> layers = m.layers().modules();
        // (Linear, BatchNorm, ReLU) x 4, then the linear output layer.
        assertEquals(13, layers.size());
        assertTrue(layers.get(0) instanceof Linear && layers.get(1) instanceof BatchNorm1d
                && layers.get(2) instanceof Activation.Relu && layers.get(12) instanceof Linear);
        List<String> names = List.copyOf(m.namedParameters().keySet());
        assertEquals(List.of("layers.0.weight", "layers.0.bias", "layers.1.weight", "layers.1.bias"), names.subList(0, 4));
        assertEquals("layers.12.bias", names.get(names.size() - 1));
        assertEquals(List.of("layers.1.running_mean", "layers.1.running_var"),
                List.copyOf(m.namedBuffers().keySet()).subList(0, 2));
        // 136*100 + 100, three 100*100 + 100, 100 + 1, four batch norms of 2 * 100.
        assertEquals(13_700 + 3 * 10_100 + 101 + 800, m.parameterCount());
        assertEquals(names.size() + 8, m.state().size());
    }

    @Test
    void lastActivatedAddsBatchNormAndActivationAfterTheOutputLayer() {
        Mlp r5 = Mlp.builder(10).hidden(100, 100, 100, 100).activation(Activation.celu(1)).batchNorm(true)
                .lastActivated(true).build();
        List<Layer> layers = r5.layers().modules();
        assertEquals(15, layers.size());
        assertEquals(new Activation.Celu(1), layers.get(14));
        assertTrue(layers.get(13) instanceof BatchNorm1d);
        Mlp linear = Mlp.builder(10).build();
        assertEquals(List.of("layers.0.weight", "layers.0.bias"), List.copyOf(linear.namedParameters().keySet()));
        // Bruch et al.'s TensorFlow momentum 0.8 is PyTorch's 0.2.
        Mlp bruch = Mlp.builder(10).hidden(64, 32, 16).batchNorm(true).inputBatchNorm(true).batchNormMomentum(0.2).build();
        BatchNorm1d input = (BatchNorm1d) bruch.layers().modules().get(0);
        assertEquals(10, input.features());
        assertEquals(0.2, input.momentum(), 0.0);
        assertEquals(0.2, ((BatchNorm1d) bruch.layers().modules().get(2)).momentum(), 0.0);
    }

    @Test
    void loadStateCopiesAModelExactly() {
        Mlp a = r4l(1);
        Mlp b = r4l(2);
        Tensor x = randomInput(new SplittableRandom(3), 64, 136);
        // Move a's running statistics away from their initial values first.
        a.forward(Var.constant(x));
        b.loadState(a.state());
        a.eval();
        b.eval();
        try (NoGrad ignored = NoGrad.enter()) {
            assertArrayEquals(a.forward(Var.constant(x)).value().toDoubleArray(),
                    b.forward(Var.constant(x)).value().toDoubleArray(), 0.0);
        }
        Map<String, Tensor> broken = new HashMap<>(a.state());
        broken.put("layers.0.weight", Tensor.zeros(DType.F32, 100, 136));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.loadState(broken));
        assertTrue(e.getMessage().contains("layers.0.weight") && e.getMessage().contains("[136, 100]"), e.getMessage());
        broken.remove("layers.0.weight");
        assertThrows(IllegalArgumentException.class, () -> b.loadState(broken));
    }

    @Test
    void learnsAToyRegression() {
        // y = sin(2 x0) + x1 x2 - x3^2 / 2 on 256 points of [-1, 1]^4; full-batch Adam, 300 steps.
        SplittableRandom rng = new SplittableRandom(17);
        int n = 256;
        Tensor x = randomInput(rng, n, 4);
        Tensor y = Tensor.zeros(DType.F32, n, 1);
        for (int i = 0; i < n; i++) {
            y.set(i, Math.sin(2 * x.get(i, 0)) + x.get(i, 1) * x.get(i, 2) - 0.5 * x.get(i, 3) * x.get(i, 3));
        }
        Mlp model = Mlp.builder(4).hidden(32, 32).activation(Activation.celu(1)).batchNorm(true).seed(5).build();
        Adam adam = Adam.create(model.namedParameters(), Adam.Settings.defaults().withLearningRate(1e-2));
        double first = Double.NaN;
        double last = Double.NaN;
        for (int step = 0; step < 300; step++) {
            adam.zeroGrad();
            Var loss = mse(model.forward(Var.constant(x)), y);
            loss.backward();
            adam.step();
            last = loss.value().item();
            if (step == 0) {
                first = last;
            }
        }
        // The untrained network's error is ~2; this seed fits to ~0.002. A factor of 100 is far
        // from both: a loop that does not learn (or learns very slowly) fails, noise does not.
        assertTrue(last < first / 100, "loss went from " + first + " to " + last);
        model.eval();
        double evalLoss = mse(model.forward(Var.constant(x)), y).value().item();
        // The running statistics have converged to the (single) batch's: eval mode fits as well.
        assertTrue(evalLoss < first / 100, "eval loss " + evalLoss + " vs initial " + first);
    }

    @Test
    void trainingStepIsBitIdenticalForOneAndTwoThreads() {
        int before = Parallel.threads();
        try {
            Parallel.setThreads(1);
            List<float[]> one = trainTwoSteps();
            Parallel.setThreads(2);
            List<float[]> two = trainTwoSteps();
            assertEquals(one.size(), two.size());
            for (int i = 0; i < one.size(); i++) {
                assertArrayEquals(one.get(i), two.get(i), "tensor " + i);
            }
        } finally {
            Parallel.setThreads(before);
        }
    }

    /** Two steps of forward, backward and Adam on 4096 x 64 inputs: every kernel splits into tasks. */
    private static List<float[]> trainTwoSteps() {
        SplittableRandom rng = new SplittableRandom(99);
        Tensor x = randomInput(rng, 4096, 64);
        Tensor y = randomInput(rng, 4096, 1);
        Mlp model = Mlp.builder(64).hidden(128, 64).activation(Activation.relu()).batchNorm(true).seed(3).build();
        Adam adam = Adam.create(model.namedParameters(), Adam.Settings.defaults().withWeightDecay(1e-3));
        for (int step = 0; step < 2; step++) {
            adam.zeroGrad();
            mse(model.forward(Var.constant(x)), y).backward();
            adam.step();
        }
        List<float[]> out = new ArrayList<>();
        model.state().values().forEach(t -> out.add(t.f32().clone()));
        return out;
    }

    @Test
    void evalModeChangesBatchNormBehaviour() {
        Mlp m = Mlp.builder(3).hidden(4).batchNorm(true).seed(1).build();
        Tensor x = randomInput(new SplittableRandom(2), 8, 3);
        double[] train = m.forward(Var.constant(x)).value().toDoubleArray();
        m.eval();
        double[] eval = m.forward(Var.constant(x)).value().toDoubleArray();
        // After one batch the running statistics are 10% of the batch's: outputs must differ.
        assertFalse(Arrays.equals(train, eval));
        m.train();
        assertArrayEquals(train, m.forward(Var.constant(x)).value().toDoubleArray(), 0.0);
    }

    private static Var mse(Var prediction, Tensor target) {
        Var diff = Ops.sub(prediction, Var.constant(target));
        return Ops.mean(Ops.mul(diff, diff));
    }

    private static Tensor randomInput(SplittableRandom rng, int rows, int cols) {
        Tensor t = Tensor.zeros(DType.F32, rows, cols);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(-1, 1));
        }
        return t;
    }
}
