package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.arrays;
import static org.quicktheories.generators.SourceDSL.booleans;
import static org.quicktheories.generators.SourceDSL.floats;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;
import rankgrad.simd.Parallel;
import rankgrad.testkit.KernelLaws;
import rankgrad.testkit.KernelLaws.Tolerance;
import rankgrad.simd.internal.VectorSupport;

/**
 * Laws of the Vector API kernels: each equals its scalar oracle within a stated floating-point
 * tolerance, on the sizes where loop bounds and tails go wrong, on unaligned offsets and on boundary
 * values; and GEMM does not depend on the thread count. (nn's kernels have their own laws:
 * {@code rankgrad.nn.kernels.VectorNnKernelProperties}.)
 */
class VectorKernelProperties {
    private static final Kernels VECTOR = new VectorKernels();
    private static final Kernels SCALAR = KernelProvider.scalar();
    private static final int L = VectorSupport.LANES;
    /** Unit roundoff of float32. */
    private static final double U = 0x1p-24;

    /** Where the values of a case come from: finite and bounded, or every float including IEEE specials. */
    private enum Domain {
        /** |x| <= 1e15: no product or sum of 4098 terms can overflow, so reassociation stays finite. */
        BOUNDED,
        /** Adds +-MAX_VALUE, +-infinity and NaN, for kernels that treat every element on its own. */
        ALL
    }

    /** Every kernel of the interface but GEMM (which has its own laws below). */
    private enum Kernel {
        DOT(Domain.BOUNDED), SUM(Domain.BOUNDED), ADD(Domain.ALL), MUL(Domain.ALL), ADD_SCALAR(Domain.ALL),
        MUL_SCALAR(Domain.ALL), AXPY(Domain.BOUNDED), EXP(Domain.ALL), SIGMOID(Domain.ALL), TANH(Domain.ALL),
        RELU(Domain.ALL), RELU_BACKWARD(Domain.ALL), FIRST_NON_FINITE(Domain.ALL);

        final Domain domain;

        Kernel(Domain domain) {
            this.domain = domain;
        }
    }

    /** One generated case: arrays padded by 3 so that every kernel also runs at offsets 0..3. */
    private record Case(Kernel kernel, int n, int offset, float[] a, float[] b, float s) {
        @Override
        public String toString() {
            return kernel + " n=" + n + " offset=" + offset + " s=" + s;
        }
    }

    @Test
    void vectorKernelEqualsScalarKernel() {
        Gen<Integer> sizes = Generate.pick(List.of(0, 1, L - 1, L, L + 1, 13, 207, 4098));
        Gen<Case> cases = Generate.enumValues(Kernel.class).flatMap(kernel -> sizes.flatMap(n -> integers()
                .between(0, 3).flatMap(off -> values(kernel.domain, n + 3).zip(values(kernel.domain, n + 3),
                        values(kernel.domain, 1), (a, b, s) -> new Case(kernel, n, off, a, b, s[0])))));
        // Shrinking arrays of 4098 floats element by element is slow: 200 cycles still reach a small
        // counterexample while keeping a failure report within seconds.
        qt().withExamples(300).withShrinkCycles(200).forAll(cases)
                .checkAssert(VectorKernelProperties::assertVectorMatchesScalar);
    }

    /**
     * exp, sigmoid, tanh and axpy give an element the same bits whether it is computed in a full
     * vector, in the masked or scalar tail, or alone: results depend on values, not on array
     * lengths (a ragged batch of queries must not change a document's score).
     */
    @Test
    void elementwiseResultDependsOnlyOnTheValue() {
        Gen<Kernel> kernels = Generate.pick(List.of(Kernel.EXP, Kernel.SIGMOID, Kernel.TANH, Kernel.AXPY));
        Gen<Integer> sizes = Generate.pick(List.of(1, L - 1, L + 1, 13, 207));
        qt().withExamples(100).forAll(kernels, sizes.flatMap(n -> values(Domain.ALL, n)), values(Domain.ALL, 1))
                .checkAssert((kernel, x, s) -> {
                    int n = x.length;
                    float[] whole = new float[n];
                    float[] alone = new float[n];
                    if (kernel == Kernel.AXPY) {
                        float[] y = x.clone();
                        VECTOR.axpyF32(s[0], x, 0, y, 0, n);
                        whole = y;
                        for (int i = 0; i < n; i++) {
                            float[] yi = {x[i]};
                            VECTOR.axpyF32(s[0], x, i, yi, 0, 1);
                            alone[i] = yi[0];
                        }
                    } else {
                        elementwise(VECTOR, kernel, x, 0, x, 0, 0f, whole, 0, n);
                        for (int i = 0; i < n; i++) {
                            elementwise(VECTOR, kernel, x, i, x, i, 0f, alone, i, 1);
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        assertEquals(Float.floatToIntBits(alone[i]), Float.floatToIntBits(whole[i]),
                                kernel + " of " + x[i] + " at " + i + " of " + n);
                    }
                });
    }

    @Test
    void vectorGemmEqualsScalarGemm() {
        qt().withExamples(80).forAll(shapes(), booleans().all(), booleans().all(), longs().all())
                .checkAssert((shape, ta, tb, seed) -> {
                    int m = shape[0];
                    int n = shape[1];
                    int k = shape[2];
                    SplittableRandom rnd = new SplittableRandom(seed);
                    float[] a = uniform(rnd, m * k);
                    float[] b = uniform(rnd, k * n);
                    float[] expected = new float[m * n];
                    float[] actual = new float[m * n];
                    SCALAR.gemmF32(ta, tb, m, n, k, a, b, expected);
                    VECTOR.gemmF32(ta, tb, m, n, k, a, b, actual);
                    double[] absSum = absProductSums(ta, tb, m, n, k, a, b);
                    // Each result is a sum of k products in some order (blocked, split along k,
                    // fused multiply-adds); both differ from the exact sum by at most
                    // gamma_k * sum |a_ip b_pj| with gamma_k = k u / (1 - k u) (Higham, Thm 3.1).
                    double gamma = gamma(k);
                    KernelLaws.assertVectorEqualsScalar(m + "x" + k + "x" + n + " transA=" + ta + " transB=" + tb, expected,
                            actual, (i, scalar) -> 2 * gamma * absSum[i]);
                });
    }

    @Test
    void gemmIdenticalForOneTwoAndThreeThreads() {
        int threads = Parallel.threads();
        try {
            qt().withExamples(40).forAll(shapes(), booleans().all(), booleans().all(), longs().all())
                    .checkAssert((shape, ta, tb, seed) -> {
                        int m = shape[0];
                        int n = shape[1];
                        int k = shape[2];
                        SplittableRandom rnd = new SplittableRandom(seed);
                        float[] a = uniform(rnd, m * k);
                        float[] b = uniform(rnd, k * n);
                        float[] one = new float[m * n];
                        Parallel.setThreads(1);
                        VECTOR.gemmF32(ta, tb, m, n, k, a, b, one);
                        // Three threads share the power-of-two k chunks unevenly: the sum order must still hold.
                        for (int count = 2; count <= 3; count++) {
                            float[] more = new float[m * n];
                            Parallel.setThreads(count);
                            VECTOR.gemmF32(ta, tb, m, n, k, a, b, more);
                            KernelLaws.assertVectorEqualsScalar(count + " threads vs one, " + m + "x" + k + "x" + n
                                    + " transA=" + ta + " transB=" + tb, one, more, Tolerance.EXACT);
                        }
                    });
        } finally {
            Parallel.setThreads(threads);
        }
    }

    private static void assertVectorMatchesScalar(Case c) {
        int n = c.n();
        int aOff = c.offset();
        int bOff = 3 - c.offset();
        int outOff = (c.offset() + 1) % 4;
        float[] a = c.a();
        float[] b = c.b();
        switch (c.kernel()) {
            case DOT -> {
                double absSum = 0;
                for (int i = 0; i < n; i++) {
                    absSum += Math.abs((double) a[aOff + i] * b[bOff + i]);
                }
                assertReduction(c, SCALAR.dotF32(a, aOff, b, bOff, n), VECTOR.dotF32(a, aOff, b, bOff, n), absSum);
            }
            case SUM -> {
                double absSum = 0;
                for (int i = 0; i < n; i++) {
                    absSum += Math.abs(a[aOff + i]);
                }
                assertReduction(c, SCALAR.sumF32(a, aOff, n), VECTOR.sumF32(a, aOff, n), absSum);
            }
            case FIRST_NON_FINITE -> assertEquals(SCALAR.firstNonFiniteF32(a, aOff, n), VECTOR.firstNonFiniteF32(a, aOff, n),
                    c.toString());
            case AXPY -> {
                float[] ys = b.clone();
                float[] yv = b.clone();
                SCALAR.axpyF32(c.s(), a, aOff, ys, bOff, n);
                VECTOR.axpyF32(c.s(), a, aOff, yv, bOff, n);
                KernelLaws.assertVectorEqualsScalar(c.toString(), ys, yv, (i, scalar) -> {
                    if (i < bOff || i >= bOff + n) {
                        return 0;
                    }
                    // The vector kernel fuses y + s x into one rounding, the scalar one rounds s x
                    // first: they differ by at most that first rounding plus one of each result.
                    // A zero result may differ in sign (a fused multiply-add rounds a tiny negative
                    // product once to -0.0 where multiply-then-add gives -0.0 + y = +0.0): any
                    // positive tolerance below the smallest float compares the values only.
                    double tol = Math.ulp(c.s() * a[aOff + i - bOff]) + Math.ulp((float) scalar);
                    return scalar == 0 ? Double.MIN_VALUE : tol;
                });
            }
            default -> {
                float[] outS = new float[n + 3];
                float[] outV = new float[n + 3];
                elementwise(SCALAR, c.kernel(), a, aOff, b, bOff, c.s(), outS, outOff, n);
                elementwise(VECTOR, c.kernel(), a, aOff, b, bOff, c.s(), outV, outOff, n);
                // Zeros keep their sign exactly (tanh(-0) = -0, relu(-0) = +0): tolerance 0 compares bits.
                KernelLaws.assertVectorEqualsScalar(c.toString(), outS, outV,
                        (i, scalar) -> scalar == 0 ? 0 : ulps(c.kernel()) * Math.ulp((float) scalar));
            }
        }
    }

    /**
     * Allowed error in ulps of the scalar result. Arithmetic and selections are exact IEEE
     * operations in both kernels: 0. VectorMath's exp and tanh were measured within 1 ulp of
     * Math.exp / Math.tanh, and sigmoid (that exp, one add, one divide, all in float) within 3,
     * over 4M inputs spanning every exponent; one more ulp covers inputs that sample missed.
     */
    private static int ulps(Kernel kernel) {
        return switch (kernel) {
            case EXP, TANH -> 2;
            case SIGMOID -> 4;
            default -> 0;
        };
    }

    private static void elementwise(Kernels k, Kernel kernel, float[] a, int aOff, float[] b, int bOff, float s,
            float[] out, int outOff, int n) {
        switch (kernel) {
            case ADD -> k.addF32(a, aOff, b, bOff, out, outOff, n);
            case MUL -> k.mulF32(a, aOff, b, bOff, out, outOff, n);
            case ADD_SCALAR -> k.addScalarF32(a, aOff, s, out, outOff, n);
            case MUL_SCALAR -> k.mulScalarF32(a, aOff, s, out, outOff, n);
            case EXP -> k.expF32(a, aOff, out, outOff, n);
            case SIGMOID -> k.sigmoidF32(a, aOff, out, outOff, n);
            case TANH -> k.tanhF32(a, aOff, out, outOff, n);
            case RELU -> k.reluF32(a, aOff, out, outOff, n);
            case RELU_BACKWARD -> k.reluBackwardF32(a, aOff, b, bOff, out, outOff, n);
            default -> throw new IllegalArgumentException(kernel + " is not elementwise");
        }
    }

    private static void assertReduction(Case c, float scalar, float vector, double absSum) {
        // Both sum n terms in float32 in different orders; each is within gamma_n * sum |terms| of
        // the exact sum (Higham, Accuracy and Stability, Eq. 4.4), gamma_n = n u / (1 - n u), so
        // the bound grows linearly with n (about 1.2e-7 n relative to sum |terms|). Subnormal
        // products lose absolute, not relative, accuracy: one MIN_VALUE per term covers that; the
        // empty sum is +0.0 in both.
        double tol = 2 * gamma(c.n()) * absSum + c.n() * (double) Float.MIN_VALUE;
        KernelLaws.assertVectorEqualsScalar(c.toString(), new float[] {scalar}, new float[] {vector}, (i, s) -> tol);
    }

    private static double gamma(int n) {
        return n * U / (1 - n * U);
    }

    /** Arrays of one domain: mostly ordinary magnitudes, one in five a boundary value. */
    private static Gen<float[]> values(Domain domain, int length) {
        List<Float> boundary = domain == Domain.BOUNDED
                ? List.of(0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL / 3, -Float.MIN_NORMAL / 3,
                        1e15f, -1e15f, 88.7f, -103f)
                : List.of(0f, -0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL / 3, -Float.MIN_NORMAL / 3,
                        1e15f, -1e15f, 88.7f, -103f, Float.MAX_VALUE, -Float.MAX_VALUE, Float.POSITIVE_INFINITY,
                        Float.NEGATIVE_INFINITY, Float.NaN);
        Gen<Float> value = floats().between(-120f, 120f).mix(Generate.pick(boundary), 20);
        return arrays().ofClass(value, Float.class).withLength(length).map(boxed -> {
            float[] x = new float[boxed.length];
            for (int i = 0; i < x.length; i++) {
                x[i] = boxed[i];
            }
            return x;
        });
    }

    /**
     * GEMM shapes (m, n, k): sizes around the 8-row micro-kernel and the vector length, sizes
     * spanning several row blocks and panels, and a long k with a small C, which splits k into
     * chunks. Large k is paired only with small m x n to keep the scalar oracle fast.
     */
    private static Gen<int[]> shapes() {
        Gen<Integer> dim = Generate.pick(List.of(1, 2, 7, 8, 9, L - 1, L, L + 1, 3 * L, 3 * L + 1, 100, 136, 300))
                .mix(integers().between(1, 70), 40);
        Gen<Integer> depth = Generate.pick(List.of(1, 2, 13, 100, 136, 2049, 4500)).mix(integers().between(1, 300), 40);
        return dim.zip(dim, depth, (m, n, k) -> {
            int kk = (long) m * n * k > 3_000_000 ? k % 300 + 1 : k;
            return new int[] {m, n, kk};
        }).describedAs(s -> s[0] + "x" + s[2] + "x" + s[1] + " (m x k x n)");
    }

    private static float[] uniform(SplittableRandom rnd, int size) {
        float[] x = new float[size];
        for (int i = 0; i < size; i++) {
            x[i] = (float) rnd.nextDouble(-1, 1);
        }
        return x;
    }

    /** sum_p |op(A)[i][p] op(B)[p][j]| in float64, the scale of each element's rounding error. */
    private static double[] absProductSums(boolean ta, boolean tb, int m, int n, int k, float[] a, float[] b) {
        double[] absA = new double[a.length];
        double[] absB = new double[b.length];
        for (int i = 0; i < a.length; i++) {
            absA[i] = Math.abs(a[i]);
        }
        for (int i = 0; i < b.length; i++) {
            absB[i] = Math.abs(b[i]);
        }
        double[] c = new double[m * n];
        SCALAR.gemmF64(ta, tb, m, n, k, absA, absB, c);
        return c;
    }
}
