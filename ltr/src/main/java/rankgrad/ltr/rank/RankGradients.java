package rankgrad.ltr.rank;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/** The score gradient from a rank gradient, in the scores' dtype, through a pairwise backend. */
final class RankGradients {
    private RankGradients() {
    }

    /** dL/ds from dL/dr ({@code rankGrad}, the scores' shape and dtype) per {@link PairwiseBackend#rankGradientF32}. */
    static Tensor of(PairwiseBackend backend, BackwardType type, double alpha, Tensor scores, QueryBatch batch,
            Tensor rankGrad) {
        Tensor grad = Tensor.zerosLike(scores);
        if (scores.dtype() == DType.F32) {
            backend.rankGradientF32(type, (float) alpha, scores.f32(), batch.labels(), batch.offsets(),
                    rankGrad.f32(), grad.f32());
        } else {
            backend.rankGradientF64(type, alpha, scores.f64(), batch.labels(), batch.offsets(), rankGrad.f64(),
                    grad.f64());
        }
        return grad;
    }
}
