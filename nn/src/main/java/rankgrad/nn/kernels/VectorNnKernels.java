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
 * as the scalar loop does; only the loop over columns is vectorized. Short rows ({@code n <= 2 *
 * LANES}) run the scalar loop, which gives the same bits.
 *
 * <p>Package-private: {@link NnKernelProvider} constructs it reflectively through its own lookup,
 * only when {@code jdk.incubator.vector} is readable; nothing else links against it. Stateless.
 */
final class VectorNnKernels implements NnKernels {
    /** Double lanes per vector: half the float lanes, since both species have one shape. */
    private static final int HALF = LANES / 2;

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
    public void biasedColumnSumsF32(float[] z, int zOff, float[] bias, double[] sum, int n) {
        int j = 0;
        if (worthVectorizing(n)) {
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector v = FloatVector.fromArray(FLOAT, z, zOff + j).add(FloatVector.fromArray(FLOAT, bias, j));
                accumulate(sum, j, widen(v, 0));
                accumulate(sum, j + HALF, widen(v, 1));
            }
        }
        for (; j < n; j++) {
            float v = z[zOff + j] + bias[j];
            sum[j] += v;
        }
    }

    @Override
    public void biasedSquaredDeviationsF32(float[] z, int zOff, float[] bias, double[] mean, double[] q, int n) {
        int j = 0;
        if (worthVectorizing(n)) {
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector v = FloatVector.fromArray(FLOAT, z, zOff + j).add(FloatVector.fromArray(FLOAT, bias, j));
                for (int part = 0; part < 2; part++) {
                    int o = j + part * HALF;
                    DoubleVector d = widen(v, part).sub(DoubleVector.fromArray(DOUBLE, mean, o));
                    accumulate(q, o, d.mul(d));
                }
            }
        }
        for (; j < n; j++) {
            float v = z[zOff + j] + bias[j];
            double d = v - mean[j];
            q[j] += d * d;
        }
    }

    @Override
    public void batchNormReluF32(float[] z, float[] bias, float[] mu, float[] scale, float[] shift, float[] y, int off,
            int n) {
        int j = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector v = FloatVector.fromArray(FLOAT, z, off + j).add(FloatVector.fromArray(FLOAT, bias, j))
                        .sub(FloatVector.fromArray(FLOAT, mu, j)).mul(FloatVector.fromArray(FLOAT, scale, j))
                        .add(FloatVector.fromArray(FLOAT, shift, j));
                zero.blend(v, v.compare(VectorOperators.GT, 0f)).intoArray(y, off + j);
            }
        }
        for (; j < n; j++) {
            float v = ((z[off + j] + bias[j]) - mu[j]) * scale[j] + shift[j];
            y[off + j] = v > 0f ? v : 0f;
        }
    }

    @Override
    public void batchNormReluSumsF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, double[] sumDy,
            double[] sumDyXc, int off, int n) {
        int j = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector dy = zero.blend(FloatVector.fromArray(FLOAT, g, off + j),
                        FloatVector.fromArray(FLOAT, y, off + j).compare(VectorOperators.GT, 0f));
                FloatVector xc = FloatVector.fromArray(FLOAT, z, off + j).add(FloatVector.fromArray(FLOAT, bias, j))
                        .sub(FloatVector.fromArray(FLOAT, mu, j));
                for (int part = 0; part < 2; part++) {
                    int o = j + part * HALF;
                    DoubleVector d = widen(dy, part);
                    accumulate(sumDy, o, d);
                    accumulate(sumDyXc, o, d.mul(widen(xc, part)));
                }
            }
        }
        for (; j < n; j++) {
            float dy = y[off + j] > 0f ? g[off + j] : 0f;
            float xc = (z[off + j] + bias[j]) - mu[j];
            sumDy[j] += dy;
            sumDyXc[j] += dy * (double) xc;
        }
    }

    @Override
    public void batchNormReluInputGradF32(float[] y, float[] g, float[] z, float[] bias, float[] mu, float[] k,
            float[] b, float[] c, float[] dz, double[] colSum, int off, int n) {
        int j = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); j < bound; j += LANES) {
                FloatVector dy = zero.blend(FloatVector.fromArray(FLOAT, g, off + j),
                        FloatVector.fromArray(FLOAT, y, off + j).compare(VectorOperators.GT, 0f));
                FloatVector xc = FloatVector.fromArray(FLOAT, z, off + j).add(FloatVector.fromArray(FLOAT, bias, j))
                        .sub(FloatVector.fromArray(FLOAT, mu, j));
                FloatVector d = FloatVector.fromArray(FLOAT, k, j).mul(dy)
                        .add(FloatVector.fromArray(FLOAT, b, j).mul(xc)).add(FloatVector.fromArray(FLOAT, c, j));
                d.intoArray(dz, off + j);
                accumulate(colSum, j, widen(d, 0));
                accumulate(colSum, j + HALF, widen(d, 1));
            }
        }
        for (; j < n; j++) {
            float dy = y[off + j] > 0f ? g[off + j] : 0f;
            float xc = (z[off + j] + bias[j]) - mu[j];
            float d = k[j] * dy + b[j] * xc + c[j];
            dz[off + j] = d;
            colSum[j] += d;
        }
    }

    /** Half {@code part} (0: lanes 0..HALF-1, 1: the rest) of a float vector, widened exactly to double. */
    private static DoubleVector widen(FloatVector v, int part) {
        return (DoubleVector) v.convertShape(VectorOperators.F2D, DOUBLE, part);
    }

    /** acc[off..off+HALF) += d, one rounding per lane. */
    private static void accumulate(double[] acc, int off, DoubleVector d) {
        DoubleVector.fromArray(DOUBLE, acc, off).add(d).intoArray(acc, off);
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
