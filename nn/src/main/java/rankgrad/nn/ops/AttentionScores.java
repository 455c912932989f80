package rankgrad.nn.ops;

import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * The attention logits of every list of a ragged batch, per head: for documents i, j of the same
 * list q and head h (columns h d .. h d + d - 1 of the N x w inputs, d = w / heads),
 *
 * <pre>
 *   s(q, h, i, j) = scale sum_c Q[i, hd + c] K[j, hd + c]          (Vaswani et al. 2017, Eq. 1, scale = 1 / sqrt(d))
 * </pre>
 *
 * laid out flat as {@link AttentionLayout} says; pairs of documents of different lists get no
 * score at all. Backward: dQ[i] = scale sum_j ds(i, j) K[j], dK[j] = scale sum_i ds(i, j) Q[i].
 * Inputs: Q and K (N x w, same dtype); output: a vector of {@link AttentionLayout#scoreCount()}
 * in their dtype, computed in that dtype ({@link AttentionLoops}): float32 to train, float64 to
 * check gradients. In float32 every product and sum is rounded to float, the scale too.
 */
public final class AttentionScores implements Op<AttentionScores.Saved> {
    private final AttentionLayout layout;
    private final double scale;

    /** Residuals: the inputs (read, never written). */
    record Saved(Tensor q, Tensor k) {
    }

    /** Logits over {@code layout}'s lists scaled by {@code scale} (1 / sqrt(w / heads) in a transformer). */
    public AttentionScores(AttentionLayout layout, double scale) {
        this.layout = layout;
        this.scale = scale;
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        layout.checkInput(in[0], "the queries Q");
        layout.checkInput(in[1], "the keys K");
        AttentionLayout.checkAlike("Q and K", in[0], in[1]);
        Tensor s = Tensor.zeros(in[0].dtype(), layout.scoreCount());
        AttentionLoops.scores(in[0], in[1], layout, scale, s);
        return Op.result(s, new Saved(in[0], in[1]));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor g, boolean[] needs) {
        Tensor dq = needs[0] ? Tensor.zerosLike(saved.q()) : null;
        Tensor dk = needs[1] ? Tensor.zerosLike(saved.k()) : null;
        AttentionLoops.scoresBackward(saved.q(), saved.k(), layout, scale, g, dq, dk);
        return new Tensor[] {dq, dk};
    }
}
