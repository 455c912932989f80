package rankgrad.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.testkit.PairwiseBackendContract;

/**
 * The backend contract for a backend found the way users select one: by name, through {@link
 * java.util.ServiceLoader} ({@code META-INF/services/rankgrad.ltr.pairwise.PairwiseBackend} in
 * this module's test resources registers {@link PairsOnceBackend}).
 */
class ServiceLoadedBackendContractProperties extends PairwiseBackendContract {

    @Override
    protected PairwiseBackend backend() {
        return PairwiseBackends.byName("pairs-once");
    }

    @Test
    void theNamedBackendIsTheRegisteredOneNotTheFallback() {
        PairwiseBackend found = PairwiseBackends.byName("PAIRS-ONCE");
        assertInstanceOf(PairsOnceBackend.class, found);
        assertNotSame(PairwiseBackends.cpu(), found);
    }
}
