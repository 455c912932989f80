package rankgrad.autodiff.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.KernelProvider;
import rankgrad.simd.Kernels;

/**
 * The stable reductions shared by {@link LogSumExp}, {@link Softmax} and {@link LogSoftmax}. They
 * work on contiguous segments of the row-major data: the whole tensor, or each row of a matrix.
 *
 * <p>Stability: every exponential is taken of x - max(segment) &lt;= 0, so nothing overflows, and
 * the largest term is exactly 1, so the sum is at least 1 and its logarithm loses nothing to
 * underflow.
 */
final class Segments {

    private Segments() {
    }

    /** Number of segments: the rows of the matrix view, or 1 for the whole tensor. */
    static int count(Tensor x, boolean perRow) {
        return perRow ? x.rows() : 1;
    }

    /** Length of each segment. */
    static int length(Tensor x, boolean perRow) {
        return perRow ? x.cols() : x.size();
    }

    static float max(float[] x, int off, int n) {
        float m = Float.NEGATIVE_INFINITY;
        for (int i = off; i < off + n; i++) {
            m = Math.max(m, x[i]);
        }
        return m;
    }

    static double max(double[] x, int off, int n) {
        double m = Double.NEGATIVE_INFINITY;
        for (int i = off; i < off + n; i++) {
            m = Math.max(m, x[i]);
        }
        return m;
    }

    /** dst[dOff + i] = exp(x[off + i] - m) on the kernels; returns their sum. */
    static float expShiftedF32(Kernels k, float[] x, int off, int n, float m, float[] dst, int dOff) {
        k.addScalarF32(x, off, -m, dst, dOff, n);
        k.expF32(dst, dOff, dst, dOff, n);
        return k.sumF32(dst, dOff, n);
    }

    /** dst[dOff + i] = exp(x[off + i] - m); returns their sum. */
    static double expShifted(double[] x, int off, int n, double m, double[] dst, int dOff) {
        double s = 0;
        for (int i = 0; i < n; i++) {
            double e = Math.exp(x[off + i] - m);
            dst[dOff + i] = e;
            s += e;
        }
        return s;
    }

    /**
     * logsumexp of each segment, kept in parts for an accurate backward.
     *
     * @param value m + logSum per segment, a vector in x's dtype
     * @param max m, the segment's maximum (exact in x's dtype)
     * @param logSum log(sum(exp(segment - m))), in [0, log(length)]; 0 where m is infinite
     */
    record LogSumExps(Tensor value, double[] max, double[] logSum) {
    }

    /**
     * logsumexp of each segment. An infinite maximum is returned as is: -infinity for a segment of
     * -infinities (or an empty one), +infinity when the segment holds +infinity.
     */
    static LogSumExps logSumExp(Tensor x, int segments, int len) {
        Tensor out = Tensor.zeros(x.dtype(), segments);
        double[] max = new double[segments];
        double[] logSum = new double[segments];
        if (x.dtype() == DType.F32) {
            Kernels k = KernelProvider.kernels();
            float[] xs = x.f32();
            float[] tmp = new float[len];
            for (int s = 0; s < segments; s++) {
                float m = max(xs, s * len, len);
                max[s] = m;
                logSum[s] = Float.isInfinite(m) ? 0 : Math.log(expShiftedF32(k, xs, s * len, len, m, tmp, 0));
            }
        } else {
            double[] xs = x.f64();
            double[] tmp = new double[len];
            for (int s = 0; s < segments; s++) {
                double m = max(xs, s * len, len);
                max[s] = m;
                logSum[s] = Double.isInfinite(m) ? 0 : Math.log(expShifted(xs, s * len, len, m, tmp, 0));
            }
        }
        for (int s = 0; s < segments; s++) {
            out.set(s, max[s] + logSum[s]);
        }
        return new LogSumExps(out, max, logSum);
    }
}
