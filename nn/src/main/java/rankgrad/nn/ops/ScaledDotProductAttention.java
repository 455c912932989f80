package rankgrad.nn.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * Scaled dot-product attention within every list of a ragged batch, per head, as one node: for
 * documents i, j of list q and head h (columns h d .. h d + d - 1 of the N x w inputs, d = w / heads),
 *
 * <pre>
 *   s(q, h, i, j) = scale sum_c Q[i, hd + c] K[j, hd + c]               (Vaswani et al. 2017, Eq. 1)
 *   p(q, h, i, .) = softmax over j in q of s(q, h, i, .)
 *   O[i, hd + c]  = sum_{j in q} p(q, h, i, j) V[j, hd + c]
 * </pre>
 *
 * It is {@link AttentionScores}, {@link RaggedSoftmax} and {@link AttentionMix} fused, and gives
 * their bits exactly, values and gradients, in float32 and float64: the same kernels on the same
 * values, including the rounding of the float64 softmax's weights to float32 between the ops
 * (docs/design.md §2, fused nodes). What it saves is the score-sized tensors between them
 * (heads sum_q m_q^2 values, 320,000 per demo batch: each op's output, the softmax's float64 copy
 * and the gradients) and two passes over them: a list's m x m block is scored, normalized and mixed
 * while it is in cache, and the backward pass keeps dP and dS in one block of scratch. Q, K, V, dO
 * and the results are read and written where they lie, in their dtype: float32 tensors take
 * float32 products, float64 ones float64 products ({@link AttentionLoops}). Saved for backward:
 * Q, K, V (the input tensors) and the softmax in float64.
 *
 * <p>Backward: dP = dO V^T, dV = P^T dO, dS = the softmax's backward of dP (dS_ij = p_ij (dP_ij -
 * sum_k dP_ik p_ik)), dQ = scale dS K, dK = scale dS^T Q. Inputs: Q, K, V (N x w, one dtype);
 * output N x w in that dtype. Work is split over lists as {@link AttentionLoops} does, so results
 * are the same for any thread count.
 */
public final class ScaledDotProductAttention implements Op<ScaledDotProductAttention.Saved> {
    private final AttentionLayout layout;
    private final double scale;

    /**
     * Residuals: the inputs (read, never written) and the softmax in float64, unrounded, per list
     * (float32 inputs: rows padded to {@code AttentionLoops.paddedRow(m)} values).
     */
    record Saved(Tensor q, Tensor k, Tensor v, double[][] p) {
    }

    /** Attention over {@code layout}'s lists with logits scaled by {@code scale} (1 / sqrt(w / heads) in a transformer). */
    public ScaledDotProductAttention(AttentionLayout layout, double scale) {
        this.layout = layout;
        this.scale = scale;
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        layout.checkInput(in[0], "the queries Q");
        layout.checkInput(in[1], "the keys K");
        layout.checkInput(in[2], "the values V");
        AttentionLayout.checkAlike("Q, K and V", in[0], in[1], in[2]);
        int w = in[0].cols();
        DType dtype = in[0].dtype();
        double[][] p = new double[layout.lists()][];
        Tensor out = Tensor.zeros(dtype, layout.docs(), w);
        AttentionLoops.attention(in[0], in[1], in[2], layout, scale, p, out);
        return Op.result(out, new Saved(in[0], in[1], in[2], p));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        int n = layout.docs();
        int w = s.q().cols();
        Tensor dq = needs[0] ? Tensor.zeros(g.dtype(), n, w) : null;
        Tensor dk = needs[1] ? Tensor.zeros(g.dtype(), n, w) : null;
        Tensor dv = needs[2] ? Tensor.zeros(g.dtype(), n, w) : null;
        AttentionLoops.attentionBackward(s.q(), s.k(), s.v(), s.p(), layout, scale, g, dq, dk, dv);
        return new Tensor[] {dq, dk, dv};
    }
}
