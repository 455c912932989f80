package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.loss.RankNetLoss;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;

class SolrExportTest {
    private static final CubicData GEN = CubicData.create(6, 2);

    private static List<String> names(int d) {
        List<String> n = new ArrayList<>();
        for (int f = 1; f <= d; f++) {
            n.add("f" + f);
        }
        return n;
    }

    /** Solr's NeuralNetworkModel and StandardNormalizer, written from Solr's documented formulas. */
    @SuppressWarnings("unchecked")
    private static float solrScore(Map<String, Object> model, float[] x) {
        List<Object> features = (List<Object>) model.get("features");
        float[] v = new float[x.length];
        for (int f = 0; f < x.length; f++) {
            Map<String, Object> feat = (Map<String, Object>) features.get(f);
            Map<String, Object> norm = (Map<String, Object>) feat.get("norm");
            if (norm == null) {
                v[f] = x[f];
            } else {
                Map<String, Object> p = (Map<String, Object>) norm.get("params");
                v[f] = (x[f] - Float.parseFloat((String) p.get("avg"))) / Float.parseFloat((String) p.get("std"));
            }
        }
        for (Object lo : (List<Object>) ((Map<String, Object>) model.get("params")).get("layers")) {
            Map<String, Object> layer = (Map<String, Object>) lo;
            List<Object> rows = (List<Object>) layer.get("matrix");
            List<Object> bias = (List<Object>) layer.get("bias");
            float[] out = new float[rows.size()];
            for (int u = 0; u < out.length; u++) {
                List<Object> row = (List<Object>) rows.get(u);
                float z = ((Double) bias.get(u)).floatValue();
                for (int i = 0; i < row.size(); i++) {
                    z += ((Double) row.get(i)).floatValue() * v[i];
                }
                out[u] = switch ((String) layer.get("activation")) {
                    case "relu" -> z < 0 ? 0 : z;
                    case "leakyrelu" -> z < 0 ? 0.01f * z : z;
                    case "tanh" -> (float) Math.tanh(z);
                    case "sigmoid" -> (float) (1 / (1 + Math.exp(-z)));
                    case "identity" -> z;
                    default -> throw new AssertionError(layer.get("activation"));
                };
            }
            v = out;
        }
        return v[0];
    }

    @Test
    @SuppressWarnings("unchecked")
    void exportedReluNetworkScoresLikePredict() throws IOException {
        Dataset train = GEN.sample("train", 40, 15, 1);
        // Feature 3 constant in training: standardization maps it to 0 and the export must too.
        List<Query> qs = new ArrayList<>();
        for (Query q : train.queries()) {
            float[] x = q.x().clone();
            for (int d = 0; d < q.docs(); d++) {
                x[d * 6 + 2] = 7f;
            }
            qs.add(q.withX(x));
        }
        train = new Dataset("train", 6, qs);
        Mlp net = Mlp.create(Mlp.builder(6).hidden(12, 8).activation(Activation.relu()).batchNorm(true)
                .inputBatchNorm(true).seed(3).spec());
        RankingModel model = RankingModel.of("relu-bn", net, Normalization.Standardization.fit(train));
        Trainer.of(TrainingConfig.defaults().withEpochs(3).withBatchQueries(8).withLearningRate(1e-2).withPatience(0))
                .fit(model, RankNetLoss.create(), train, GEN.sample("valid", 10, 15, 2), TrainingListener.none());
        Map<String, Object> solr = (Map<String, Object>) Json.parse(Json.write(SolrExport.toMap(model, "rg", names(6))));
        assertEquals("org.apache.solr.ltr.model.NeuralNetworkModel", solr.get("class"));
        List<Object> layers = (List<Object>) ((Map<String, Object>) solr.get("params")).get("layers");
        assertEquals(3, layers.size(), "input batch norm and hidden batch norms are folded away");
        Dataset test = GEN.sample("test", 20, 15, 3);
        double worst = 0;
        for (Query q : test.queries()) {
            float[] predicted = model.scorer().score(q);
            for (int d = 0; d < q.docs(); d++) {
                float[] x = java.util.Arrays.copyOfRange(q.x(), d * 6, d * 6 + 6);
                float s = solrScore(solr, x);
                worst = Math.max(worst, Math.abs(s - predicted[d]) / (1 + Math.abs(predicted[d])));
            }
        }
        // Folding batch norm reorders float32 operations over layers of <= 12 inputs: a few ulps
        // per layer, far below 1e-5 relative.
        assertTrue(worst < 1e-5, "worst relative difference " + worst);
    }

    @Test
    void queryLevelNormalizationAndCeluAreRefusedWithTheReason() {
        RankingModel zscore = RankingModel.create("R4.L", 6, new Normalization.QueryZScore(), 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SolrExport.toMap(zscore, "m", names(6)));
        assertTrue(e.getMessage().contains("query-level z-score normalization, which Solr cannot serve"), e.getMessage());
        RankingModel celu = RankingModel.create("CE4.L", 6, new Normalization.None(), 1);
        e = assertThrows(IllegalArgumentException.class, () -> SolrExport.toMap(celu, "m", names(6)));
        assertTrue(e.getMessage().contains("no celu activation"), e.getMessage());
    }
}
