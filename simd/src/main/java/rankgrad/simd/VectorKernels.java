package rankgrad.simd;

import static rankgrad.simd.internal.VectorSupport.DOUBLE;
import static rankgrad.simd.internal.VectorSupport.FLOAT;
import static rankgrad.simd.internal.VectorSupport.LANES;
import static rankgrad.simd.internal.VectorSupport.loopBound;
import static rankgrad.simd.internal.VectorSupport.worthVectorizing;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import rankgrad.simd.internal.VectorMath;
import rankgrad.simd.internal.VectorSupport;

/**
 * The {@link Kernels} on the Panama Vector API ({@code jdk.incubator.vector}), loaded by
 * {@link KernelProvider} through reflection only when that module is readable; every other class
 * of the engine stays free of incubator types.
 *
 * <p>Each kernel computes the same formula as {@link ScalarKernels} (its test oracle); results differ
 * only by reassociation (reductions sum {@code 4 * LANES} partial sums, axpy and GEMM use fused
 * multiply-add) and by the 1-2 ulp error of {@link VectorMath}'s exp and tanh. Every result is
 * reproducible: it depends on the inputs and their length only, never on the thread count or on
 * whether the JIT has compiled the loop yet (no SVML, lanes summed in a fixed order). Arithmetic
 * kernels run short arrays ({@code n <= 2 * LANES}) in the scalar loop, where vector setup would
 * cost more than it saves; exp, sigmoid and tanh always use the vector formula, with a masked last
 * vector, so that a value's result does not depend on where it sits in the array. GEMM is
 * {@link VectorGemm}; {@link #gemmF64} uses the scalar reference, since float64 only serves
 * gradient checks.
 *
 * <p>Thread-safety: stateless.
 *
 * <p>Package-private: {@link KernelProvider} constructs it reflectively through its own lookup,
 * only when {@code jdk.incubator.vector} is readable; nothing else links against it.
 */
final class VectorKernels implements Kernels {

    /**
     * Creates the kernels for {@code FloatVector.SPECIES_PREFERRED} (or {@code -Drankgrad.vector.bits}).
     *
     * @throws UnsupportedOperationException when a float vector has fewer than 4 lanes, where the
     *     vector code would be slower than the scalar loops
     */
    VectorKernels() {
        VectorSupport.requireEnoughLanes();
    }

    @Override
    public String name() {
        return "vector(" + FLOAT.vectorBitSize() + "-bit)";
    }

    @Override
    public float dotF32(float[] a, int aOff, float[] b, int bOff, int n) {
        int i = 0;
        float s = 0f;
        if (worthVectorizing(n)) {
            FloatVector s0 = FloatVector.zero(FLOAT);
            FloatVector s1 = s0;
            FloatVector s2 = s0;
            FloatVector s3 = s0;
            for (int bound = n - n % (4 * LANES); i < bound; i += 4 * LANES) {
                s0 = FloatVector.fromArray(FLOAT, a, aOff + i).fma(FloatVector.fromArray(FLOAT, b, bOff + i), s0);
                s1 = FloatVector.fromArray(FLOAT, a, aOff + i + LANES)
                        .fma(FloatVector.fromArray(FLOAT, b, bOff + i + LANES), s1);
                s2 = FloatVector.fromArray(FLOAT, a, aOff + i + 2 * LANES)
                        .fma(FloatVector.fromArray(FLOAT, b, bOff + i + 2 * LANES), s2);
                s3 = FloatVector.fromArray(FLOAT, a, aOff + i + 3 * LANES)
                        .fma(FloatVector.fromArray(FLOAT, b, bOff + i + 3 * LANES), s3);
            }
            for (int bound = loopBound(n); i < bound; i += LANES) {
                s0 = FloatVector.fromArray(FLOAT, a, aOff + i).fma(FloatVector.fromArray(FLOAT, b, bOff + i), s0);
            }
            s = VectorSupport.sumLanes(s0.add(s1).add(s2.add(s3)));
        }
        for (; i < n; i++) {
            s += a[aOff + i] * b[bOff + i];
        }
        return s;
    }

    @Override
    public float sumF32(float[] a, int off, int n) {
        int i = 0;
        float s = 0f;
        if (worthVectorizing(n)) {
            FloatVector s0 = FloatVector.zero(FLOAT);
            FloatVector s1 = s0;
            FloatVector s2 = s0;
            FloatVector s3 = s0;
            for (int bound = n - n % (4 * LANES); i < bound; i += 4 * LANES) {
                s0 = s0.add(FloatVector.fromArray(FLOAT, a, off + i));
                s1 = s1.add(FloatVector.fromArray(FLOAT, a, off + i + LANES));
                s2 = s2.add(FloatVector.fromArray(FLOAT, a, off + i + 2 * LANES));
                s3 = s3.add(FloatVector.fromArray(FLOAT, a, off + i + 3 * LANES));
            }
            for (int bound = loopBound(n); i < bound; i += LANES) {
                s0 = s0.add(FloatVector.fromArray(FLOAT, a, off + i));
            }
            s = VectorSupport.sumLanes(s0.add(s1).add(s2.add(s3)));
        }
        for (; i < n; i++) {
            s += a[off + i];
        }
        return s;
    }

    @Override
    public void addF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector.fromArray(FLOAT, a, aOff + i).add(FloatVector.fromArray(FLOAT, b, bOff + i))
                        .intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            out[outOff + i] = a[aOff + i] + b[bOff + i];
        }
    }

    @Override
    public void mulF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector.fromArray(FLOAT, a, aOff + i).mul(FloatVector.fromArray(FLOAT, b, bOff + i))
                        .intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            out[outOff + i] = a[aOff + i] * b[bOff + i];
        }
    }

    @Override
    public void addScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            FloatVector sv = FloatVector.broadcast(FLOAT, s);
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector.fromArray(FLOAT, a, aOff + i).add(sv).intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            out[outOff + i] = a[aOff + i] + s;
        }
    }

    @Override
    public void mulScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            FloatVector sv = FloatVector.broadcast(FLOAT, s);
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector.fromArray(FLOAT, a, aOff + i).mul(sv).intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            out[outOff + i] = a[aOff + i] * s;
        }
    }

    @Override
    public void axpyF32(float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            FloatVector av = FloatVector.broadcast(FLOAT, alpha);
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector.fromArray(FLOAT, x, xOff + i).fma(av, FloatVector.fromArray(FLOAT, y, yOff + i))
                        .intoArray(y, yOff + i);
            }
        }
        for (; i < n; i++) {
            // Fused like the vector lanes, so an element's result does not depend on its position.
            y[yOff + i] = Math.fma(alpha, x[xOff + i], y[yOff + i]);
        }
    }

    @Override
    public void expF32(float[] a, int aOff, float[] out, int outOff, int n) {
        int i = 0;
        for (int bound = loopBound(n); i < bound; i += LANES) {
            VectorMath.exp(FloatVector.fromArray(FLOAT, a, aOff + i)).intoArray(out, outOff + i);
        }
        if (i < n) {
            VectorMask<Float> m = FLOAT.indexInRange(i, n);
            VectorMath.exp(FloatVector.fromArray(FLOAT, a, aOff + i, m)).intoArray(out, outOff + i, m);
        }
    }

    @Override
    public void sigmoidF32(float[] a, int aOff, float[] out, int outOff, int n) {
        int i = 0;
        for (int bound = loopBound(n); i < bound; i += LANES) {
            VectorMath.sigmoid(FloatVector.fromArray(FLOAT, a, aOff + i)).intoArray(out, outOff + i);
        }
        if (i < n) {
            VectorMask<Float> m = FLOAT.indexInRange(i, n);
            VectorMath.sigmoid(FloatVector.fromArray(FLOAT, a, aOff + i, m)).intoArray(out, outOff + i, m);
        }
    }

    @Override
    public void tanhF32(float[] a, int aOff, float[] out, int outOff, int n) {
        int i = 0;
        for (int bound = loopBound(n); i < bound; i += LANES) {
            VectorMath.tanh(FloatVector.fromArray(FLOAT, a, aOff + i)).intoArray(out, outOff + i);
        }
        if (i < n) {
            VectorMask<Float> m = FLOAT.indexInRange(i, n);
            VectorMath.tanh(FloatVector.fromArray(FLOAT, a, aOff + i, m)).intoArray(out, outOff + i, m);
        }
    }

    /** max(x, 0) with the scalar kernel's policy: NaN and -0 give +0 (a blend, not {@code max}). */
    @Override
    public void reluF32(float[] a, int aOff, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector x = FloatVector.fromArray(FLOAT, a, aOff + i);
                zero.blend(x, x.compare(VectorOperators.GT, 0f)).intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            float v = a[aOff + i];
            out[outOff + i] = v > 0f ? v : 0f;
        }
    }

    @Override
    public void reluBackwardF32(float[] a, int aOff, float[] g, int gOff, float[] out, int outOff, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            FloatVector zero = FloatVector.zero(FLOAT);
            for (int bound = loopBound(n); i < bound; i += LANES) {
                FloatVector x = FloatVector.fromArray(FLOAT, a, aOff + i);
                zero.blend(FloatVector.fromArray(FLOAT, g, gOff + i), x.compare(VectorOperators.GT, 0f))
                        .intoArray(out, outOff + i);
            }
        }
        for (; i < n; i++) {
            out[outOff + i] = a[aOff + i] > 0f ? g[gOff + i] : 0f;
        }
    }

    // The batch-norm kernels below keep the scalar oracle's bits: each float32 operation is one
    // lane-wise operation (no FMA), and each float64 accumulator lane sums its own column in row
    // order, exactly as the scalar loop does; only the loop over columns is vectorized.

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

    /** Double lanes per vector: half the float lanes, since both species have one shape. */
    private static final int HALF = LANES / 2;

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
            ScalarKernels.adamStepF32(p, g, m, v, j, c);
        }
    }

    private static FloatVector flush(FloatVector x, FloatVector zero) {
        return x.blend(zero, x.abs().compare(VectorOperators.LT, Float.MIN_NORMAL));
    }

    @Override
    public void gemmF32(boolean transA, boolean transB, int m, int n, int k, float[] a, float[] b, float[] c) {
        VectorGemm.gemm(transA, transB, m, n, k, a, b, c);
    }

    @Override
    public void gemmF64(boolean transA, boolean transB, int m, int n, int k, double[] a, double[] b, double[] c) {
        ScalarKernels.INSTANCE.gemmF64(transA, transB, m, n, k, a, b, c);
    }
}
