package rankgrad.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.Scorer;

/**
 * The fixtures are current: the serving artifact, on this module's Java 17, scores the fixture
 * data as {@code rankgrad predict} did when it wrote them (predict scores each query with the same
 * {@link Scorer}), within float32 rounding ({@link RoundingBound}: the fixture may come from a
 * machine with other vector registers; on the machine that wrote them the scores are the same
 * bits). A numerical change of the library fails here until scripts/solr-fixtures is run again, so
 * the Solr tests never compare against scores the library no longer gives.
 */
class FixturesTest {
    @Test
    void theServingArtifactReproducesPredictsScores() throws IOException {
        List<Query> queries = Fixtures.queries();
        assertEquals(10, queries.size());
        for (String model : List.of("linear", "b64", "ensemble")) {
            Ensemble ensemble = ModelFile.readEnsemble(Fixtures.file(model + ".model.json"));
            Scorer scorer = ensemble.scorer();
            float[] expected = Fixtures.predicted(model);
            int at = 0;
            double largest = 0;
            for (Query q : queries) {
                float[] s = scorer.score(q);
                double[] bounds = RoundingBound.of(ensemble, q);
                for (int d = 0; d < s.length; d++, at++) {
                    double diff = Math.abs(s[d] - expected[at]);
                    assertTrue(diff <= bounds[d], model + ": query " + q.qid() + ", document " + d + ": " + s[d]
                            + " but predict wrote " + expected[at] + " (bound " + bounds[d] + ")");
                    largest = Math.max(largest, diff);
                }
            }
            assertEquals(expected.length, at, model + ": documents");
            System.out.printf(Locale.ROOT, "%s: the serving artifact vs predict's fixture: largest difference %.3g%n", model,
                    largest);
        }
    }
}
