package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.train.RunFingerprint;
import rankgrad.ltr.train.TrainingConfig;

class FeatureSubsetModelTest {
    private static final Dataset FULL = CubicData.create(6, 1).sample("full", 5, 8, 2);
    private static final FeatureSubset SUBSET = FeatureSubset.parse("2,4-5");

    private static RankingModel subsetModel() {
        return RankingModel.create("R4.L", SUBSET, Normalization.Standardization.fit(SUBSET.apply(FULL)), 3);
    }

    /** The same network and normalization reading pre-selected columns: what the subset model must equal. */
    private static RankingModel narrowTwin(RankingModel m) {
        RankingModel twin = RankingModel.of("R4.L", rankgrad.nn.Mlp.create(m.network().spec()), m.normalization());
        Map<String, Tensor> state = m.network().state();
        twin.network().loadState(state);
        twin.eval();
        return twin;
    }

    @Test
    void theScorerPicksTheSubsetFromFullWidthRows() {
        RankingModel m = subsetModel();
        assertEquals(5, m.features(), "rows need features up to the highest id");
        assertEquals(3, m.network().spec().inputWidth());
        float[] full = m.scorer().score(FULL);
        assertArrayEquals(narrowTwin(m).scorer().score(SUBSET.apply(FULL)), full);
        float[] oneQuery = m.scorer().score(FULL.queries().get(1));
        assertArrayEquals(narrowTwin(m).scorer().score(SUBSET.apply(FULL.queries().get(1))), oneQuery);
        Dataset tooNarrow = FeatureSubset.parse("1-4").apply(FULL);
        assertThrows(IllegalArgumentException.class, () -> m.scorer().score(tooNarrow));
    }

    @Test
    void theModelFileKeepsTheSubsetAndOldFilesReadEveryColumn() {
        RankingModel m = subsetModel();
        String json = ModelFile.toJson(m);
        Map<?, ?> architecture = (Map<?, ?>) ModelFile.toMap(m).get("architecture");
        assertEquals(List.of(2, 4, 5), architecture.get("inputFeatures"));
        RankingModel read = ModelFile.fromJson(json);
        assertEquals(SUBSET, read.inputs());
        assertArrayEquals(m.scorer().score(FULL), read.scorer().score(FULL));
        RankingModel plain = RankingModel.create("R4.L", 6, new Normalization.None(), 3);
        String old = ModelFile.toJson(plain);
        assertFalse(old.contains("inputFeatures"), "a model of every column is written as before");
        assertTrue(ModelFile.fromJson(old).inputs().isAll());
        String listed = json.substring(json.indexOf("\"inputFeatures\""));
        listed = listed.substring(0, listed.indexOf(']') + 1);
        String unsorted = json.replace(listed, "\"inputFeatures\": [4, 2, 5]");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ModelFile.fromJson(unsorted)).getMessage()
                .contains("not ascending"));
        String wrongCount = json.replace(listed, "\"inputFeatures\": [2, 4]");
        assertThrows(IllegalArgumentException.class, () -> ModelFile.fromJson(wrongCount));
    }

    @Test
    void theRunFingerprintNamesTheSubsetAndTheSplit() {
        RankingModel all = RankingModel.create("R4.L", FULL.features(), new Normalization.None(), 3);
        RankingModel sub = RankingModel.create("R4.L", SUBSET, new Normalization.None(), 3);
        RunFingerprint a = RunFingerprint.of(all, RankNetLoss.create(), TrainingConfig.defaults(), FULL, FULL, null);
        RunFingerprint b = RunFingerprint.of(sub, RankNetLoss.create(), TrainingConfig.defaults(), FULL, FULL, null);
        assertEquals("2,4-5", b.entries().get("feature subset"));
        assertTrue(b.differences(a).stream().anyMatch(d -> d.startsWith("feature subset")), b.differences(a).toString());
        sub.info().put("data", "validation: 0.2 of the training queries held out, seed 1");
        RunFingerprint c = RunFingerprint.of(sub, RankNetLoss.create(), TrainingConfig.defaults(), FULL, FULL, null);
        assertEquals(List.of("data split (checkpoint: not recorded; this run: validation: 0.2 of the training queries"
                + " held out, seed 1)"), c.differences(b));
    }

    @Test
    void solrListsOnlyTheSubsetsFeatures() {
        RankingModel m = subsetModel();
        Map<String, Object> solr = SolrExport.toMap(m, "s", List.of("a", "b", "c", "d", "e"));
        assertEquals(List.of("b", "d", "e"), ((List<?>) solr.get("features")).stream()
                .map(f -> ((Map<?, ?>) f).get("name")).toList());
    }
}
