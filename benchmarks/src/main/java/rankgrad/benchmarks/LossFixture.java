package rankgrad.benchmarks;

import java.util.SplittableRandom;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.internal.pairwise.CpuPairwiseBackend;
import rankgrad.ltr.internal.pairwise.PairKernelProvider;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * A ragged batch of {@code queries} x {@code m} documents (float32 scores ~ N(0, 1), grades 0..4
 * uniform, seeded) and a loss of the registry by name, on the vector or the scalar pair kernels.
 */
final class LossFixture {
    private final QueryBatch batch;
    private final float[] scores;
    private final RankingLoss loss;

    LossFixture(int queries, int m, String lossName, String kernels) {
        SplittableRandom rng = new SplittableRandom(2020);
        float[][] labels = new float[queries][m];
        for (float[] query : labels) {
            for (int i = 0; i < m; i++) {
                query[i] = rng.nextInt(5);
            }
        }
        batch = QueryBatch.of(labels);
        scores = new float[batch.documents()];
        for (int i = 0; i < scores.length; i++) {
            scores[i] = (float) rng.nextGaussian();
        }
        PairwiseBackend backend = CpuPairwiseBackend.withKernels(switch (kernels) {
            case "vector" -> PairKernelProvider.kernels();
            case "scalar" -> PairKernelProvider.scalar();
            default -> throw new IllegalArgumentException("kernels must be vector or scalar, got " + kernels);
        });
        loss = Losses.parse(lossName, 1).forRun(1_000_000).withBackend(backend);
        if (kernels.equals("vector") && !PairKernelProvider.kernels().name().startsWith("vector")) {
            throw new IllegalStateException("the Vector API kernels did not load: " + PairKernelProvider.kernels().name());
        }
    }

    /** One training step's loss work: forward, backward, the score gradient. */
    Tensor forwardBackward() {
        Var x = Var.param(Tensor.of(scores, scores.length));
        loss.loss(x, batch).backward();
        return x.grad();
    }
}
