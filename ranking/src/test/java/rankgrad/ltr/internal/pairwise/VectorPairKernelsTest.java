package rankgrad.ltr.internal.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import jdk.incubator.vector.VectorOperators;
import org.junit.jupiter.api.Test;
import rankgrad.simd.internal.VectorSupport;

/**
 * Examples for the vector pair kernels; the differential laws against {@link ScalarPairKernels}
 * are {@code PairKernelProperties} and {@code PairTermKernelProperties} in property-tests.
 */
class VectorPairKernelsTest {
    /**
     * The lanewise operators whose results differ between JIT tiers (SVML when C2-compiled on
     * x86, per-lane {@code Math} calls otherwise).
     */
    private static final List<String> TIER_DEPENDENT = List.of("EXP", "EXPM1", "LOG", "LOG1P", "LOG10", "POW", "TANH",
            "SINH", "COSH", "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "CBRT", "HYPOT");

    @Test
    void pairKernelsAreTheVectorOnesOnTheEnginesSpecies() {
        // One species for the engine and the pair kernels: -Drankgrad.vector.bits narrows both.
        assertEquals("vector(" + VectorSupport.FLOAT.vectorBitSize() + "-bit)", PairKernelProvider.kernels().name());
    }

    /**
     * Results must have the same bits interpreted, in C1 and in C2: every transcendental function
     * of a pair kernel comes from {@code VectorMath} (checked in every tier by autodiff's
     * VectorMathTiersTest), never from a lanewise operator that names one of {@link #TIER_DEPENDENT}
     * in the class file's constant pool.
     */
    @Test
    void pairKernelsUseNoTierDependentOperator() throws IOException {
        assertTrue(namesConstant(VectorOperators.class, "EXP"), "the scan must find EXP where it is declared");
        for (Class<?> kernels : List.of(VectorPairKernels.class, VectorHingeKernels.class, VectorLogisticKernels.class)) {
            for (String op : TIER_DEPENDENT) {
                assertFalse(namesConstant(kernels, op), kernels.getSimpleName() + " uses VectorOperators." + op);
            }
        }
    }

    /** Whether the class file has the modified-UTF-8 constant {@code name} (tag 1, length, bytes). */
    private static boolean namesConstant(Class<?> c, String name) throws IOException {
        byte[] bytes;
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            bytes = in.readAllBytes();
        }
        byte[] utf = name.getBytes(StandardCharsets.UTF_8);
        byte[] entry = new byte[utf.length + 3];
        entry[0] = 1;
        entry[1] = (byte) (utf.length >> 8);
        entry[2] = (byte) utf.length;
        System.arraycopy(utf, 0, entry, 3, utf.length);
        outer:
        for (int i = 0; i + entry.length <= bytes.length; i++) {
            for (int j = 0; j < entry.length; j++) {
                if (bytes[i + j] != entry[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
