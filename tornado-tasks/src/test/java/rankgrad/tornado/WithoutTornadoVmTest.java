package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * This module's jar on a class path without TornadoVM (its own surefire execution: no argfile, no
 * TornadoVM jar), as when a user forgets {@code @tornado-argfile}: both backends load through
 * ServiceLoader, report themselves unavailable, and selection falls back to the CPU; a backend used
 * directly still answers, on the CPU. References no TornadoVM type. Enabled only in that execution
 * (by a system property), so that {@code -Dtest=...} cannot run it in a JVM that has TornadoVM.
 */
@Tag(DeviceFree.TAG)
@EnabledIfSystemProperty(named = "rankgrad.test.withoutTornadoVm", matches = "true")
class WithoutTornadoVmTest {
    @BeforeAll
    static void tornadoVmIsReallyAbsent() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("uk.ac.manchester.tornado.api.TaskGraph"));
    }

    @Test
    void selectionFallsBackToTheCpu() {
        assertSame(PairwiseBackends.cpu(), PairwiseBackends.byName("tornado"));
        assertSame(PairwiseBackends.cpu(), PairwiseBackends.byName("auto"));
    }

    @Test
    void aBackendUsedDirectlyComputesOnTheCpu() {
        TornadoPairwiseBackend backend = new TornadoPairwiseBackend();
        assertFalse(backend.isAvailable());
        assertNull(backend.device());
        RaggedBatch b = RaggedBatch.random(3, new int[] {1, 6, 20}, 7);
        float[] got = b.newOutput();
        float[] cpu = new float[b.docs()];
        backend.approxRanksF32(b.scores(), b.offsets(), 10f, got);
        PairwiseBackends.cpu().approxRanksF32(b.scores(), b.offsets(), 10f, cpu);
        assertArrayEquals(cpu, got);
        assertFalse(backend.hasFallenBack(), "an absent runtime is not a failure");
    }
}
