package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CubicDataTest {

    @Test
    void labelMixIsWebLikeAndSomeQueriesHaveNoRelevantDocument() {
        Dataset d = CubicData.paper(7).sample("train", 600, 50, 1);
        DatasetStats s = DatasetStats.of(d);
        assertEquals(30_000, s.documents());
        assertEquals(50, s.features());
        double zero = s.labelCounts().get(0f) / 30_000.0;
        double top = (s.labelCounts().getOrDefault(3f, 0L) + s.labelCounts().getOrDefault(4f, 0L)) / 30_000.0;
        // Targets 50% and 6%; 30,000 labels in 600 correlated queries leave a few percent of sampling noise.
        assertTrue(zero > 0.42 && zero < 0.58, "grade 0 share " + zero);
        assertTrue(top > 0.03 && top < 0.10, "grade 3-4 share " + top);
        assertTrue(s.queriesWithoutRelevant() > 0 && s.queriesWithoutRelevant() < 60, s.report());
    }

    @Test
    void sameSeedsGiveTheSameDataAndTheTrueScoreRanksIdeally() {
        CubicData gen = CubicData.create(8, 3);
        Dataset a = gen.sample("a", 5, 20, 11);
        Dataset b = CubicData.create(8, 3).sample("a", 5, 20, 11);
        for (int q = 0; q < 5; q++) {
            assertArrayEquals(a.queries().get(q).x(), b.queries().get(q).x());
            assertArrayEquals(a.queries().get(q).labels(), b.queries().get(q).labels());
        }
        // Grades are f(x) + offset cut at thresholds: sorting by f never puts a lower grade first.
        for (Query q : a.queries()) {
            double[] x = new double[8];
            for (int i = 0; i < q.docs(); i++) {
                for (int j = 0; j < q.docs(); j++) {
                    double fi = f(gen, q, i, x);
                    double fj = f(gen, q, j, x);
                    if (fi > fj) {
                        assertTrue(q.labels()[i] >= q.labels()[j]);
                    }
                }
            }
        }
    }

    private static double f(CubicData gen, Query q, int doc, double[] x) {
        for (int k = 0; k < q.features(); k++) {
            x[k] = q.feature(doc, k);
        }
        return gen.value(x);
    }
}
