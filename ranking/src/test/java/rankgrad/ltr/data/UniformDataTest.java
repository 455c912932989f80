package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;

class UniformDataTest {

    @Test
    void gradesFollowTheLabelMixAndTheFirstFeatureRanksIdeally() {
        Dataset d = UniformData.sample("u", 200, 100, 3, 5);
        DatasetStats s = DatasetStats.of(d);
        assertEquals(20_000, s.documents());
        assertEquals(3, s.features());
        double[] expected = {0.50, 0.30, 0.14, 0.045, 0.015};
        for (int g = 0; g < 5; g++) {
            double share = s.labelCounts().getOrDefault((float) g, 0L) / 20_000.0;
            // Independent draws: the binomial standard error is at most sqrt(0.25 / 20000) = 0.0035; allow ~4 of them.
            assertEquals(expected[g], share, 0.015, "grade " + g);
        }
        Metric ndcg = Metric.parse("ndcg@10");
        for (Query q : d.queries()) {
            float[] first = new float[q.docs()];
            for (int i = 0; i < q.docs(); i++) {
                first[i] = q.feature(i, 0);
                assertTrue(first[i] >= 0f && first[i] < 1f);
            }
            if (q.hasRelevant()) {
                assertEquals(1.0, ndcg.value(first, q.labels(), MetricConventions.defaults()), 1e-12, q.qid());
            }
        }
    }

    @Test
    void sameSeedSameDataOtherSeedOtherData() {
        Dataset a = UniformData.sample("a", 4, 30, 2, 9);
        Dataset b = UniformData.sample("b", 4, 30, 2, 9);
        Dataset c = UniformData.sample("c", 4, 30, 2, 10);
        for (int q = 0; q < 4; q++) {
            assertArrayEquals(a.queries().get(q).x(), b.queries().get(q).x());
            assertArrayEquals(a.queries().get(q).labels(), b.queries().get(q).labels());
        }
        assertTrue(!Arrays.equals(a.queries().get(0).x(), c.queries().get(0).x()));
    }

    @Test
    void valuesHave24RandomBitsSoTiesOccurAtTheTorchRandRate() {
        // 1000 values among 2^24: P(some tie) = 1 - prod(1 - i / 2^24) ~ 1 - exp(-1000^2 / 2^25) ~ 2.9%
        // per vector (Yu Table 3's 0.03); over 400 vectors expect ~12 with a tie, Poisson sd ~3.5.
        Dataset d = UniformData.sample("ties", 400, 1000, 1, 3);
        int withTie = 0;
        for (Query q : d.queries()) {
            float[] v = q.x().clone();
            Arrays.sort(v);
            for (int i = 1; i < v.length; i++) {
                if (v[i] == v[i - 1]) {
                    withTie++;
                    break;
                }
            }
        }
        assertTrue(withTie >= 3 && withTie <= 25, "vectors with a tie: " + withTie);
    }

    @Test
    void rejectsEmptyShapes() {
        assertThrows(IllegalArgumentException.class, () -> UniformData.sample("x", 1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> UniformData.sample("x", 1, 5, 0, 1));
    }
}
