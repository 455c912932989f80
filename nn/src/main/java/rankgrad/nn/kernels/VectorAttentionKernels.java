package rankgrad.nn.kernels;

import static rankgrad.simd.internal.VectorSupport.DOUBLE;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;

/**
 * The {@link AttentionKernels} on the Panama Vector API, float64 vectors of {@link VectorSupport}'s
 * shape (so {@code -Drankgrad.vector.bits} narrows them). Each lane holds one output element and
 * sums its terms in the scalar reference's order with a separate multiply and add, so every kernel
 * gives {@link ScalarAttentionKernels}' bits exactly:
 * <ul>
 *   <li>{@link #scoresF64}: lanes over j, the columns of S; B's block is first transposed into a
 *       d x m' scratch (m' = m rounded up to whole vectors, zero-padded), so the loop over c loads
 *       one row of B^T per step and broadcasts A's element; four rows of S at a time share the load.
 *   <li>{@link #mixF64}, {@link #mixTransposedF64}: lanes over c, the columns of one output row,
 *       up to four vectors at a time; the loop over the m terms broadcasts the weight.
 *   <li>The softmax: lanes over the row, {@link VectorMath#exp(DoubleVector)} (whose bits {@code
 *       LaneMath.exp} reproduces in the scalar reference), and the {@value #SUM_LANES} partial sums
 *       of the interface kept in a small array, a vector of k .. k + lanes - 1 added at partial
 *       k mod {@value #SUM_LANES}. Vectors wider than {@value #SUM_LANES} doubles (none of x86's)
 *       run the scalar reference's softmax.
 * </ul>
 * A partial last vector is masked. Package-private: {@link NnKernelProvider} constructs it
 * reflectively, only when {@code jdk.incubator.vector} is readable. Stateless.
 */
final class VectorAttentionKernels implements AttentionKernels {
    /** Double lanes per vector. */
    private static final int DL = DOUBLE.length();
    /** Output vectors per pass in the mixes: 4 independent sums hide the add's latency. */
    private static final int BLOCK = 4;

    /**
     * For reflective loading by {@link NnKernelProvider}.
     *
     * @throws UnsupportedOperationException when float vectors have fewer than 4 lanes (the rule of
     *     {@link VectorSupport#requireEnoughLanes()}, the same as every kernel family)
     */
    VectorAttentionKernels() {
        VectorSupport.requireEnoughLanes();
    }

    @Override
    public String name() {
        return "vector(" + DOUBLE.vectorBitSize() + "-bit)";
    }

    @Override
    public void scoresF64(double[] a, int aOff, double[] b, int bOff, int stride, int m, int d, double scale,
            double[] s, int sOff) {
        int mp = (m + DL - 1) / DL * DL;
        double[] bt = new double[d * mp];
        for (int j = 0; j < m; j++) {
            int bj = bOff + j * stride;
            for (int c = 0; c < d; c++) {
                bt[c * mp + j] = b[bj + c];
            }
        }
        for (int j0 = 0; j0 < m; j0 += DL) {
            VectorMask<Double> keep = DOUBLE.indexInRange(j0, m);
            int i = 0;
            for (; i + 4 <= m; i += 4) {
                int a0 = aOff + i * stride;
                int a1 = a0 + stride;
                int a2 = a1 + stride;
                int a3 = a2 + stride;
                DoubleVector s0 = DoubleVector.zero(DOUBLE);
                DoubleVector s1 = s0;
                DoubleVector s2 = s0;
                DoubleVector s3 = s0;
                for (int c = 0; c < d; c++) {
                    DoubleVector bv = DoubleVector.fromArray(DOUBLE, bt, c * mp + j0);
                    s0 = s0.add(bv.mul(a[a0 + c]));
                    s1 = s1.add(bv.mul(a[a1 + c]));
                    s2 = s2.add(bv.mul(a[a2 + c]));
                    s3 = s3.add(bv.mul(a[a3 + c]));
                }
                int at = sOff + i * m + j0;
                s0.mul(scale).intoArray(s, at, keep);
                s1.mul(scale).intoArray(s, at + m, keep);
                s2.mul(scale).intoArray(s, at + 2 * m, keep);
                s3.mul(scale).intoArray(s, at + 3 * m, keep);
            }
            for (; i < m; i++) {
                int ai = aOff + i * stride;
                DoubleVector acc = DoubleVector.zero(DOUBLE);
                for (int c = 0; c < d; c++) {
                    acc = acc.add(DoubleVector.fromArray(DOUBLE, bt, c * mp + j0).mul(a[ai + c]));
                }
                acc.mul(scale).intoArray(s, sOff + i * m + j0, keep);
            }
        }
    }

    @Override
    public void mixF64(double[] p, int pOff, double[] b, int bOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        for (int i = 0; i < m; i++) {
            weightedSum(p, pOff + i * m, 1, b, bOff, stride, m, d, scale, out, outOff + i * stride);
        }
    }

    @Override
    public void mixTransposedF64(double[] p, int pOff, double[] a, int aOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        for (int j = 0; j < m; j++) {
            weightedSum(p, pOff + j, m, a, aOff, stride, m, d, scale, out, outOff + j * stride);
        }
    }

    /**
     * One output row: out[o + c] += (scale * w[wOff + t wStep]) * x[xOff + t stride + c] for
     * t = 0 .. m - 1 in order, c &lt; d; lanes over c.
     */
    private static void weightedSum(double[] w, int wOff, int wStep, double[] x, int xOff, int stride, int m, int d,
            double scale, double[] out, int o) {
        int c = 0;
        for (; c + BLOCK * DL <= d; c += BLOCK * DL) {
            DoubleVector o0 = DoubleVector.fromArray(DOUBLE, out, o + c);
            DoubleVector o1 = DoubleVector.fromArray(DOUBLE, out, o + c + DL);
            DoubleVector o2 = DoubleVector.fromArray(DOUBLE, out, o + c + 2 * DL);
            DoubleVector o3 = DoubleVector.fromArray(DOUBLE, out, o + c + 3 * DL);
            for (int t = 0; t < m; t++) {
                double f = scale * w[wOff + t * wStep];
                int xt = xOff + t * stride + c;
                o0 = o0.add(DoubleVector.fromArray(DOUBLE, x, xt).mul(f));
                o1 = o1.add(DoubleVector.fromArray(DOUBLE, x, xt + DL).mul(f));
                o2 = o2.add(DoubleVector.fromArray(DOUBLE, x, xt + 2 * DL).mul(f));
                o3 = o3.add(DoubleVector.fromArray(DOUBLE, x, xt + 3 * DL).mul(f));
            }
            o0.intoArray(out, o + c);
            o1.intoArray(out, o + c + DL);
            o2.intoArray(out, o + c + 2 * DL);
            o3.intoArray(out, o + c + 3 * DL);
        }
        for (; c < d; c += DL) {
            VectorMask<Double> keep = DOUBLE.indexInRange(c, d);
            DoubleVector acc = DoubleVector.fromArray(DOUBLE, out, o + c, keep);
            for (int t = 0; t < m; t++) {
                double f = scale * w[wOff + t * wStep];
                acc = acc.add(DoubleVector.fromArray(DOUBLE, x, xOff + t * stride + c, keep).mul(f));
            }
            acc.intoArray(out, o + c, keep);
        }
    }

    @Override
    public void softmaxF64(double[] x, double[] y, int off, int n) {
        if (DL > SUM_LANES) {
            ScalarAttentionKernels.INSTANCE.softmaxF64(x, y, off, n);
            return;
        }
        if (n == 0) {
            return;
        }
        DoubleVector mv = DoubleVector.broadcast(DOUBLE, Double.NEGATIVE_INFINITY);
        for (int k = 0; k < n; k += DL) {
            VectorMask<Double> in = DOUBLE.indexInRange(k, n);
            mv = mv.lanewise(VectorOperators.MAX, DoubleVector.fromArray(DOUBLE, x, off + k, in), in);
        }
        // max is exact and commutative (NaN and +0 over -0 win in any order): any lane order gives the scalar max.
        double[] lanes = new double[DL];
        mv.intoArray(lanes, 0);
        double max = Double.NEGATIVE_INFINITY;
        for (double l : lanes) {
            max = Math.max(max, l);
        }
        double[] part = new double[SUM_LANES];
        for (int k = 0; k < n; k += DL) {
            VectorMask<Double> in = DOUBLE.indexInRange(k, n);
            DoubleVector e = VectorMath.exp(DoubleVector.fromArray(DOUBLE, x, off + k, in).sub(max));
            e.intoArray(y, off + k, in);
            accumulate(part, k, e, in);
        }
        double sum = ScalarAttentionKernels.combine(part);
        for (int k = 0; k < n; k += DL) {
            VectorMask<Double> in = DOUBLE.indexInRange(k, n);
            DoubleVector.fromArray(DOUBLE, y, off + k, in).div(sum).intoArray(y, off + k, in);
        }
    }

    @Override
    public void softmaxBackwardF64(double[] y, double[] g, double[] dx, int off, int n) {
        if (DL > SUM_LANES) {
            ScalarAttentionKernels.INSTANCE.softmaxBackwardF64(y, g, dx, off, n);
            return;
        }
        double[] part = new double[SUM_LANES];
        for (int k = 0; k < n; k += DL) {
            VectorMask<Double> in = DOUBLE.indexInRange(k, n);
            accumulate(part, k, DoubleVector.fromArray(DOUBLE, g, off + k, in)
                    .mul(DoubleVector.fromArray(DOUBLE, y, off + k, in)), in);
        }
        double t = ScalarAttentionKernels.combine(part);
        for (int k = 0; k < n; k += DL) {
            VectorMask<Double> in = DOUBLE.indexInRange(k, n);
            DoubleVector yv = DoubleVector.fromArray(DOUBLE, y, off + k, in);
            yv.mul(DoubleVector.fromArray(DOUBLE, g, off + k, in).sub(t)).intoArray(dx, off + k, in);
        }
    }

    /**
     * Adds the lanes {@code in} of v, the terms k .. k + DL - 1 of a row, to their partial sums
     * k mod SUM_LANES onwards (DL divides SUM_LANES and k is a multiple of DL, so they are adjacent).
     */
    private static void accumulate(double[] part, int k, DoubleVector v, VectorMask<Double> in) {
        int at = k % SUM_LANES;
        DoubleVector.fromArray(DOUBLE, part, at).add(v, in).intoArray(part, at);
    }
}
