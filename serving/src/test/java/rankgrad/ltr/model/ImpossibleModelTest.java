package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;

/**
 * Models no training produces (a negative batch-norm variance, weights whose products overflow)
 * are refused at load, at scoring and at export, instead of scoring every document alike.
 */
class ImpossibleModelTest {
    private static final Dataset DATA = CubicData.create(6, 4).sample("data", 3, 20, 1);

    /** R4.L (batch norm after each hidden linear layer), its running statistics moved off 0 and 1. */
    private static RankingModel model() {
        RankingModel m = RankingModel.create("R4.L", 6, new Normalization.None(), 7);
        Map<String, Tensor> state = copy(m.state());
        state.forEach((name, t) -> {
            for (int i = 0; i < t.size(); i++) {
                if (name.endsWith("running_var")) {
                    t.set(i, 0.5 + 0.01 * i);
                } else if (name.endsWith("running_mean")) {
                    t.set(i, 0.02 * i);
                }
            }
        });
        m.loadState(state);
        m.eval();
        return m;
    }

    private static Map<String, Tensor> copy(Map<String, Tensor> state) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        state.forEach((k, t) -> out.put(k, t.copy()));
        return out;
    }

    /** {@code m} with {@code tensor}'s element 0 set to {@code value}, bypassing the file checks. */
    private static RankingModel with(RankingModel m, String tensor, double value) {
        Map<String, Tensor> state = copy(m.state());
        assertNotNull(state.get(tensor), tensor);
        state.get(tensor).set(0, value);
        m.loadState(state);
        return m;
    }

    @Test
    void aNegativeBatchNormVarianceIsRefusedAtLoadNamingTheTensor() {
        String file = ModelFile.toJson(with(model(), "layers.1.running_var", -1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelFile.fromJson(file));
        assertTrue(e.getMessage().contains("layers.1.running_var") && e.getMessage().contains("below zero"), e.getMessage());
    }

    @Test
    void aNonFiniteHiddenActivationIsRefusedNamingTheLayerEvenWhenReluHidesIt() {
        // sqrt(-1 + eps) is NaN in unit 0 of the first batch norm; the ReLU after it makes that 0, so
        // the scores themselves stay finite (and equal for every document): only the hidden check sees it.
        Scorer scorer = with(model(), "layers.1.running_var", -1).scorer();
        Query q = DATA.queries().get(1);
        NonFiniteScoreException e = assertThrows(NonFiniteScoreException.class, () -> scorer.score(q));
        assertEquals("layers.1 (BatchNorm1d(100, eps=1.0E-5, momentum=0.1))", e.layer());
        assertEquals(q.qid(), e.qid());
        assertEquals(0, e.document());
        assertTrue(Float.isNaN(e.score()));
        NonFiniteScoreException whole = assertThrows(NonFiniteScoreException.class, () -> scorer.score(DATA));
        assertEquals(DATA.queries().get(0).qid(), whole.qid());
    }

    @Test
    void anActivationOtherThanReluIsCheckedToo() {
        // CELU keeps a NaN, but an infinity becomes a finite value (CELU(-inf) = -alpha): checked before it.
        RankingModel celu = RankingModel.create("CE4.L", 6, new Normalization.None(), 7);
        Map<String, Tensor> state = copy(celu.state());
        state.get("layers.0.weight").set(0, 3e38);
        state.get("layers.0.weight").set(100, -3e38);
        celu.loadState(state);
        NonFiniteScoreException e = assertThrows(NonFiniteScoreException.class, () -> celu.scorer().score(DATA));
        assertTrue(e.layer().startsWith("layers.1 (BatchNorm1d"), e.layer());
    }

    @Test
    void hiddenOverflowFromFiniteWeightsIsRefused() {
        Scorer scorer = with(model(), "layers.0.weight", 3e38).scorer();
        NonFiniteScoreException e = assertThrows(NonFiniteScoreException.class, () -> scorer.score(DATA));
        // 3e38 times a feature stays finite in the Linear; the batch norm after it divides by sqrt(0.5): infinite.
        assertTrue(e.layer().startsWith("layers.1 (BatchNorm1d"), e.layer());
    }

    @Test
    void checkedScoresAreTheBitsOfTheNetworkItself() {
        // The scorer now runs the modules one by one to check each output: the same operations as
        // Mlp.forward in evaluation mode, so exactly the same floats.
        RankingModel m = model();
        Scorer scorer = m.scorer();
        Dataset normalized = m.normalize(DATA);
        float[] scores = scorer.score(DATA);
        float[] direct = new float[scores.length];
        int at = 0;
        for (Query q : normalized.queries()) {
            try (NoGrad ignored = NoGrad.enter()) {
                Tensor s = m.forward(Tensor.of(q.x(), q.docs(), q.features())).value();
                for (int i = 0; i < q.docs(); i++) {
                    direct[at++] = (float) s.get(i);
                }
            }
        }
        assertArrayEquals(direct, scores);
    }

    @Test
    void solrExportRefusesFoldedWeightsThatOverflow() {
        RankingModel m = RankingModel.create("R4.L", 6, new Normalization.None(), 7);
        Map<String, Tensor> state = copy(m.state());
        // Linear stores in x out: elements 0 and 100 are inputs 1 and 2 of unit 1. Each is a finite
        // float32, but together they overflow the unit for inputs of magnitude 1.
        state.get("layers.0.weight").set(0, 3e38);
        state.get("layers.0.weight").set(100, 3e38);
        m.loadState(state);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SolrExport.toMap(m, "m", names()));
        assertTrue(e.getMessage().startsWith("cannot export to Solr: folded layer 1: unit 1's absolute weights"),
                e.getMessage());
    }

    @Test
    void solrExportRefusesAStandardDeviationNoDataGives() {
        float[] std = {1, 1.4e-45f, 1, 1, 1, 1};
        RankingModel m = RankingModel.create("R4.L", 6, new Normalization.Standardization(new float[6], std), 7);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SolrExport.toMap(m, "m", names()));
        assertTrue(e.getMessage().contains("input feature 2 has standard deviation 1.4E-45"), e.getMessage());
    }

    @Test
    void foldingANegativeVarianceIsRefused() {
        // The defect's model: ONNX and Solr exports wrote the NaN weights of gamma / sqrt(-1 + eps).
        RankingModel m = with(model(), "layers.1.running_var", -1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SolrExport.toMap(m, "m", names()));
        assertTrue(e.getMessage().startsWith("cannot export to Solr: folded layer 1: the bias of unit 1 is NaN"),
                e.getMessage());
    }

    private static List<String> names() {
        List<String> out = new ArrayList<>();
        for (int f = 1; f <= 6; f++) {
            out.add("f" + f);
        }
        return out;
    }
}
