package rankgrad.benchmarks;

import java.util.SplittableRandom;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.Regularization;
import rankgrad.ltr.rank.SoftRank;
import rankgrad.ltr.rank.SoftSort;

/**
 * One case of {@link OperatorBenchmark}: a batch of {@link #queries(int)} queries of m documents
 * (grades 0..4 uniform, float32 scores ~ N(0, 1), a float32 cotangent ~ N(0, 1), seeded) and either a
 * loss of the registry by name or a soft rank / soft sort node ({@code node:softrank-q:EPS},
 * {@code node:softsort-e:EPS}, ...) whose "loss" is the cotangent's dot product with its output, so
 * its gradient is the node's vector-Jacobian product of that cotangent.
 *
 * <p>{@code scripts/bench-operators} times the same cases in PyTorch / numpy: {@link OperatorCheck}
 * writes this data and rankgrad's float64 values and gradients for the references to check first.
 */
final class OperatorCase {
    private static final String NODE = "node:";

    private final String name;
    private final QueryBatch batch;
    private final float[] scores;
    private final float[] cotangent;
    private final RankingLoss loss;

    OperatorCase(String name, int m) {
        this.name = name;
        SplittableRandom rng = new SplittableRandom(2020);
        int queries = queries(m);
        float[][] labels = new float[queries][m];
        for (float[] query : labels) {
            for (int i = 0; i < m; i++) {
                query[i] = rng.nextInt(5);
            }
        }
        batch = QueryBatch.of(labels);
        scores = new float[batch.documents()];
        cotangent = new float[batch.documents()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (float) rng.nextGaussian();
            cotangent[i] = (float) rng.nextGaussian();
        }
        loss = name.startsWith(NODE) ? null : Losses.parse(name, 1).forRun(1_000_000).withBackend(PairwiseBackends.cpu());
    }

    /**
     * Queries per batch at m documents: 16 up to m = 100, 2 at m = 1,000, where the PyTorch
     * references of the O(m^2)-memory losses would hold gigabytes of m x m tensors for backward.
     */
    static int queries(int m) {
        return m >= 1000 ? 2 : 16;
    }

    QueryBatch batch() {
        return batch;
    }

    float[] scores() {
        return scores;
    }

    float[] cotangent() {
        return cotangent;
    }

    /** One training step's work on float32 scores: forward, backward, the score gradient. */
    Tensor forwardBackward() {
        return valueAndGradient(Tensor.of(scores, scores.length))[1];
    }

    /** The value (a scalar tensor) and the gradient for scores {@code x} (float32 or float64). */
    Tensor[] valueAndGradient(Tensor x) {
        if (loss != null) {
            Var v = Var.param(x);
            Var l = loss.loss(v, batch);
            l.backward();
            return new Tensor[] {l.value(), v.grad()};
        }
        Tensor g = Tensor.of(cotangent, cotangent.length).to(x.dtype());
        return node(x, g);
    }

    private Tensor[] node(Tensor x, Tensor g) {
        String[] parts = name.substring(NODE.length()).split(":");
        Regularization reg = parts[0].endsWith("-q") ? Regularization.QUADRATIC : Regularization.ENTROPIC;
        double eps = Double.parseDouble(parts[1]);
        Tensor out;
        Tensor vjp;
        if (parts[0].startsWith("softrank-")) {
            SoftRank op = SoftRank.of(batch, reg, eps);
            Op.Result<SoftRank.Saved> r = op.forward(x);
            out = r.output();
            vjp = op.backward(r.residuals(), g, new boolean[] {true})[0];
        } else if (parts[0].startsWith("softsort-")) {
            SoftSort op = SoftSort.of(batch, reg, eps);
            Op.Result<SoftSort.Saved> r = op.forward(x);
            out = r.output();
            vjp = op.backward(r.residuals(), g, new boolean[] {true})[0];
        } else {
            throw new IllegalArgumentException("unknown node " + name + "; node:softrank-q:EPS, node:softsort-e:EPS, ...");
        }
        double[] o = out.toDoubleArray();
        double[] c = g.toDoubleArray();
        double dot = 0;
        for (int i = 0; i < o.length; i++) {
            dot += o[i] * c[i];
        }
        return new Tensor[] {Tensor.scalar(x.dtype(), dot), vjp};
    }
}
