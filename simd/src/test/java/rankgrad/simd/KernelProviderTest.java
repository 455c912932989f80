package rankgrad.simd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Kernel selection in a JVM started with {@code --add-modules jdk.incubator.vector} (the default build). */
class KernelProviderTest {

    @Test
    void picksVectorKernelsWhenTheModuleIsReadable() {
        assertInstanceOf(VectorKernels.class, KernelProvider.kernels());
        try (LogCapture log = new LogCapture()) {
            Kernels k = KernelProvider.choose("auto");
            assertInstanceOf(VectorKernels.class, k);
            assertEquals(List.of("FINE: rankgrad kernels: " + k.name() + " (Panama Vector API)"), log.messages());
        }
    }

    @Test
    void scalarModeForcesTheScalarKernelsAndSaysSo() {
        try (LogCapture log = new LogCapture()) {
            assertSame(KernelProvider.scalar(), KernelProvider.choose("scalar"));
            assertEquals(List.of("FINE: rankgrad kernels: scalar (forced by -Drankgrad.kernels=scalar)"), log.messages());
        }
    }

    @Test
    void unknownModeNamesTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelProvider.choose("simd"));
        assertTrue(e.getMessage().contains("use auto, scalar or vector"), e.getMessage());
    }
}
