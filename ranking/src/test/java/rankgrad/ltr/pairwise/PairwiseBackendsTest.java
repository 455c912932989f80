package rankgrad.ltr.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class PairwiseBackendsTest {

    @Test
    void cpuIsTheDefaultAndTheFallbackForUnknownNames() {
        assertEquals("cpu", PairwiseBackends.selected().name());
        assertSame(PairwiseBackends.cpu(), PairwiseBackends.byName("CPU"));
        assertSame(PairwiseBackends.cpu(), PairwiseBackends.byName("tornado"), "no TornadoVM backend on this class path");
    }
}
