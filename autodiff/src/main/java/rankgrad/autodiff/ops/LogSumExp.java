package rankgrad.autodiff.ops;

import java.util.Arrays;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * y = log(sum_j exp(x_j)) over all elements, or over each row of a matrix, computed stably as
 * m + log(sum_j exp(x_j - m)) with m = max_j x_j ({@link Segments}). The gradient is the softmax
 * of the segment: dL/dx_j = dL/dy * exp(x_j - y).
 *
 * <p>With {@code keepDims} the reduced axis stays with size 1 (all: every axis; per row: a
 * rows x 1 column), so the result broadcasts back against the input. Column-wise logsumexp is
 * the per-row op on the transpose ({@code Ops.logSumExp(a, 0, keepDims)}).
 */
final class LogSumExp implements Op<LogSumExp.Saved> {
    private final boolean perRow;
    private final boolean keepDims;

    /** What backward needs: the input and the per-segment results. */
    record Saved(Tensor x, Segments.LogSumExps lse) {
    }

    private LogSumExp(boolean perRow, boolean keepDims) {
        this.perRow = perRow;
        this.keepDims = keepDims;
    }

    /** logsumexp of all elements: a scalar, or a tensor of ones in every dimension with keepDims. */
    public static LogSumExp all(boolean keepDims) {
        return new LogSumExp(false, keepDims);
    }

    /** logsumexp of each row of a matrix: a vector of rows, or a rows x 1 column with keepDims. */
    public static LogSumExp perRow(boolean keepDims) {
        return new LogSumExp(true, keepDims);
    }

    @Override
    public String name() {
        return "LogSumExp(" + (perRow ? "rows" : "all") + ")";
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor x = in[0];
        if (perRow && x.rank() != 2) {
            throw new IllegalArgumentException(name() + " needs a matrix, got shape " + Arrays.toString(x.shape())
                    + "; use LogSumExp.all for a vector");
        }
        Segments.LogSumExps lse = Segments.logSumExp(x, Segments.count(x, perRow), Segments.length(x, perRow));
        return Op.result(lse.value().reshape(outShape(x)), new Saved(x, lse));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        Tensor x = s.x();
        int segments = Segments.count(x, perRow);
        int len = Segments.length(x, perRow);
        Tensor dx = Tensor.zerosLike(x);
        double[] max = s.lse().max();
        double[] logSum = s.lse().logSum();
        // exp((x - m) - logSum) rather than exp(x - y): in float32 y = m + logSum is rounded to an
        // ulp of m, which for |m| ~ 1000 would shift every gradient by 3e-5 relative.
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] d = dx.f32();
            for (int r = 0; r < segments; r++) {
                int off = r * len;
                k.addScalarF32(xs, off, (float) -max[r], d, off, len);
                k.addScalarF32(d, off, (float) -logSum[r], d, off, len);
                k.expF32(d, off, d, off, len);
                k.mulScalarF32(d, off, g.f32()[r], d, off, len);
            }
        } else {
            double[] xs = x.f64();
            double[] d = dx.f64();
            for (int r = 0; r < segments; r++) {
                double gr = g.f64()[r];
                for (int i = r * len; i < (r + 1) * len; i++) {
                    d[i] = gr * Math.exp((xs[i] - max[r]) - logSum[r]);
                }
            }
        }
        return new Tensor[] {dx};
    }

    private int[] outShape(Tensor x) {
        if (perRow) {
            return keepDims ? new int[] {x.rows(), 1} : new int[] {x.rows()};
        }
        int[] s = new int[keepDims ? x.rank() : 0];
        Arrays.fill(s, 1);
        return s;
    }
}
