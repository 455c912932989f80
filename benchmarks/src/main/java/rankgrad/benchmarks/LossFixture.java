package rankgrad.benchmarks;

import java.util.SplittableRandom;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.CpuPairwiseBackend;
import rankgrad.ltr.pairwise.PairKernelProvider;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.rank.ApproxNdcgLoss;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.TwinSigmoidLoss;

/**
 * A ragged batch of {@code queries} x {@code m} documents (float32 scores ~ N(0, 1), grades 0..4
 * uniform, seeded) and a loss by name, on the vector or the scalar pair kernels.
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
        loss = switch (lossName) {
            case "ndcg-type3" -> TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE3, 1).withBackend(backend);
            case "ndcg-type1" -> TwinSigmoidLoss.of(RankMetric.ndcg(), BackwardType.TYPE1, 1).withBackend(backend);
            case "approx-ndcg" -> ApproxNdcgLoss.of(ApproxNdcgLoss.DEFAULT_ALPHA).withBackend(backend);
            default -> throw new IllegalArgumentException("unknown loss " + lossName);
        };
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
