package rankgrad.simd;

import static rankgrad.simd.internal.VectorSupport.FLOAT;
import static rankgrad.simd.internal.VectorSupport.LANES;
import static rankgrad.simd.internal.VectorSupport.loopBound;
import static rankgrad.simd.internal.VectorSupport.worthVectorizing;

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

    @Override
    public int firstNonFiniteF32(float[] a, int off, int n) {
        int i = 0;
        if (worthVectorizing(n)) {
            for (int bound = loopBound(n); i < bound; i += LANES) {
                // |x| <= MAX_VALUE is false exactly for NaN and the infinities.
                VectorMask<Float> bad = FloatVector.fromArray(FLOAT, a, off + i).abs()
                        .compare(VectorOperators.LE, Float.MAX_VALUE).not();
                if (bad.anyTrue()) {
                    return i + bad.firstTrue();
                }
            }
        }
        for (; i < n; i++) {
            if (!Float.isFinite(a[off + i])) {
                return i;
            }
        }
        return -1;
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
