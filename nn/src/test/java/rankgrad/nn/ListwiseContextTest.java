package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.simd.Parallel;
import rankgrad.nn.ListwiseContext.Combine;

/** The listwise-context block: gradients end to end, list independence and thread-count determinism. */
class ListwiseContextTest {
    /** See AttentionOpsTest: checker error about 1e-10 for order-1 values, a bug errs by O(1). */
    private static final double GRAD_TOL = 1e-6;

    private static Tensor random(long seed, DType dtype, int... shape) {
        SplittableRandom rng = new SplittableRandom(seed);
        Tensor t = Tensor.zeros(dtype, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(-1, 1));
        }
        return t;
    }

    @Test
    void scoresBackwardMatchesCentralDifferencesForBothCombinations() {
        for (Combine combine : Combine.values()) {
            ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(4, 2, combine, DType.F64, 5));
            GradientCheck.withDefaults().check(x -> ctx.forward(x[0], new int[] {0, 3, 4, 7}), random(1, DType.F64, 7, 4))
                    .assertWithin(GRAD_TOL);
        }
    }

    @Test
    void parametersAreNamedAndAllReceiveGradients() {
        ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(4, 2, Combine.LATENT_CROSS, DType.F64, 5));
        assertEquals(List.of("attention.query.weight", "attention.query.bias", "attention.key.weight",
                "attention.key.bias", "attention.value.weight", "attention.value.bias", "attention.output.weight",
                "attention.output.bias", "norm.weight", "norm.bias", "head.0.weight", "head.0.bias", "head.2.weight",
                "head.2.bias"), List.copyOf(ctx.namedParameters().keySet()));
        Ops.sum(ctx.forward(Var.constant(random(1, DType.F64, 7, 4)), new int[] {0, 3, 7})).backward();
        ctx.namedParameters().forEach((name, p) -> {
            assertTrue(p.grad() != null && java.util.Arrays.stream(p.grad().toDoubleArray()).anyMatch(g -> g != 0),
                    name + " gets a gradient");
        });
    }

    @Test
    void aListsScoresDoNotDependOnTheOtherLists() {
        ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(8, 2, Combine.LATENT_CROSS, DType.F32, 5));
        Tensor both = random(1, DType.F32, 9, 8);
        double[] together = ctx.forward(Var.constant(both), new int[] {0, 4, 9}).value().toDoubleArray();
        Tensor first = Tensor.of(java.util.Arrays.copyOf(both.f32(), 4 * 8), 4, 8);
        double[] alone = ctx.forward(Var.constant(first)).value().toDoubleArray();
        // bit-identical: the same loops run on the same rows
        assertArrayEquals(alone, java.util.Arrays.copyOf(together, 4), 0.0);
        double[] asOne = ctx.forward(Var.constant(both)).value().toDoubleArray();
        assertTrue(asOne[0] != together[0], "the same rows as one list attend to each other");
    }

    @Test
    void resultsAreIdenticalForAnyThreadCount() {
        int[] offsets = new int[41];
        for (int q = 1; q < offsets.length; q++) {
            offsets[q] = offsets[q - 1] + 1 + q % 7;
        }
        Tensor h = random(2, DType.F32, offsets[40], 8);
        int before = Parallel.threads();
        try {
            double[][] out = new double[2][];
            double[][] grads = new double[2][];
            for (int t = 0; t < 2; t++) {
                Parallel.setThreads(t + 1);
                ListwiseContext ctx = ListwiseContext.create(new ListwiseContext.Spec(8, 2, Combine.LATENT_CROSS,
                        DType.F32, 5));
                Var x = Var.param(h.copy());
                Var s = ctx.forward(x, offsets);
                Ops.sum(Ops.mul(s, s)).backward();
                out[t] = s.value().toDoubleArray();
                grads[t] = x.grad().toDoubleArray();
            }
            assertArrayEquals(out[0], out[1], 0.0);
            assertArrayEquals(grads[0], grads[1], 0.0);
        } finally {
            Parallel.setThreads(before);
        }
    }

    @Test
    void refusesAWidthThatDoesNotSplitIntoHeads() {
        assertThrows(IllegalArgumentException.class,
                () -> new ListwiseContext.Spec(10, 3, Combine.RESIDUAL, DType.F32, 1));
    }
}
