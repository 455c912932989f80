package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Runs only in the surefire execution {@code scalar-fallback} of simd/pom.xml, a JVM started
 * without {@code --add-modules jdk.incubator.vector}: the engine must fall back to the scalar
 * kernels, say so in one log line with the flag to add, and compute the same results.
 */
@Tag("scalar-fallback")
class ScalarFallbackTest {
    private static List<String> startupLog;
    private static Kernels chosen;

    @BeforeAll
    static void chooseKernelsOnce() {
        assertFalse(ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                "this test must run in a JVM without --add-modules jdk.incubator.vector");
        try (LogCapture log = new LogCapture()) {
            chosen = KernelProvider.kernels();
            startupLog = log.messages();
        }
    }

    @Test
    void fallsBackToScalarWithOneLineSayingHowToEnableSimd() {
        assertSame(KernelProvider.scalar(), chosen);
        assertEquals(1, startupLog.size(), startupLog::toString);
        assertTrue(startupLog.get(0).startsWith("FINE: rankgrad kernels: scalar ("), startupLog.get(0));
        assertTrue(startupLog.get(0).contains("pass --add-modules jdk.incubator.vector"), startupLog.get(0));
    }

    @Test
    void requiringVectorKernelsFailsWithTheFlagToAdd() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> KernelProvider.choose("vector"));
        assertTrue(e.getMessage().contains("--add-modules jdk.incubator.vector"), e.getMessage());
    }

    @Test
    void matmulAndSigmoidGiveTheSameValuesOnTheFallback() {
        // Small integers: every product and sum is exact in float32, whatever the kernel.
        float[] a = {1, 2, 3, 4, 5, 6};
        float[] b = {7, 8, 9, 10, 11, 12};
        float[] c = new float[4];
        chosen.gemmF32(false, false, 2, 2, 3, a, b, c);
        assertArrayEquals(new float[] {58, 64, 139, 154}, c, 0f);

        float[] x = {0f, (float) Math.log(3), (float) -Math.log(3), 100f, -100f};
        float[] y = new float[x.length];
        chosen.sigmoidF32(x, 0, y, 0, x.length);
        // 1 ulp of 0.75: ln 3 itself is rounded to float before the logistic is applied.
        assertArrayEquals(new float[] {0.5f, 0.75f, 0.25f, 1f, (float) Math.exp(-100)}, y, Math.ulp(0.75f));
        assertTrue(y[4] > 0f, "sigmoid(-100) must not underflow to 0 through 1 - 1/(1 + e^-100)");
    }
}
