package rankgrad.properties;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** Laws about whole graphs rather than single ops. */
class GraphDeterminismProperties {

    /**
     * A float32 MLP-like graph (two matmuls, bias, softplus, log-softmax, a Gram matrix) on
     * 130..300 rows, enough for the GEMMs to split into several row blocks: the loss and every
     * gradient are bit-identical with 1 and with 2 threads.
     */
    @Test
    void resultsIdenticalForOneAndTwoThreads() {
        int before = Parallel.threads();
        try {
            qt().withExamples(10).forAll(integers().between(130, 300), longs().all()).checkAssert((rows, seed) -> {
                Parallel.setThreads(1);
                List<Tensor> one = lossAndGradients(rows, seed);
                Parallel.setThreads(2);
                List<Tensor> two = lossAndGradients(rows, seed);
                assertEquals(one.size(), two.size());
                for (int i = 0; i < one.size(); i++) {
                    assertArrayEquals(one.get(i).f32(), two.get(i).f32(), 0f, "tensor " + i + " (0 = loss)");
                }
            });
        } finally {
            Parallel.setThreads(before);
        }
    }

    /** [loss, dX, dW1, db1, dW2] of the graph, from inputs drawn with {@code seed}. */
    private static List<Tensor> lossAndGradients(int rows, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        int features = 24;
        int hidden = 40;
        int classes = 8;
        Var x = Var.param(uniform(rng, rows, features));
        Var w1 = Var.param(uniform(rng, features, hidden));
        Var b1 = Var.param(uniform(rng, hidden));
        Var w2 = Var.param(uniform(rng, hidden, classes));
        Var targets = Var.constant(uniform(rng, rows, classes));
        Var h = Ops.softplus(Ops.add(Ops.matmul(x, w1), b1));
        Var scores = Ops.matmul(h, w2);
        Var fit = Ops.mean(Ops.mul(Ops.logSoftmax(scores), targets));
        Var gram = Ops.matmul(h, true, h, false);
        Var loss = Ops.add(fit, Ops.mul(Ops.mean(Ops.mul(gram, gram)), 1e-3));
        loss.backward();
        return List.of(loss.value(), x.grad(), w1.grad(), b1.grad(), w2.grad());
    }

    private static Tensor uniform(SplittableRandom rng, int... shape) {
        Tensor t = Tensor.zeros(DType.F32, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(-1, 1));
        }
        return t;
    }
}
