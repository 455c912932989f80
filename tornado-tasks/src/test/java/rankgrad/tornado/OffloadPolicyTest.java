package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Which batches go to the device: a function of sizes and device kind only. */
@Tag(DeviceFree.TAG)
class OffloadPolicyTest {
    @AfterEach
    void clearProperty() {
        System.clearProperty(OffloadPolicy.MIN_PAIRS_PROPERTY);
    }

    @Test
    void pairsAreTheSumOfSquaredQuerySizes() {
        assertEquals(0, OffloadPolicy.pairs(new int[] {0}));
        assertEquals(9 + 0 + 1 + 16, OffloadPolicy.pairs(new int[] {0, 3, 3, 4, 8}));
        // 2^17 documents in one query: the square overflows an int.
        assertEquals(1L << 34, OffloadPolicy.pairs(new int[] {0, 1 << 17}));
    }

    @Test
    void tornadoOffloadsEveryBatchToAnyDevice() {
        OffloadPolicy always = OffloadPolicy.always();
        assertEquals("tornado", always.name());
        assertTrue(always.offloads(0, true));
        assertTrue(always.offloads(1, false));
    }

    @Test
    void autoOffloadsLargeBatchesToGpusOnly() {
        OffloadPolicy auto = OffloadPolicy.auto();
        assertEquals("auto", auto.name());
        assertEquals(OffloadPolicy.AUTO_MIN_PAIRS, auto.minPairs());
        assertTrue(auto.offloads(OffloadPolicy.AUTO_MIN_PAIRS, false));
        assertFalse(auto.offloads(OffloadPolicy.AUTO_MIN_PAIRS - 1, false));
        assertFalse(auto.offloads(Long.MAX_VALUE, true), "an OpenCL CPU device loses to the cpu backend");
    }

    @Test
    void theThresholdIsAPropertyAndMustNotBeNegative() {
        System.setProperty(OffloadPolicy.MIN_PAIRS_PROPERTY, "500");
        assertEquals(500, OffloadPolicy.auto().minPairs());
        System.setProperty(OffloadPolicy.MIN_PAIRS_PROPERTY, "-1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, OffloadPolicy::auto);
        assertTrue(e.getMessage().contains(OffloadPolicy.MIN_PAIRS_PROPERTY), e.getMessage());
    }
}
