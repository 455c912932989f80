package rankgrad.nn.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AdamKernelTest {
    /** No decay, no momentum: q = p, h = g, m = h, v = h^2, p = q - 0.5 m / (sqrt(v) + 1e-8). */
    private static final AdamCoefficients PLAIN = new AdamCoefficients(1f, 0f, 0f, 1f, 0f, 1f, 0.5f, 1f, 1e-8f);

    @Test
    void oneStepByHandWithSubnormalResultsStoredAsZero() {
        float[] p = {1f, 3f, Float.MIN_NORMAL / 4, 0.25f};
        float[] g = {2f, -4f, 0f, 1e-20f};
        float[] m = new float[4];
        float[] v = new float[4];
        ScalarNnKernels.INSTANCE.adamF32(p, g, m, v, 4, PLAIN);
        // |g| + 1e-8 rounds to |g| in float32 for |g| >= 2: p moves by exactly 0.5 sign(g).
        assertEquals(0.5f, p[0]);
        assertEquals(3.5f, p[1]);
        assertEquals(2f, m[0]);
        assertEquals(16f, v[1]);
        // A subnormal weight without gradient does not move, and is stored as 0.
        assertEquals(0f, p[2]);
        // g = 1e-20: m = 1e-20 is normal and kept; v = 1e-40 is subnormal and stored as 0.
        assertEquals(1e-20f, m[3]);
        assertEquals(0f, v[3]);
    }

    @Test
    void aStepThatLandsInTheSubnormalRangeStoresZero() {
        // m / (sqrt(v) + eps) = 1 / (1 + 1e-8) = 1 in float32, times the step MIN_NORMAL / 2.
        float[] p = {Float.MIN_NORMAL};
        AdamCoefficients c = new AdamCoefficients(1f, 0f, 0f, 1f, 0f, 1f, Float.MIN_NORMAL / 2, 1f, 1e-8f);
        ScalarNnKernels.INSTANCE.adamF32(p, new float[] {1f}, new float[1], new float[1], 1, c);
        assertEquals(0f, p[0]);
    }
}
