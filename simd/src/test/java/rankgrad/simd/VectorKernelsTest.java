package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Examples for {@link VectorKernels}; the differential laws against {@link ScalarKernels} on
 * random inputs are {@code VectorKernelProperties} in property-tests.
 */
class VectorKernelsTest {
    private final Kernels vector = new VectorKernels();
    private final Kernels scalar = KernelProvider.scalar();

    @Test
    void nameCarriesTheVectorWidthAskedFor() {
        String bits = System.getProperty("rankgrad.vector.bits");
        if (bits == null) {
            assertTrue(vector.name().matches("vector\\((128|256|512)-bit\\)"), vector.name());
        } else {
            // The surefire execution vector-128-bit runs this class again with 4-lane vectors.
            assertEquals("vector(" + bits + "-bit)", vector.name());
        }
    }

    @Test
    void dotAndSumOfSmallIntegersAreExact() {
        // Integer terms with partial sums below 2^24 are exact in float32 in any order, so the
        // vector reduction (4 x lanes partial sums) must equal the sequential one bit for bit.
        int n = 1001;
        float[] a = new float[n + 3];
        float[] b = new float[n + 1];
        long dot = 0;
        long sum = 0;
        for (int i = 0; i < n; i++) {
            a[i + 3] = i % 7 - 3;
            b[i + 1] = i % 5 - 2;
            dot += (long) (i % 7 - 3) * (i % 5 - 2);
            sum += i % 7 - 3;
        }
        assertEquals(dot, vector.dotF32(a, 3, b, 1, n));
        assertEquals(sum, vector.sumF32(a, 3, n));
        assertEquals(0f, vector.dotF32(a, 0, b, 0, 0));
    }

    @Test
    void sigmoidIsStableForLargeMagnitudes() {
        float[] x = new float[64];
        float[] special = {0f, -0f, 100f, -100f, 1e30f, -1e30f, Float.MAX_VALUE, -Float.MAX_VALUE,
            Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 20f, -20f};
        for (int i = 0; i < x.length; i++) {
            x[i] = special[i % special.length];
        }
        float[] y = new float[x.length];
        vector.sigmoidF32(x, 0, y, 0, x.length);
        for (int i = 0; i < x.length; i++) {
            double expected = ScalarKernels.sigmoid(x[i]);
            // 4 ulps: e = exp(-|x|) (1 ulp), then 1 + e and the division round once each; measured
            // at most 3 over 4M inputs. For x = -100 the result is subnormal and the ulp absolute.
            assertEquals(expected, y[i], 4 * Math.ulp((float) expected), "sigmoid(" + x[i] + ")");
        }
        assertTrue(y[3] > 0f, "sigmoid(-100) must keep its tiny positive value, not round to 0");
    }

    @Test
    void reluMapsNaNAndNegativeZeroToPositiveZeroLikeTheScalarKernel() {
        float[] x = new float[40];
        for (int i = 0; i < x.length; i++) {
            x[i] = switch (i % 4) {
                case 0 -> Float.NaN;
                case 1 -> -0f;
                case 2 -> i;
                default -> -i;
            };
        }
        float[] v = new float[x.length];
        float[] s = new float[x.length];
        vector.reluF32(x, 0, v, 0, x.length);
        scalar.reluF32(x, 0, s, 0, x.length);
        assertArrayEquals(s, v, 0f);
        assertEquals(Float.floatToIntBits(0f), Float.floatToIntBits(v[1]), "relu(-0) is +0");
    }

    @Test
    void gemmOfIntegerMatricesIsExactForEveryTranspose() {
        // Entries in -3..3: every sum is an integer below 2^24, exact in any order, so the blocked
        // vector GEMM must equal the scalar one exactly. 37 rows leave a 5-row edge under the
        // 8-row micro-kernel; 53 columns leave a partial vector; k = 5000 and 3000 take the k-split
        // path, 37 x 3000 with a 5-row edge strip in the packed transposed A.
        int[][] shapes = {{37, 53, 29}, {1, 1, 1}, {24, 40, 5000}, {37, 53, 3000}, {300, 100, 136}};
        for (int[] s : shapes) {
            int m = s[0];
            int n = s[1];
            int k = s[2];
            float[] a = integers(m * k, 1);
            float[] b = integers(k * n, 2);
            for (int t = 0; t < 4; t++) {
                boolean ta = (t & 1) != 0;
                boolean tb = (t & 2) != 0;
                float[] expected = new float[m * n];
                float[] actual = new float[m * n];
                scalar.gemmF32(ta, tb, m, n, k, a, b, expected);
                vector.gemmF32(ta, tb, m, n, k, a, b, actual);
                assertArrayEquals(expected, actual, 0f, Arrays.toString(s) + " transA=" + ta + " transB=" + tb);
            }
        }
    }

    @Test
    void gemmWithEmptyInnerDimensionWritesZeros() {
        float[] c = new float[6];
        Arrays.fill(c, 7f);
        vector.gemmF32(false, false, 2, 3, 0, new float[0], new float[0], c);
        assertArrayEquals(new float[6], c, 0f);
    }

    @Test
    void gemmRejectsArraysShorterThanTheShape() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> vector.gemmF32(false, false, 2, 3, 4, new float[8], new float[11], new float[6]));
        assertTrue(e.getMessage().contains("B has 11 (needs 12)"), e.getMessage());
    }

    @Test
    void gemmF64MatchesTheScalarReference() {
        double[] a = {1, 2, 3, 4, 5, 6};
        double[] b = {0.5, -1, 2, 0.25, 3, -2};
        double[] c = new double[4];
        vector.gemmF64(false, false, 2, 2, 3, a, b, c);
        assertArrayEquals(new double[] {1 * 0.5 + 2 * 2 + 3 * 3, -1 + 2 * 0.25 - 3 * 2, 4 * 0.5 + 5 * 2 + 6 * 3,
            -4 + 5 * 0.25 - 6 * 2}, c, 0.0);
    }

    private static float[] integers(int size, int salt) {
        float[] x = new float[size];
        for (int i = 0; i < size; i++) {
            x[i] = (i * 31 + salt * 17) % 7 - 3;
        }
        return x;
    }
}
