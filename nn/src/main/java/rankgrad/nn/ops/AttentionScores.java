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
 * in their dtype. Computed in float64 ({@link AttentionLoops}) and rounded once.
 */
public final class AttentionScores implements Op<AttentionScores.Saved> {
    private final AttentionLayout layout;
    private final double scale;

    /** Residuals: the inputs as float64. */
    record Saved(double[] q, double[] k, int w) {
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
        int w = in[0].cols();
        double[] q = in[0].toDoubleArray();
        double[] k = in[1].toDoubleArray();
        double[] s = new double[layout.scoreCount()];
        AttentionLoops.scores(q, k, w, layout, scale, s);
        return Op.result(AttentionLoops.tensor(s, in[0].dtype(), s.length), new Saved(q, k, w));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor g, boolean[] needs) {
        int n = layout.docs();
        double[] dq = needs[0] ? new double[saved.q().length] : null;
        double[] dk = needs[1] ? new double[saved.k().length] : null;
        AttentionLoops.scoresBackward(saved.q(), saved.k(), saved.w(), layout, scale, g.toDoubleArray(), dq, dk);
        return new Tensor[] {
            dq == null ? null : AttentionLoops.tensor(dq, g.dtype(), n, saved.w()),
            dk == null ? null : AttentionLoops.tensor(dk, g.dtype(), n, saved.w())};
    }
}
