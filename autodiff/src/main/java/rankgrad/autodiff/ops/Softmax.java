package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y_j = exp(x_j - m) / sum_k exp(x_k - m), m = max_k x_k, over all elements or over each row of
 * the matrix view (a vector is one row). The output is the residual: with s = sum_k g_k y_k per
 * segment, dL/dx_j = y_j (g_j - s).
 *
 * <p>Stable for any finite input ({@link Segments}); an infinite element gives NaN in its
 * segment. Column-wise softmax is the per-row op on the transpose ({@code Ops.softmax(a, 0)}).
 */
final class Softmax implements Op<Tensor> {
    /** Softmax over all elements. */
    public static final Softmax ALL = new Softmax(false);
    /** Softmax over each row of a matrix (over the whole of a vector). */
    public static final Softmax PER_ROW = new Softmax(true);

    private final boolean perRow;

    private Softmax(boolean perRow) {
        this.perRow = perRow;
    }

    @Override
    public String name() {
        return "Softmax(" + (perRow ? "rows" : "all") + ")";
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
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                float sum = Segments.expShiftedF32(k, xs, off, len, Segments.max(xs, off, len), ys, off);
                k.mulScalarF32(ys, off, 1f / sum, ys, off, len);
            }
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                double sum = Segments.expShifted(xs, off, len, Segments.max(xs, off, len), ys, off);
                for (int i = off; i < off + len; i++) {
                    ys[i] /= sum;
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
                float s = k.dotF32(gs, off, ys, off, len);
                k.addScalarF32(gs, off, -s, d, off, len);
                k.mulF32(d, off, ys, off, d, off, len);
            }
        } else {
            double[] ys = y.f64();
            double[] gs = g.f64();
            double[] d = dx.f64();
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                double s = 0;
                for (int i = off; i < off + len; i++) {
                    s += gs[i] * ys[i];
                }
                for (int i = off; i < off + len; i++) {
                    d[i] = ys[i] * (gs[i] - s);
                }
            }
        }
        return new Tensor[] {dx};
    }
}
