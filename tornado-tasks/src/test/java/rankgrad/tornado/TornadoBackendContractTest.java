package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.testkit.PairwiseBackendContract;

/**
 * The backend contract (property-tests' {@link PairwiseBackendContract}: every law, with its stated
 * float tolerance, 4 eps times the row's sum of (m + 16 + 2 |a z|) |pair term|) for the TornadoVM
 * backend on the device TornadoVM picks, selected as users select it: by name through ServiceLoader.
 * One backend for all laws, so its plans are compiled once.
 */
class TornadoBackendContractTest extends PairwiseBackendContract {
    private static final PairwiseBackend TORNADO = PairwiseBackends.byName("tornado");

    @Override
    protected PairwiseBackend backend() {
        return TORNADO;
    }

    @Test
    void theNamedBackendIsTornadoVmsNotTheCpuFallback() {
        assertInstanceOf(TornadoPairwiseBackend.class, TORNADO, "no TornadoVM device: is the JVM launched with tornado-argfile?");
    }

    /** The laws above ran on the device: a silent fallback to the CPU would make them vacuous. */
    @AfterAll
    static void theLawsRanOnTheDevice() {
        TornadoPairwiseBackend device = (TornadoPairwiseBackend) TORNADO;
        assertFalse(device.hasFallenBack(), "TornadoVM failed during the laws (see the log)");
        assertTrue(device.deviceCalls() > 0, "no call reached the device");
    }
}
