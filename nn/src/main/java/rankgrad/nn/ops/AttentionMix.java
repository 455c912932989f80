package rankgrad.nn.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * The attention-weighted values of every list of a ragged batch, per head: for document i of list
 * q and head h,
 *
 * <pre>
 *   O[i, hd + c] = sum_{j in q} p(q, h, i, j) V[j, hd + c]          (Vaswani et al. 2017, Eq. 1)
 * </pre>
 *
 * with the weights p laid out as {@link AttentionLayout} says (normally {@link RaggedSoftmax} of
 * {@link AttentionScores}). Backward: dp(i, j) = sum_c dO[i, hd + c] V[j, hd + c],
 * dV[j] = sum_i p(i, j) dO[i] per head's columns. Inputs: p (vector) and V (N x w) of one dtype;
 * output N x w in that dtype, computed in it ({@link AttentionLoops}): float32 to train, float64 to
 * check gradients.
 */
public final class AttentionMix implements Op<AttentionMix.Saved> {
    private final AttentionLayout layout;

    /** Residuals: the inputs (read, never written). */
    record Saved(Tensor p, Tensor v) {
    }

    /** Mixes values within {@code layout}'s lists. */
    public AttentionMix(AttentionLayout layout) {
        this.layout = layout;
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        layout.checkInput(in[1], "the values V");
        if (in[0].size() != layout.scoreCount() || in[0].dtype() != in[1].dtype()) {
            throw new IllegalArgumentException("the attention weights must be " + layout.scoreCount() + " values of "
                    + in[1].dtype() + ", got " + in[0].size() + " of " + in[0].dtype());
        }
        Tensor out = Tensor.zerosLike(in[1]);
        AttentionLoops.mix(in[0], in[1], layout, out);
        return Op.result(out, new Saved(in[0], in[1]));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor g, boolean[] needs) {
        Tensor dp = needs[0] ? Tensor.zerosLike(saved.p()) : null;
        Tensor dv = needs[1] ? Tensor.zerosLike(saved.v()) : null;
        AttentionLoops.mixBackward(saved.p(), saved.v(), layout, g, dp, dv);
        return new Tensor[] {dp, dv};
    }
}
