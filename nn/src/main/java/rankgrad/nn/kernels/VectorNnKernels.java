package rankgrad.nn.kernels;

import static rankgrad.simd.internal.VectorSupport.DOUBLE;
import static rankgrad.simd.internal.VectorSupport.FLOAT;
import static rankgrad.simd.internal.VectorSupport.LANES;
import static rankgrad.simd.internal.VectorSupport.loopBound;
import static rankgrad.simd.internal.VectorSupport.worthVectorizing;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import rankgrad.simd.internal.VectorSupport;

/**
 * The {@link NnKernels} on the Panama Vector API, with the species of {@link VectorSupport} (so
 * {@code -Drankgrad.vector.bits} narrows them as it does the engine's kernels). Every kernel keeps
 * its scalar reference's bits ({@link ScalarNnKernels}): each float32 operation is one lane-wise
 * operation (no FMA), and each float64 accumulator lane sums its own column in row order, exactly
 * as the scalar loop does; only the loop over columns is vectorized, the columns past the last
 * whole vector run the scalar loop, and so do short rows ({@code cols <= 2 * LANES}).
 *
 * <p>Package-private: {@link NnKernelProvider} constructs it reflectively through its own lookup,
 * only when {@code jdk.incubator.vector} is readable; nothing else links against it. Stateless.
 */
final class VectorNnKernels implements NnKernels {
    /** Double lanes per vector: half the float lanes, since both species have one shape. */
    private static final int HALF = LANES / 2;
    /**
     * Rows whose terms a column sum adds in registers before it is stored back: the float64
     * accumulators make one round trip through memory per block instead of per row, and each
     * column still receives its terms in row order.
     */
    private static final int ROW_BLOCK = 8;

    /**
     * For reflective loading by {@link NnKernelProvider}.
     *
     * @throws UnsupportedOperationException when float vectors have fewer than 4 lanes (the rule
     *     of {@link VectorSupport#requireEnoughLanes()}, the same as the engine's kernels)
     */
    VectorNnKernels() {
        VectorSupport.requireEnoughLanes();
    }

    @Override
    public String name() {
        return "vector(" + FLOAT.vectorBitSize() + "-bit)";
    }

    @Override
    public void biasedColumnSumsF32(float[] z, float[] bias, double[] sum, int from, int to, int cols) {
        if (!worthVectorizing(cols)) {
            ScalarNnKernels.biasedColumnSums(z, bias, sum, from, to, 0, cols);
            return;
        }
        int full = loopBound(cols);
        for (int i0 = from; i0 < to; i0 += ROW_BLOCK) {
            int i1 = Math.min(to, i0 + ROW_BLOCK);
            for (int j = 0; j < full; j += LANES) {
                FloatVector bj = FloatVector.fromArray(FLOAT, bias, j);
                DoubleVector lo = DoubleVector.fromArray(DOUBLE, sum, j);
                DoubleVector hi = DoubleVector.fromArray(DOUBLE, sum, j + HALF);
                for (int e = i0 * cols + j, end = i1 * cols + j; e < end; e += cols) {
                    FloatVector v = FloatVector.fromArray(FLOAT, z, e).add(bj);
                    lo = lo.add(widen(v, 0));
                    hi = hi.add(widen(v, 1));
                }
                lo.intoArray(sum, j);
                hi.intoArray(sum, j + HALF);
            }
            ScalarNnKernels.biasedColumnSums(z, bias, sum, i0, i1, full, cols);
        }
    }

    @Override
    public void biasedSquaredDeviationsF32(float[] z, float[] bias, double[] mean, double[] q, int from, int to,
            int cols) {
        if (!worthVectorizing(cols)) {
            ScalarNnKernels.biasedSquaredDeviations(z, bias, mean, q, from, to, 0, cols);
            return;
        }
        int full = loopBound(cols);
        for (int i0 = from; i0 < to; i0 += ROW_BLOCK) {
            int i1 = Math.min(to, i0 + ROW_BLOCK);
            for (int j = 0; j < full; j += LANES) {
                FloatVector bj = FloatVector.fromArray(FLOAT, bias, j);
                DoubleVector meanLo = DoubleVector.fromArray(DOUBLE, mean, j);
                DoubleVector meanHi = DoubleVector.fromArray(DOUBLE, mean, j + HALF);
                DoubleVector lo = DoubleVector.fromArray(DOUBLE, q, j);
                DoubleVector hi = DoubleVector.fromArray(DOUBLE, q, j + HALF);
                for (int e = i0 * cols + j, end = i1 * cols + j; e < end; e += cols) {
                    FloatVector v = FloatVector.fromArray(FLOAT, z, e).add(bj);
                    DoubleVector dLo = widen(v, 0).sub(meanLo);
                    DoubleVector dHi = widen(v, 1).sub(meanHi);
                    lo = lo.add(dLo.mul(dLo));
                    hi = hi.add(dHi.mul(dHi));
                }
                lo.intoArray(q, j);
                hi.intoArray(q, j + HALF);
            }
            ScalarNnKernels.biasedSquaredDeviations(z, bias, mean, q, i0, i1, full, cols);
        }
    }

    @Override
    public void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int from,
            int to, int cols) {
        if (!worthVectorizing(cols)) {
            ScalarNnKernels.batchNormRelu(z, bias, mu, scale, shift, y, from, to, 0, cols);
            return;
        }
        int full = loopBound(cols);
        FloatVector zero = FloatVector.zero(FLOAT);
        for (int i = from; i < to; i++) {
            for (int j = 0, e = i * cols; j < full; j += LANES, e += LANES) {
                FloatVector v = FloatVector.fromArray(FLOAT, z, e).add(FloatVector.fromArray(FLOAT, bias, j))
                        .sub(FloatVector.fromArray(FLOAT, mu, j)).mul(FloatVector.fromArray(FLOAT, scale, j))
                        .add(FloatVector.fromArray(FLOAT, shift, j));
                zero.blend(v, v.compare(VectorOperators.GT, 0f)).intoArray(y, e);
            }
        }
        ScalarNnKernels.batchNormRelu(z, bias, mu, scale, shift, y, from, to, full, cols);
    }

    @Override
    public void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int from, int to, int cols) {
        if (!worthVectorizing(cols)) {
            ScalarNnKernels.batchNormReluSums(y, g, z, bias, mu, sumDy, sumDyXc, from, to, 0, cols);
            return;
        }
        int full = loopBound(cols);
        FloatVector zero = FloatVector.zero(FLOAT);
        for (int i0 = from; i0 < to; i0 += ROW_BLOCK) {
            int i1 = Math.min(to, i0 + ROW_BLOCK);
            for (int j = 0; j < full; j += LANES) {
                FloatVector bj = FloatVector.fromArray(FLOAT, bias, j);
                FloatVector muj = FloatVector.fromArray(FLOAT, mu, j);
                DoubleVector dyLo = DoubleVector.fromArray(DOUBLE, sumDy, j);
                DoubleVector dyHi = DoubleVector.fromArray(DOUBLE, sumDy, j + HALF);
                DoubleVector xcLo = DoubleVector.fromArray(DOUBLE, sumDyXc, j);
                DoubleVector xcHi = DoubleVector.fromArray(DOUBLE, sumDyXc, j + HALF);
                for (int e = i0 * cols + j, end = i1 * cols + j; e < end; e += cols) {
                    FloatVector dy = reluGradient(g, y, e, zero);
                    FloatVector xc = centred(z, e, bj, muj);
                    DoubleVector dLo = widen(dy, 0);
                    DoubleVector dHi = widen(dy, 1);
                    dyLo = dyLo.add(dLo);
                    dyHi = dyHi.add(dHi);
                    xcLo = xcLo.add(dLo.mul(widen(xc, 0)));
                    xcHi = xcHi.add(dHi.mul(widen(xc, 1)));
                }
                dyLo.intoArray(sumDy, j);
                dyHi.intoArray(sumDy, j + HALF);
                xcLo.intoArray(sumDyXc, j);
                xcHi.intoArray(sumDyXc, j + HALF);
            }
            ScalarNnKernels.batchNormReluSums(y, g, z, bias, mu, sumDy, sumDyXc, i0, i1, full, cols);
        }
    }

    @Override
    public void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k,
            float[] b, float[] c, float[] dz, double[] colSum, int from, int to, int cols) {
        if (!worthVectorizing(cols)) {
            ScalarNnKernels.batchNormReluInputGrad(y, g, z, bias, mu, k, b, c, dz, colSum, from, to, 0, cols);
            return;
        }
        int full = loopBound(cols);
        FloatVector zero = FloatVector.zero(FLOAT);
        for (int i0 = from; i0 < to; i0 += ROW_BLOCK) {
            int i1 = Math.min(to, i0 + ROW_BLOCK);
            for (int j = 0; j < full; j += LANES) {
                FloatVector bj = FloatVector.fromArray(FLOAT, bias, j);
                FloatVector muj = FloatVector.fromArray(FLOAT, mu, j);
                FloatVector kj = FloatVector.fromArray(FLOAT, k, j);
                FloatVector slope = FloatVector.fromArray(FLOAT, b, j);
                FloatVector cj = FloatVector.fromArray(FLOAT, c, j);
                DoubleVector lo = DoubleVector.fromArray(DOUBLE, colSum, j);
                DoubleVector hi = DoubleVector.fromArray(DOUBLE, colSum, j + HALF);
                for (int e = i0 * cols + j, end = i1 * cols + j; e < end; e += cols) {
                    FloatVector dy = reluGradient(g, y, e, zero);
                    FloatVector xc = centred(z, e, bj, muj);
                    FloatVector d = kj.mul(dy).add(slope.mul(xc)).add(cj);
                    d.intoArray(dz, e);
                    lo = lo.add(widen(d, 0));
                    hi = hi.add(widen(d, 1));
                }
                lo.intoArray(colSum, j);
                hi.intoArray(colSum, j + HALF);
            }
            ScalarNnKernels.batchNormReluInputGrad(y, g, z, bias, mu, k, b, c, dz, colSum, i0, i1, full, cols);
        }
    }

    /** The ReLU's backward at e: g where y &gt; 0, else 0. */
    private static FloatVector reluGradient(float[] g, float[] y, int e, FloatVector zero) {
        return zero.blend(FloatVector.fromArray(FLOAT, g, e), FloatVector.fromArray(FLOAT, y, e).compare(VectorOperators.GT, 0f));
    }

    /** (z + b) - mu at e, in that order: the centred pre-activation both backward passes read. */
    private static FloatVector centred(float[] z, int e, FloatVector bias, FloatVector mu) {
        return FloatVector.fromArray(FLOAT, z, e).add(bias).sub(mu);
    }

    /** Half {@code part} (0: lanes 0..HALF-1, 1: the rest) of a float vector, widened exactly to double. */
    private static DoubleVector widen(FloatVector v, int part) {
        return (DoubleVector) v.convertShape(VectorOperators.F2D, DOUBLE, part);
    }

    @Override
    public void adamF32(float[] p, float[] g, float[] m, float[] v, int n, AdamCoefficients c) {
        int j = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector q = FloatVector.fromArray(FLOAT, p, j).mul(c.shrink());
                FloatVector h = FloatVector.fromArray(FLOAT, g, j).add(q.mul(c.l2()));
                FloatVector mj = FloatVector.fromArray(FLOAT, m, j).mul(c.beta1()).add(h.mul(c.oneMinusBeta1()));
                FloatVector vj = FloatVector.fromArray(FLOAT, v, j).mul(c.beta2()).add(h.mul(c.oneMinusBeta2()).mul(h));
                FloatVector step = mj.div(vj.lanewise(VectorOperators.SQRT).div(c.bc2Sqrt()).add(c.eps())).mul(c.stepSize());
                flush(mj, zero).intoArray(m, j);
                flush(vj, zero).intoArray(v, j);
                flush(q.sub(step), zero).intoArray(p, j);
            }
        }
        for (; j < n; j++) {
            ScalarNnKernels.adamStepF32(p, g, m, v, j, c);
        }
    }

    /** x, or 0 where |x| is subnormal (the scalar reference's {@code flushSubnormal}, lane-wise). */
    private static FloatVector flush(FloatVector x, FloatVector zero) {
        return x.blend(zero, x.abs().compare(VectorOperators.LT, Float.MIN_NORMAL));
    }
}
