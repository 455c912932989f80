package rankgrad.nn.kernels;

import static rankgrad.simd.internal.VectorSupport.DOUBLE;
import static rankgrad.simd.internal.VectorSupport.FLOAT;

import java.util.Arrays;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;

/**
 * The {@link AttentionKernels} on the Panama Vector API, float64 and float32 vectors of {@link
 * VectorSupport}'s shape (so {@code -Drankgrad.vector.bits} narrows them). Each lane holds one
 * output element and sums its terms in the scalar reference's order with a separate multiply and
 * add, so every kernel gives {@link ScalarAttentionKernels}' bits exactly:
 * <ul>
 *   <li>{@link #scoresF64}, {@link #scoresF32}: lanes over j, the columns of S; B's block is first
 *       transposed into a d x m' scratch of the thread's (m' = m rounded up to two whole vectors,
 *       zero-padded), so the loop over c loads two vectors of a row of B^T per step and broadcasts
 *       A's elements: a tile of four rows by two vectors of S, eight independent sums (one would
 *       wait on the add's latency).
 *   <li>{@link #mixF64}, {@link #mixTransposedF64}: lanes over c, the columns of an output row;
 *       four rows (512-bit vectors) or two by four vectors at a time, then single rows and
 *       vectors; the loop over the m terms broadcasts the weight.
 *   <li>{@link #mixF32}, {@link #mixTransposedF32}: the same with tiles of four rows by two float
 *       vectors (a head of 32 floats is two 512-bit vectors, where four double vectors would leave
 *       it to the single-row path), then a single vector, then scalar columns.
 *   <li>The softmax: lanes over the row, {@link VectorMath#exp(DoubleVector)} (whose bits {@code
 *       LaneMath.exp} reproduces in the scalar reference), and the {@value #SUM_LANES} partial sums
 *       of the interface kept in a small array, a vector of k .. k + lanes - 1 added at partial
 *       k mod {@value #SUM_LANES}. Vectors wider than {@value #SUM_LANES} doubles (none of x86's)
 *       run the scalar reference's softmax.
 * </ul>
 * A partial last vector of scores is stored through a mask; the softmax loads a row's last vector
 * whole where the array allows and sets its lanes past the row to values that change no sum
 * (no masked arithmetic, no lane-by-lane bounds check). Package-private: {@link NnKernelProvider} constructs it
 * reflectively, only when {@code jdk.incubator.vector} is readable. Thread-safe: its only state is
 * each thread's scratch.
 */
final class VectorAttentionKernels implements AttentionKernels {
    /** Double lanes per vector. */
    private static final int DL = DOUBLE.length();
    /** Vectors per output row in one pass of the mixes. */
    private static final int BLOCK = 4;
    /**
     * Whether the mixes take four output rows per pass: 16 accumulators, 4 loaded vectors and the
     * weights fit the 32 registers of AVX-512 (512-bit vectors); narrower vectors (AVX2: 16
     * registers) keep two rows, which would otherwise spill.
     */
    private static final boolean FOUR_ROWS = DOUBLE.vectorBitSize() >= 512;
    /** Float lanes per vector. */
    private static final int FL = FLOAT.length();
    /**
     * Rows of a float32 product's tile, by two vectors each (the demo's head, d = 32, is two
     * 512-bit vectors): eight independent sums hide the add's latency, and with the two loaded
     * vectors and four weights they fit AVX2's 16 registers as well as AVX-512's 32.
     */
    private static final int ROWS_F32 = 4;
    /** Each thread's scratch for B^T in the scores, kept between calls instead of allocated per list and head. */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

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
        int mp = (m + 2 * DL - 1) / (2 * DL) * (2 * DL);
        double[] bt = SCRATCH.get().doubles(d * mp);
        for (int j = 0; j < m; j++) {
            int bj = bOff + j * stride;
            for (int c = 0; c < d; c++) {
                bt[c * mp + j] = b[bj + c];
            }
        }
        for (int c = 0; c < d; c++) {
            Arrays.fill(bt, c * mp + m, (c + 1) * mp, 0);
        }
        for (int j0 = 0; j0 < m; j0 += 2 * DL) {
            // The second vector may lie wholly past m (an all-false mask stores nothing).
            VectorMask<Double> keep0 = DOUBLE.indexInRange(j0, m);
            VectorMask<Double> keep1 = DOUBLE.indexInRange(j0 + DL, m);
            int i = 0;
            for (; i + 4 <= m; i += 4) {
                int a0 = aOff + i * stride;
                DoubleVector s00 = DoubleVector.zero(DOUBLE);
                DoubleVector s01 = s00;
                DoubleVector s10 = s00;
                DoubleVector s11 = s00;
                DoubleVector s20 = s00;
                DoubleVector s21 = s00;
                DoubleVector s30 = s00;
                DoubleVector s31 = s00;
                for (int c = 0; c < d; c++) {
                    DoubleVector b0 = DoubleVector.fromArray(DOUBLE, bt, c * mp + j0);
                    DoubleVector b1 = DoubleVector.fromArray(DOUBLE, bt, c * mp + j0 + DL);
                    double x0 = a[a0 + c];
                    double x1 = a[a0 + stride + c];
                    double x2 = a[a0 + 2 * stride + c];
                    double x3 = a[a0 + 3 * stride + c];
                    s00 = s00.add(b0.mul(x0));
                    s01 = s01.add(b1.mul(x0));
                    s10 = s10.add(b0.mul(x1));
                    s11 = s11.add(b1.mul(x1));
                    s20 = s20.add(b0.mul(x2));
                    s21 = s21.add(b1.mul(x2));
                    s30 = s30.add(b0.mul(x3));
                    s31 = s31.add(b1.mul(x3));
                }
                int at = sOff + i * m + j0;
                s00.mul(scale).intoArray(s, at, keep0);
                s01.mul(scale).intoArray(s, at + DL, keep1);
                s10.mul(scale).intoArray(s, at + m, keep0);
                s11.mul(scale).intoArray(s, at + m + DL, keep1);
                s20.mul(scale).intoArray(s, at + 2 * m, keep0);
                s21.mul(scale).intoArray(s, at + 2 * m + DL, keep1);
                s30.mul(scale).intoArray(s, at + 3 * m, keep0);
                s31.mul(scale).intoArray(s, at + 3 * m + DL, keep1);
            }
            for (; i < m; i++) {
                int ai = aOff + i * stride;
                DoubleVector s0 = DoubleVector.zero(DOUBLE);
                DoubleVector s1 = s0;
                for (int c = 0; c < d; c++) {
                    double x = a[ai + c];
                    s0 = s0.add(DoubleVector.fromArray(DOUBLE, bt, c * mp + j0).mul(x));
                    s1 = s1.add(DoubleVector.fromArray(DOUBLE, bt, c * mp + j0 + DL).mul(x));
                }
                s0.mul(scale).intoArray(s, sOff + i * m + j0, keep0);
                s1.mul(scale).intoArray(s, sOff + i * m + j0 + DL, keep1);
            }
        }
    }

    @Override
    public void mixF64(double[] p, int pOff, double[] b, int bOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        int i = 0;
        if (FOUR_ROWS) {
            for (; i + 4 <= m; i += 4) {
                weightedSums4(p, pOff + i * m, m, 1, b, bOff, stride, m, d, scale, out, outOff + i * stride);
            }
        }
        for (; i + 2 <= m; i += 2) {
            weightedSums(p, pOff + i * m, pOff + (i + 1) * m, 1, b, bOff, stride, m, d, scale, out, outOff + i * stride);
        }
        if (i < m) {
            weightedSum(p, pOff + i * m, 1, b, bOff, stride, m, d, scale, out, outOff + i * stride, 0);
        }
    }

    @Override
    public void mixTransposedF64(double[] p, int pOff, double[] a, int aOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        int j = 0;
        if (FOUR_ROWS) {
            for (; j + 4 <= m; j += 4) {
                weightedSums4(p, pOff + j, 1, m, a, aOff, stride, m, d, scale, out, outOff + j * stride);
            }
        }
        for (; j + 2 <= m; j += 2) {
            weightedSums(p, pOff + j, pOff + j + 1, m, a, aOff, stride, m, d, scale, out, outOff + j * stride);
        }
        if (j < m) {
            weightedSum(p, pOff + j, m, a, aOff, stride, m, d, scale, out, outOff + j * stride, 0);
        }
    }

    /**
     * Four adjacent output rows, o + r stride for r &lt; 4, with the weights of row r starting at
     * w0 + r rStep: {@link #weightedSum} of each, the blocks of four vectors of the four rows in
     * one pass (sixteen independent sums share each load of x, against eight in {@link
     * #weightedSums}); the columns after the last block one row at a time.
     */
    private static void weightedSums4(double[] w, int w0, int rStep, int wStep, double[] x, int xOff, int stride,
            int m, int d, double scale, double[] out, int o) {
        int c = 0;
        int oa = o;
        int ob = o + stride;
        int oc = o + 2 * stride;
        int od = o + 3 * stride;
        int wa = w0;
        int wb = w0 + rStep;
        int wc = w0 + 2 * rStep;
        int wd = w0 + 3 * rStep;
        for (; c + BLOCK * DL <= d; c += BLOCK * DL) {
            DoubleVector a0 = DoubleVector.fromArray(DOUBLE, out, oa + c);
            DoubleVector a1 = DoubleVector.fromArray(DOUBLE, out, oa + c + DL);
            DoubleVector a2 = DoubleVector.fromArray(DOUBLE, out, oa + c + 2 * DL);
            DoubleVector a3 = DoubleVector.fromArray(DOUBLE, out, oa + c + 3 * DL);
            DoubleVector b0 = DoubleVector.fromArray(DOUBLE, out, ob + c);
            DoubleVector b1 = DoubleVector.fromArray(DOUBLE, out, ob + c + DL);
            DoubleVector b2 = DoubleVector.fromArray(DOUBLE, out, ob + c + 2 * DL);
            DoubleVector b3 = DoubleVector.fromArray(DOUBLE, out, ob + c + 3 * DL);
            DoubleVector c0 = DoubleVector.fromArray(DOUBLE, out, oc + c);
            DoubleVector c1 = DoubleVector.fromArray(DOUBLE, out, oc + c + DL);
            DoubleVector c2 = DoubleVector.fromArray(DOUBLE, out, oc + c + 2 * DL);
            DoubleVector c3 = DoubleVector.fromArray(DOUBLE, out, oc + c + 3 * DL);
            DoubleVector d0 = DoubleVector.fromArray(DOUBLE, out, od + c);
            DoubleVector d1 = DoubleVector.fromArray(DOUBLE, out, od + c + DL);
            DoubleVector d2 = DoubleVector.fromArray(DOUBLE, out, od + c + 2 * DL);
            DoubleVector d3 = DoubleVector.fromArray(DOUBLE, out, od + c + 3 * DL);
            for (int t = 0; t < m; t++) {
                int wt = t * wStep;
                double fa = scale * w[wa + wt];
                double fb = scale * w[wb + wt];
                double fc = scale * w[wc + wt];
                double fd = scale * w[wd + wt];
                int xt = xOff + t * stride + c;
                DoubleVector x0 = DoubleVector.fromArray(DOUBLE, x, xt);
                DoubleVector x1 = DoubleVector.fromArray(DOUBLE, x, xt + DL);
                DoubleVector x2 = DoubleVector.fromArray(DOUBLE, x, xt + 2 * DL);
                DoubleVector x3 = DoubleVector.fromArray(DOUBLE, x, xt + 3 * DL);
                a0 = a0.add(x0.mul(fa));
                a1 = a1.add(x1.mul(fa));
                a2 = a2.add(x2.mul(fa));
                a3 = a3.add(x3.mul(fa));
                b0 = b0.add(x0.mul(fb));
                b1 = b1.add(x1.mul(fb));
                b2 = b2.add(x2.mul(fb));
                b3 = b3.add(x3.mul(fb));
                c0 = c0.add(x0.mul(fc));
                c1 = c1.add(x1.mul(fc));
                c2 = c2.add(x2.mul(fc));
                c3 = c3.add(x3.mul(fc));
                d0 = d0.add(x0.mul(fd));
                d1 = d1.add(x1.mul(fd));
                d2 = d2.add(x2.mul(fd));
                d3 = d3.add(x3.mul(fd));
            }
            a0.intoArray(out, oa + c);
            a1.intoArray(out, oa + c + DL);
            a2.intoArray(out, oa + c + 2 * DL);
            a3.intoArray(out, oa + c + 3 * DL);
            b0.intoArray(out, ob + c);
            b1.intoArray(out, ob + c + DL);
            b2.intoArray(out, ob + c + 2 * DL);
            b3.intoArray(out, ob + c + 3 * DL);
            c0.intoArray(out, oc + c);
            c1.intoArray(out, oc + c + DL);
            c2.intoArray(out, oc + c + 2 * DL);
            c3.intoArray(out, oc + c + 3 * DL);
            d0.intoArray(out, od + c);
            d1.intoArray(out, od + c + DL);
            d2.intoArray(out, od + c + 2 * DL);
            d3.intoArray(out, od + c + 3 * DL);
        }
        if (c < d) {
            weightedSum(w, wa, wStep, x, xOff, stride, m, d, scale, out, oa, c);
            weightedSum(w, wb, wStep, x, xOff, stride, m, d, scale, out, ob, c);
            weightedSum(w, wc, wStep, x, xOff, stride, m, d, scale, out, oc, c);
            weightedSum(w, wd, wStep, x, xOff, stride, m, d, scale, out, od, c);
        }
    }

    /**
     * Two adjacent output rows, o and o + stride, with the weights starting at w0 and w1: {@link
     * #weightedSum} of each, the blocks of four vectors of both rows in one pass (eight independent
     * sums share each load of x); the columns after the last block one row at a time.
     */
    private static void weightedSums(double[] w, int w0, int w1, int wStep, double[] x, int xOff, int stride, int m,
            int d, double scale, double[] out, int o) {
        int c = 0;
        int o1 = o + stride;
        for (; c + BLOCK * DL <= d; c += BLOCK * DL) {
            DoubleVector r0 = DoubleVector.fromArray(DOUBLE, out, o + c);
            DoubleVector r1 = DoubleVector.fromArray(DOUBLE, out, o + c + DL);
            DoubleVector r2 = DoubleVector.fromArray(DOUBLE, out, o + c + 2 * DL);
            DoubleVector r3 = DoubleVector.fromArray(DOUBLE, out, o + c + 3 * DL);
            DoubleVector q0 = DoubleVector.fromArray(DOUBLE, out, o1 + c);
            DoubleVector q1 = DoubleVector.fromArray(DOUBLE, out, o1 + c + DL);
            DoubleVector q2 = DoubleVector.fromArray(DOUBLE, out, o1 + c + 2 * DL);
            DoubleVector q3 = DoubleVector.fromArray(DOUBLE, out, o1 + c + 3 * DL);
            for (int t = 0; t < m; t++) {
                double f = scale * w[w0 + t * wStep];
                double g = scale * w[w1 + t * wStep];
                int xt = xOff + t * stride + c;
                DoubleVector x0 = DoubleVector.fromArray(DOUBLE, x, xt);
                DoubleVector x1 = DoubleVector.fromArray(DOUBLE, x, xt + DL);
                DoubleVector x2 = DoubleVector.fromArray(DOUBLE, x, xt + 2 * DL);
                DoubleVector x3 = DoubleVector.fromArray(DOUBLE, x, xt + 3 * DL);
                r0 = r0.add(x0.mul(f));
                r1 = r1.add(x1.mul(f));
                r2 = r2.add(x2.mul(f));
                r3 = r3.add(x3.mul(f));
                q0 = q0.add(x0.mul(g));
                q1 = q1.add(x1.mul(g));
                q2 = q2.add(x2.mul(g));
                q3 = q3.add(x3.mul(g));
            }
            r0.intoArray(out, o + c);
            r1.intoArray(out, o + c + DL);
            r2.intoArray(out, o + c + 2 * DL);
            r3.intoArray(out, o + c + 3 * DL);
            q0.intoArray(out, o1 + c);
            q1.intoArray(out, o1 + c + DL);
            q2.intoArray(out, o1 + c + 2 * DL);
            q3.intoArray(out, o1 + c + 3 * DL);
        }
        if (c < d) {
            weightedSum(w, w0, wStep, x, xOff, stride, m, d, scale, out, o, c);
            weightedSum(w, w1, wStep, x, xOff, stride, m, d, scale, out, o1, c);
        }
    }

    /**
     * One output row from column c0 on: out[o + c] += (scale * w[wOff + t wStep]) * x[xOff + t stride + c]
     * for t = 0 .. m - 1 in order, c0 &lt;= c &lt; d; lanes over c, blocks of four vectors, then
     * single vectors, the last one masked.
     */
    private static void weightedSum(double[] w, int wOff, int wStep, double[] x, int xOff, int stride, int m, int d,
            double scale, double[] out, int o, int c0) {
        int c = c0;
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
        for (; c + DL <= d; c += DL) {
            DoubleVector acc = DoubleVector.fromArray(DOUBLE, out, o + c);
            for (int t = 0; t < m; t++) {
                double f = scale * w[wOff + t * wStep];
                acc = acc.add(DoubleVector.fromArray(DOUBLE, x, xOff + t * stride + c).mul(f));
            }
            acc.intoArray(out, o + c);
        }
        if (c < d) {
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
    public void scoresF32(float[] a, int aOff, float[] b, int bOff, int stride, int m, int d, float scale,
            float[] s, int sOff) {
        int mp = (m + 2 * FL - 1) / (2 * FL) * (2 * FL);
        float[] bt = SCRATCH.get().floats(d * mp);
        for (int j = 0; j < m; j++) {
            int bj = bOff + j * stride;
            for (int c = 0; c < d; c++) {
                bt[c * mp + j] = b[bj + c];
            }
        }
        for (int c = 0; c < d; c++) {
            Arrays.fill(bt, c * mp + m, (c + 1) * mp, 0);
        }
        for (int j0 = 0; j0 < m; j0 += 2 * FL) {
            // The second vector may lie wholly past m (an all-false mask stores nothing).
            VectorMask<Float> keep0 = FLOAT.indexInRange(j0, m);
            VectorMask<Float> keep1 = FLOAT.indexInRange(j0 + FL, m);
            int i = 0;
            for (; i + ROWS_F32 <= m; i += ROWS_F32) {
                int a0 = aOff + i * stride;
                FloatVector s00 = FloatVector.zero(FLOAT);
                FloatVector s01 = s00;
                FloatVector s10 = s00;
                FloatVector s11 = s00;
                FloatVector s20 = s00;
                FloatVector s21 = s00;
                FloatVector s30 = s00;
                FloatVector s31 = s00;
                for (int c = 0; c < d; c++) {
                    FloatVector b0 = FloatVector.fromArray(FLOAT, bt, c * mp + j0);
                    FloatVector b1 = FloatVector.fromArray(FLOAT, bt, c * mp + j0 + FL);
                    float x0 = a[a0 + c];
                    float x1 = a[a0 + stride + c];
                    float x2 = a[a0 + 2 * stride + c];
                    float x3 = a[a0 + 3 * stride + c];
                    s00 = s00.add(b0.mul(x0));
                    s01 = s01.add(b1.mul(x0));
                    s10 = s10.add(b0.mul(x1));
                    s11 = s11.add(b1.mul(x1));
                    s20 = s20.add(b0.mul(x2));
                    s21 = s21.add(b1.mul(x2));
                    s30 = s30.add(b0.mul(x3));
                    s31 = s31.add(b1.mul(x3));
                }
                int at = sOff + i * m + j0;
                s00.mul(scale).intoArray(s, at, keep0);
                s01.mul(scale).intoArray(s, at + FL, keep1);
                s10.mul(scale).intoArray(s, at + m, keep0);
                s11.mul(scale).intoArray(s, at + m + FL, keep1);
                s20.mul(scale).intoArray(s, at + 2 * m, keep0);
                s21.mul(scale).intoArray(s, at + 2 * m + FL, keep1);
                s30.mul(scale).intoArray(s, at + 3 * m, keep0);
                s31.mul(scale).intoArray(s, at + 3 * m + FL, keep1);
            }
            for (; i < m; i++) {
                int ai = aOff + i * stride;
                FloatVector s0 = FloatVector.zero(FLOAT);
                FloatVector s1 = s0;
                for (int c = 0; c < d; c++) {
                    float x = a[ai + c];
                    s0 = s0.add(FloatVector.fromArray(FLOAT, bt, c * mp + j0).mul(x));
                    s1 = s1.add(FloatVector.fromArray(FLOAT, bt, c * mp + j0 + FL).mul(x));
                }
                s0.mul(scale).intoArray(s, sOff + i * m + j0, keep0);
                s1.mul(scale).intoArray(s, sOff + i * m + j0 + FL, keep1);
            }
        }
    }

    @Override
    public void mixF32(float[] p, int pOff, float[] b, int bOff, int stride, int m, int d, float scale,
            float[] out, int outOff) {
        int i = 0;
        for (; i + ROWS_F32 <= m; i += ROWS_F32) {
            weightedSums4F32(p, pOff + i * m, m, 1, b, bOff, stride, m, d, scale, out, outOff + i * stride);
        }
        for (; i < m; i++) {
            weightedSumF32(p, pOff + i * m, 1, b, bOff, stride, m, 0, d, scale, out, outOff + i * stride);
        }
    }

    @Override
    public void mixTransposedF32(float[] p, int pOff, float[] a, int aOff, int stride, int m, int d, float scale,
            float[] out, int outOff) {
        int j = 0;
        for (; j + ROWS_F32 <= m; j += ROWS_F32) {
            weightedSums4F32(p, pOff + j, 1, m, a, aOff, stride, m, d, scale, out, outOff + j * stride);
        }
        for (; j < m; j++) {
            weightedSumF32(p, pOff + j, m, a, aOff, stride, m, 0, d, scale, out, outOff + j * stride);
        }
    }

    /**
     * Four adjacent float32 output rows, o + r stride for r &lt; 4, with the weights of row r
     * starting at w0 + r rStep: {@link #weightedSumF32} of each, two vectors of the four rows in one
     * pass (eight independent sums share each load of x); a last single vector and the columns
     * after it one row at a time.
     */
    private static void weightedSums4F32(float[] w, int w0, int rStep, int wStep, float[] x, int xOff, int stride,
            int m, int d, float scale, float[] out, int o) {
        int c = 0;
        int oa = o;
        int ob = o + stride;
        int oc = o + 2 * stride;
        int od = o + 3 * stride;
        int wa = w0;
        int wb = w0 + rStep;
        int wc = w0 + 2 * rStep;
        int wd = w0 + 3 * rStep;
        for (; c + 2 * FL <= d; c += 2 * FL) {
            FloatVector a0 = FloatVector.fromArray(FLOAT, out, oa + c);
            FloatVector a1 = FloatVector.fromArray(FLOAT, out, oa + c + FL);
            FloatVector b0 = FloatVector.fromArray(FLOAT, out, ob + c);
            FloatVector b1 = FloatVector.fromArray(FLOAT, out, ob + c + FL);
            FloatVector c0 = FloatVector.fromArray(FLOAT, out, oc + c);
            FloatVector c1 = FloatVector.fromArray(FLOAT, out, oc + c + FL);
            FloatVector d0 = FloatVector.fromArray(FLOAT, out, od + c);
            FloatVector d1 = FloatVector.fromArray(FLOAT, out, od + c + FL);
            for (int t = 0; t < m; t++) {
                int wt = t * wStep;
                float fa = scale * w[wa + wt];
                float fb = scale * w[wb + wt];
                float fc = scale * w[wc + wt];
                float fd = scale * w[wd + wt];
                int xt = xOff + t * stride + c;
                FloatVector x0 = FloatVector.fromArray(FLOAT, x, xt);
                FloatVector x1 = FloatVector.fromArray(FLOAT, x, xt + FL);
                a0 = a0.add(x0.mul(fa));
                a1 = a1.add(x1.mul(fa));
                b0 = b0.add(x0.mul(fb));
                b1 = b1.add(x1.mul(fb));
                c0 = c0.add(x0.mul(fc));
                c1 = c1.add(x1.mul(fc));
                d0 = d0.add(x0.mul(fd));
                d1 = d1.add(x1.mul(fd));
            }
            a0.intoArray(out, oa + c);
            a1.intoArray(out, oa + c + FL);
            b0.intoArray(out, ob + c);
            b1.intoArray(out, ob + c + FL);
            c0.intoArray(out, oc + c);
            c1.intoArray(out, oc + c + FL);
            d0.intoArray(out, od + c);
            d1.intoArray(out, od + c + FL);
        }
        if (c < d) {
            weightedSumF32(w, wa, wStep, x, xOff, stride, m, c, d, scale, out, oa);
            weightedSumF32(w, wb, wStep, x, xOff, stride, m, c, d, scale, out, ob);
            weightedSumF32(w, wc, wStep, x, xOff, stride, m, c, d, scale, out, oc);
            weightedSumF32(w, wd, wStep, x, xOff, stride, m, c, d, scale, out, od);
        }
    }

    /**
     * One float32 output row from column c0 on: out[o + c] += (scale * w[wOff + t wStep]) *
     * x[xOff + t stride + c] for t = 0 .. m - 1 in order, c0 &lt;= c &lt; d; lanes over c, pairs of
     * vectors, a single vector, then the last columns in scalar code (the same operations in the
     * same order: no mask, whose loads past the array's end take the Vector API's slow path).
     */
    private static void weightedSumF32(float[] w, int wOff, int wStep, float[] x, int xOff, int stride, int m, int c0,
            int d, float scale, float[] out, int o) {
        int c = c0;
        for (; c + 2 * FL <= d; c += 2 * FL) {
            FloatVector o0 = FloatVector.fromArray(FLOAT, out, o + c);
            FloatVector o1 = FloatVector.fromArray(FLOAT, out, o + c + FL);
            for (int t = 0; t < m; t++) {
                float f = scale * w[wOff + t * wStep];
                int xt = xOff + t * stride + c;
                o0 = o0.add(FloatVector.fromArray(FLOAT, x, xt).mul(f));
                o1 = o1.add(FloatVector.fromArray(FLOAT, x, xt + FL).mul(f));
            }
            o0.intoArray(out, o + c);
            o1.intoArray(out, o + c + FL);
        }
        for (; c + FL <= d; c += FL) {
            FloatVector acc = FloatVector.fromArray(FLOAT, out, o + c);
            for (int t = 0; t < m; t++) {
                float f = scale * w[wOff + t * wStep];
                acc = acc.add(FloatVector.fromArray(FLOAT, x, xOff + t * stride + c).mul(f));
            }
            acc.intoArray(out, o + c);
        }
        for (; c < d; c++) {
            float acc = out[o + c];
            for (int t = 0; t < m; t++) {
                acc += (scale * w[wOff + t * wStep]) * x[xOff + t * stride + c];
            }
            out[o + c] = acc;
        }
    }

    /**
     * The row's passes are separate methods that exchange only arrays and scalars: with the
     * exponential's polynomial inlined twice, one method outgrew C2's inlining budget
     * (NodeCountInliningCutoff), and the calls it then left out (the constants' broadcasts, the
     * partial sums) passed every vector as an allocated object: a third of the forward pass.
     */
    @Override
    public void softmaxF64(double[] x, double[] y, int off, int n) {
        if (DL > SUM_LANES) {
            ScalarAttentionKernels.INSTANCE.softmaxF64(x, y, off, n);
            return;
        }
        if (n == 0) {
            return;
        }
        double max = rowMax(x, off, n);
        double[] part = new double[SUM_LANES];
        int full = DOUBLE.loopBound(n);
        exponentials(x, y, off, full, max, part);
        if (full < n) {
            lastExponentials(x, y, off, full, n, max, part);
        }
        double sum = ScalarAttentionKernels.combine(part);
        for (int k = 0; k < full; k += DL) {
            DoubleVector.fromArray(DOUBLE, y, off + k).div(sum).intoArray(y, off + k);
        }
        if (full < n) {
            VectorMask<Double> tail = DOUBLE.indexInRange(full, n);
            load(y, off + full, tail).div(sum).intoArray(y, off + full, tail);
        }
    }

    /** max of x[off .. off + n - 1] (n &gt; 0). */
    private static double rowMax(double[] x, int off, int n) {
        int full = DOUBLE.loopBound(n);
        DoubleVector mv = DoubleVector.broadcast(DOUBLE, Double.NEGATIVE_INFINITY);
        for (int k = 0; k < full; k += DL) {
            mv = mv.max(DoubleVector.fromArray(DOUBLE, x, off + k));
        }
        if (full < n) {
            // -infinity past the row: max(v, -infinity) = v for every v, NaN included.
            VectorMask<Double> tail = DOUBLE.indexInRange(full, n);
            mv = mv.max(load(x, off + full, tail).blend(Double.NEGATIVE_INFINITY, tail.not()));
        }
        // max is exact, commutative and associative (NaN, and +0 over -0, win in any order): any
        // order of the lanes gives the scalar loop's max.
        double[] lanes = new double[DL];
        mv.intoArray(lanes, 0);
        double max = Double.NEGATIVE_INFINITY;
        for (double l : lanes) {
            max = Math.max(max, l);
        }
        return max;
    }

    /** y[off + k] = exp(x[off + k] - max) for the whole vectors k &lt; full, each added to its partial sum. */
    private static void exponentials(double[] x, double[] y, int off, int full, double max, double[] part) {
        for (int k = 0; k < full; k += DL) {
            DoubleVector e = VectorMath.exp(DoubleVector.fromArray(DOUBLE, x, off + k).sub(max));
            e.intoArray(y, off + k);
            accumulate(part, k, e);
        }
    }

    /**
     * {@link #exponentials} of the last, partial vector, full &lt;= k &lt; n: x - max set to
     * -infinity past the row before the exponential, so those lanes are exp(-infinity) = +0.0 and
     * add nothing to their partial sums (each partial is +0.0 plus non-negative terms, or NaN, and
     * p + 0.0 is p, bit for bit); a whole vector then, with no masked arithmetic.
     */
    private static void lastExponentials(double[] x, double[] y, int off, int full, int n, double max,
            double[] part) {
        VectorMask<Double> tail = DOUBLE.indexInRange(full, n);
        DoubleVector e = VectorMath.exp(load(x, off + full, tail).sub(max).blend(Double.NEGATIVE_INFINITY,
                tail.not()));
        e.intoArray(y, off + full, tail);
        accumulate(part, full, e);
    }

    @Override
    public void softmaxBackwardF64(double[] y, double[] g, double[] dx, int off, int n) {
        if (DL > SUM_LANES) {
            ScalarAttentionKernels.INSTANCE.softmaxBackwardF64(y, g, dx, off, n);
            return;
        }
        int full = DOUBLE.loopBound(n);
        VectorMask<Double> tail = DOUBLE.indexInRange(full, n);
        double[] part = new double[SUM_LANES];
        for (int k = 0; k < full; k += DL) {
            accumulate(part, k, DoubleVector.fromArray(DOUBLE, g, off + k).mul(DoubleVector.fromArray(DOUBLE, y, off + k)));
        }
        if (full < n) {
            // +0.0 past the row: a partial (+0.0 plus terms, never -0.0) plus +0.0 is itself, bit for bit.
            DoubleVector gy = load(g, off + full, tail).mul(load(y, off + full, tail)).blend(0.0, tail.not());
            accumulate(part, full, gy);
        }
        double t = ScalarAttentionKernels.combine(part);
        for (int k = 0; k < full; k += DL) {
            DoubleVector.fromArray(DOUBLE, y, off + k).mul(DoubleVector.fromArray(DOUBLE, g, off + k).sub(t))
                    .intoArray(dx, off + k);
        }
        if (full < n) {
            load(y, off + full, tail).mul(load(g, off + full, tail).sub(t)).intoArray(dx, off + full, tail);
        }
    }

    /**
     * Adds v, the terms k .. k + DL - 1 of a row, to their partial sums k mod SUM_LANES onwards (DL
     * divides SUM_LANES and k is a multiple of DL, so they are adjacent).
     */
    private static void accumulate(double[] part, int k, DoubleVector v) {
        int at = k % SUM_LANES;
        DoubleVector.fromArray(DOUBLE, part, at).add(v).intoArray(part, at);
    }

    /**
     * The vector at a[at ..] of a row's last, partial vector, whose lanes {@code in} are the row's:
     * a whole vector when it lies inside the array (the lanes past the row hold whatever follows
     * it, for the caller to discard), else a masked load, zero past the row. A masked load that may
     * reach past the array's end takes the Vector API's slow path, lane by lane
     * ({@code checkIndexByLane}); score blocks carry padding so that it rarely does.
     */
    private static DoubleVector load(double[] a, int at, VectorMask<Double> in) {
        return at + DL <= a.length ? DoubleVector.fromArray(DOUBLE, a, at) : DoubleVector.fromArray(DOUBLE, a, at, in);
    }

    /** One thread's scratch arrays, grown to the largest request and reused (their contents are not kept). */
    private static final class Scratch {
        private double[] f64 = new double[0];
        private float[] f32 = new float[0];

        /** At least n doubles. */
        double[] doubles(int n) {
            if (f64.length < n) {
                f64 = new double[n];
            }
            return f64;
        }

        /** At least n floats. */
        float[] floats(int n) {
            if (f32.length < n) {
                f32 = new float[n];
            }
            return f32;
        }
    }
}
