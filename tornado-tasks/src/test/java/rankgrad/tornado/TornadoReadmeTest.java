package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.loss.ApproxNdcgLoss;

/** The README's TornadoVM snippet ('GPU offload with TornadoVM'), as written there. */
class TornadoReadmeTest {
    @Test
    void readmeSnippetSelectsTheDeviceBackend() {
        PairwiseBackend gpu = PairwiseBackends.byName("tornado"); // the CPU backend, logged, if no device
        RankingLoss loss = ApproxNdcgLoss.of(ApproxNdcgLoss.DEFAULT_ALPHA).withBackend(gpu);
        assertInstanceOf(TornadoPairwiseBackend.class, gpu);
        assertEquals("approx-ndcg", loss.name());
    }
}
