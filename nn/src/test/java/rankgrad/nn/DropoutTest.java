package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Parallel;

class DropoutTest {

    private static Mlp.Builder r4l(long seed) {
        return Mlp.builder(20).hidden(16, 16, 16).activation(Activation.relu()).batchNorm(true).lastActivated(false)
                .output(1).seed(seed);
    }

    private static Tensor rows(int n, int d, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        float[] x = new float[n * d];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) rng.nextGaussian();
        }
        return Tensor.of(x, n, d);
    }

    private static float[] scores(Mlp m, Tensor x) {
        return m.forward(Var.constant(x)).value().f32().clone();
    }

    @Test
    void masksDependOnSeedAndStepOnly() {
        boolean[] a = Dropout.mask(7, 3, 1000, 0.4);
        assertArrayEquals(a, Dropout.mask(7, 3, 1000, 0.4));
        assertFalse(Arrays.equals(a, Dropout.mask(7, 4, 1000, 0.4)), "another step draws another mask");
        assertFalse(Arrays.equals(a, Dropout.mask(8, 3, 1000, 0.4)), "another seed draws another mask");
    }

    @Test
    void masksAreSplittableRandomsDoublesDrawnInParallelChunks() {
        // The mask's formula against the generator it stands for, element by element, past several 2^15-element
        // chunks and on 1 and 2 threads (a wrong gamma, mixer or index offset changes almost every element).
        int before = Parallel.threads();
        try {
            for (int threads : new int[] {1, 2}) {
                Parallel.setThreads(threads);
                for (long[] seedStep : new long[][] {{7, 3}, {-5, 1L << 40}, {0, 0}}) {
                    int n = 100_003;
                    SplittableRandom rng = new SplittableRandom(seedStep[0] * 0x9E3779B97F4A7C15L
                            + seedStep[1] * 0xBF58476D1CE4E5B9L + 0x632BE59BD9B4E019L);
                    boolean[] expected = new boolean[n];
                    for (int i = 0; i < n; i++) {
                        expected[i] = rng.nextDouble() >= 0.1;
                    }
                    assertArrayEquals(expected, Dropout.mask(seedStep[0], seedStep[1], n, 0.1), Arrays.toString(seedStep));
                }
            }
        } finally {
            Parallel.setThreads(before);
        }
    }

    @Test
    void dropsAboutTheRate() {
        int n = 200_000;
        boolean[] keep = Dropout.mask(1, 1, n, 0.3);
        int dropped = 0;
        for (boolean k : keep) {
            dropped += k ? 0 : 1;
        }
        // Binomial(n, 0.3): standard deviation sqrt(n 0.3 0.7) ~ 205; 6 of them is a false alarm
        // rate below 1e-8 for a correct draw, while a wrong rate (say 0.25 or 1 - p) is far off.
        assertEquals(0.3 * n, dropped, 6 * Math.sqrt(n * 0.3 * 0.7));
    }

    @Test
    void evaluationIsTheNetworkWithoutDropout() {
        Mlp plain = r4l(3).build();
        Mlp dropped = r4l(3).dropout(0.5).build();
        // The rate draws nothing at initialization: same weights, same names, same layers.
        assertEquals(plain.namedParameters().keySet(), dropped.namedParameters().keySet());
        assertEquals(plain.layers().modules().size(), dropped.layers().modules().size());
        Tensor x = rows(30, 20, 1);
        // (A training pass would move the batch-norm statistics differently: compare before any.)
        dropped.setDropoutStep(1);
        plain.setTraining(false);
        dropped.setTraining(false);
        assertArrayEquals(scores(plain, x), scores(dropped, x), 0f, "eval mode: the identity, bit for bit");
    }

    @Test
    void trainingMasksAreDeterministicPerStepAndThreadCount() {
        Tensor x = rows(500, 20, 2);
        int before = Parallel.threads();
        try {
            float[][] got = new float[3][];
            int[] threads = {1, 3, 1};
            long[] steps = {5, 5, 6};
            for (int r = 0; r < 3; r++) {
                Parallel.setThreads(threads[r]);
                Mlp m = r4l(4).dropout(0.2).build();
                m.setTraining(true);
                m.setDropoutStep(steps[r]);
                got[r] = scores(m, x);
            }
            assertArrayEquals(got[0], got[1], 0f, "same step, 1 vs 3 threads: same bits");
            assertFalse(Arrays.equals(got[0], got[2]), "another step, another mask");
            Mlp plain = r4l(4).build();
            plain.setTraining(true);
            assertFalse(Arrays.equals(got[0], scores(plain, x)), "training mode drops units");
        } finally {
            Parallel.setThreads(before);
        }
    }

    @Test
    void dropoutSitsAfterHiddenActivationsOnly() {
        // A linear model has no hidden activation: dropout must not touch its input or output.
        Mlp linear = Mlp.builder(5).dropout(0.9).seed(1).build();
        Var in = Var.constant(rows(4, 5, 3));
        linear.setTraining(true);
        linear.setDropoutStep(1);
        Mlp plain = Mlp.builder(5).seed(1).build();
        plain.setTraining(true);
        assertArrayEquals(scores(plain, in.value()), scores(linear, in.value()), 0f);
        Dropout d = Dropout.create(0.5, 1);
        d.setTraining(false);
        assertSame(in, d.forward(in));
    }

    @Test
    void ratesOutsideZeroToOneAreRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> r4l(1).dropout(1.0).spec());
        assertTrue(e.getMessage().contains("dropout"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Dropout.create(-0.5, 1));
        assertEquals(0.0, Mlp.builder(3).spec().dropout());
        assertEquals(DType.F32, Mlp.builder(3).spec().withDropout(0.1).dtype());
    }
}
