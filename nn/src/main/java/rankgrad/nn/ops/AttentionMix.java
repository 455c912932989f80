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
 * dV[j] = sum_i p(i, j) dO[i] per head's columns. Inputs: p (vector) and V (N x w); output N x w.
 */
public final class AttentionMix implements Op<AttentionMix.Saved> {
    private final AttentionLayout layout;

    /** Residuals: the inputs as float64. */
    record Saved(double[] p, double[] v, int w) {
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
        int w = in[1].cols();
        double[] p = in[0].toDoubleArray();
        double[] v = in[1].toDoubleArray();
        double[] out = new double[v.length];
        AttentionLoops.mix(p, v, w, layout, out);
        return Op.result(AttentionLoops.tensor(out, in[1].dtype(), layout.docs(), w), new Saved(p, v, w));
    }

    @Override
    public Tensor[] backward(Saved saved, Tensor g, boolean[] needs) {
        double[] dp = needs[0] ? new double[saved.p().length] : null;
        double[] dv = needs[1] ? new double[saved.v().length] : null;
        AttentionLoops.mixBackward(saved.p(), saved.v(), saved.w(), layout, g.toDoubleArray(), dp, dv);
        return new Tensor[] {
            dp == null ? null : AttentionLoops.tensor(dp, g.dtype(), dp.length),
            dv == null ? null : AttentionLoops.tensor(dv, g.dtype(), layout.docs(), saved.w())};
    }
}
