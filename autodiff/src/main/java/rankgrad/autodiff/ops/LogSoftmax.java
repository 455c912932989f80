package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y_j = x_j - logsumexp(x) = (x_j - m) - log(sum_k exp(x_k - m)), m = max_k x_k, over all elements
 * or over each row of the matrix view (a vector is one row). Fused rather than composed from
 * {@link LogSumExp} and a subtraction so that the output is the only residual: with
 * s = sum_k g_k per segment, dL/dx_j = g_j - exp(y_j) s.
 *
 * <p>Stable for any finite input ({@link Segments}); an infinite element gives NaN in its
 * segment. Column-wise log-softmax is the per-row op on the transpose ({@code Ops.logSoftmax(a, 0)}).
 */
final class LogSoftmax implements Op<Tensor> {
    /** Log-softmax over all elements. */
    public static final LogSoftmax ALL = new LogSoftmax(false);
    /** Log-softmax over each row of a matrix (over the whole of a vector). */
    public static final LogSoftmax PER_ROW = new LogSoftmax(true);

    private final boolean perRow;

    private LogSoftmax(boolean perRow) {
        this.perRow = perRow;
    }

    @Override
    public String name() {
        return "LogSoftmax(" + (perRow ? "rows" : "all") + ")";
    }

    @Override
    public Result<Tensor> forward(Tensor... in) {
        Tensor x = in[0];
        int segments = Segments.count(x, perRow);
        int len = Segments.length(x, perRow);
        Tensor y = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] ys = y.f32();
            float[] tmp = new float[len];
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                float m = Segments.max(xs, off, len);
                float logSum = (float) Math.log(Segments.expShiftedF32(k, xs, off, len, m, tmp, 0));
                // (x - m) - logSum, not x - (m + logSum): for large |m| the sum m + logSum would
                // round away the low bits of logSum before they reach the result.
                k.addScalarF32(xs, off, -m, ys, off, len);
                k.addScalarF32(ys, off, -logSum, ys, off, len);
            }
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            double[] tmp = new double[len];
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                double m = Segments.max(xs, off, len);
                double logSum = Math.log(Segments.expShifted(xs, off, len, m, tmp, 0));
                for (int i = off; i < off + len; i++) {
                    ys[i] = (xs[i] - m) - logSum;
                }
            }
        }
        return Op.result(y, y);
    }

    @Override
    public Tensor[] backward(Tensor y, Tensor g, boolean[] needs) {
        int segments = Segments.count(y, perRow);
        int len = Segments.length(y, perRow);
        Tensor dx = Tensor.zerosLike(y);
        if (y.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] ys = y.f32();
            float[] gs = g.f32();
            float[] d = dx.f32();
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                float s = k.sumF32(gs, off, len);
                k.expF32(ys, off, d, off, len);
                k.mulScalarF32(d, off, -s, d, off, len);
                k.addF32(d, off, gs, off, d, off, len);
            }
        } else {
            double[] ys = y.f64();
            double[] gs = g.f64();
            double[] d = dx.f64();
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                double s = 0;
                for (int i = off; i < off + len; i++) {
                    s += gs[i];
                }
                for (int i = off; i < off + len; i++) {
                    d[i] = gs[i] - Math.exp(ys[i]) * s;
                }
            }
        }
        return new Tensor[] {dx};
    }
}
