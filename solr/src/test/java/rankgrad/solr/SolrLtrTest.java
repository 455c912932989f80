package rankgrad.solr;

import com.carrotsearch.randomizedtesting.annotations.ThreadLeakFilters;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.io.FileUtils;
import org.apache.lucene.util.QuickPatchThreadsFilter;
import org.apache.solr.SolrIgnoredThreadsFilter;
import org.apache.solr.SolrTestCaseJ4;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.HttpSolrClient;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.util.Utils;
import org.apache.solr.util.RestTestBase;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * rankgrad models served by a real Solr 8.11 (Jetty, one core, Solr's LTR module, as Solr's own
 * LTR tests start it): the fixture's test queries are indexed with their raw features as float
 * fields, the features (Solr {@code FieldValueFeature}s) and models are uploaded through the REST
 * stores, and each query is reranked with {@code rq={!ltr model=...}}; every document's Solr score
 * must be {@code rankgrad predict}'s score of the same feature vector (the fixture's
 * {@code .scores}, which {@link FixturesTest} ties to the current library):
 * <ul>
 *   <li>the files {@code rankgrad export --format solr} wrote (Solr's own NeuralNetworkModel, batch
 *       normalization folded, the standardization as StandardNormalizers): within float32
 *       rounding, {@link RoundingBound};</li>
 *   <li>an ensemble of two B64 networks over signed log1p features, which Solr's models cannot
 *       express, through {@link RankgradModel}: to the bit of rankgrad's scorer in this JVM (the
 *       plugin runs that scorer on the same float32 row, and a document's score does not depend on
 *       the other rows scored with it), which {@link FixturesTest} ties to predict's fixture; and
 *       within float32 rounding of the fixture directly.</li>
 * </ul>
 */
@SolrTestCaseJ4.SuppressSSL
@ThreadLeakFilters(defaultFilters = true, filters = {SolrIgnoredThreadsFilter.class, QuickPatchThreadsFilter.class,
        RankgradThreadsFilter.class}) // Solr's own filters (SolrTestCase's annotation, which this one replaces), and rankgrad's
public class SolrLtrTest extends RestTestBase {
    private static final String FEATURE_STORE = "/schema/feature-store";
    private static final String MODEL_STORE = "/schema/model-store";
    private static List<Query> queries;

    @BeforeClass
    public static void startSolrIndexAndUpload() throws Exception {
        Path home = createTempDir();
        FileUtils.copyDirectory(Path.of(SolrLtrTest.class.getResource("/solr").toURI()).toFile(), home.toFile());
        for (String model : List.of("ensemble", "zscore", "attn")) {
            Files.copy(Fixtures.file(model + ".model.json"), home.resolve("collection1/conf/" + model + ".model.json"));
        }
        System.setProperty("managed.schema.mutable", "true");
        System.setProperty("enable.update.log", "false");
        createJettyAndHarness(home.toString(), "solrconfig.xml", "schema.xml", "/solr", true, new TreeMap<>());

        queries = Fixtures.queries();
        try (SolrClient client = new HttpSolrClient.Builder(jetty.getBaseUrl() + "/" + DEFAULT_TEST_CORENAME).build()) {
            List<SolrInputDocument> docs = new ArrayList<>();
            for (Query q : queries) {
                for (int d = 0; d < q.docs(); d++) {
                    SolrInputDocument doc = new SolrInputDocument("id", q.qid() + "-" + d, "qid", q.qid());
                    for (int f = 0; f < Fixtures.FEATURES; f++) {
                        doc.addField("f" + (f + 1), q.x()[d * Fixtures.FEATURES + f]); // a Float: the same bits
                    }
                    docs.add(doc);
                }
            }
            client.add(docs);
            client.commit();
        }

        List<String> features = new ArrayList<>();
        for (int f = 1; f <= Fixtures.FEATURES; f++) {
            features.add("{\"name\": \"f" + f + "\", \"class\": \"org.apache.solr.ltr.feature.FieldValueFeature\","
                    + " \"params\": {\"field\": \"f" + f + "\"}}");
        }
        assertJPut(FEATURE_STORE, "[" + String.join(",", features) + "]", "/responseHeader/status==0");
        for (String exported : List.of("linear", "b64")) {
            assertJPut(MODEL_STORE, Files.readString(Fixtures.file(exported + ".solr.json")), "/responseHeader/status==0");
        }
        assertJPut(MODEL_STORE, pluginModel("ensemble", "ensemble.model.json", Fixtures.FEATURES, ""),
                "/responseHeader/status==0");
    }

    @AfterClass
    public static void clearProperties() {
        System.clearProperty("managed.schema.mutable");
        System.clearProperty("enable.update.log");
        queries = null;
    }

    /** A {@link RankgradModel} over features f1..f{@code features}, the first with {@code norm} when not empty. */
    private static String pluginModel(String name, String modelFile, int features, String norm) {
        List<String> names = new ArrayList<>();
        for (int f = 1; f <= features; f++) {
            names.add("{\"name\": \"f" + f + "\"" + (f == 1 ? norm : "") + "}");
        }
        return "{\"class\": \"" + RankgradModel.class.getName() + "\", \"name\": \"" + name + "\", \"features\": ["
                + String.join(",", names) + "], \"params\": {\"modelFile\": \"" + modelFile + "\"}}";
    }

    @Test
    public void solrsNeuralNetworkModelOfTheExportScoresAsPredictWithinFloat32Rounding() throws Exception {
        for (String exported : List.of("linear", "b64")) {
            RankingModel model = ModelFile.read(Fixtures.file(exported + ".model.json"));
            float[] expected = Fixtures.predicted(exported);
            double worst = 0;
            int at = 0;
            for (Query q : queries) {
                double[] bounds = RoundingBound.of(model, q);
                Map<String, Float> scores = rerank(exported, q);
                for (int d = 0; d < q.docs(); d++, at++) {
                    float solr = scores.get(q.qid() + "-" + d);
                    double diff = Math.abs(solr - expected[at]);
                    assertTrue(exported + ": query " + q.qid() + ", document " + d + ": Solr " + solr + ", predict "
                            + expected[at] + ", difference " + diff + " > bound " + bounds[d], diff <= bounds[d]);
                    worst = Math.max(worst, diff / bounds[d]);
                }
            }
            assertEquals(exported + ": documents", expected.length, at);
            System.out.printf(Locale.ROOT, "%s: Solr's NeuralNetworkModel vs predict: largest difference %.3f of the bound%n",
                    exported, worst);
        }
    }

    @Test
    public void thePluginServesAnEnsembleOverLog1pFeaturesAsRankgradScoresIt() throws Exception {
        Ensemble ensemble = ModelFile.readEnsemble(Fixtures.file("ensemble.model.json"));
        Scorer scorer = ensemble.scorer();
        float[] predicted = Fixtures.predicted("ensemble");
        double largest = 0;
        int at = 0;
        for (Query q : queries) {
            Map<String, Float> scores = rerank("ensemble", q);
            float[] expected = scorer.score(q);
            double[] bounds = RoundingBound.of(ensemble, q);
            for (int d = 0; d < q.docs(); d++, at++) {
                float solr = scores.get(q.qid() + "-" + d);
                assertEquals("query " + q.qid() + ", document " + d, expected[d], solr, 0f);
                double diff = Math.abs(solr - predicted[at]);
                assertTrue("query " + q.qid() + ", document " + d + ": Solr " + solr + ", predict " + predicted[at],
                        diff <= bounds[d]);
                largest = Math.max(largest, diff);
            }
        }
        assertEquals(predicted.length, at);
        System.out.printf(Locale.ROOT, "ensemble: the plugin in Solr vs predict's fixture: largest difference %.3g%n",
                largest);
    }

    @Test
    public void thePluginExplainsWhichModelScored() throws Exception {
        String response = restTestHarness.query("/query?q=" + enc("qid:" + queries.get(0).qid()) + "&rq="
                + enc("{!ltr model=ensemble reRankDocs=100}") + "&fl=id,score&debugQuery=true");
        assertTrue(response, response.contains("ensemble.model.json: an ensemble of 2 B64, transform signed-log1p,"
                + " normalization standardize"));
    }

    @Test
    public void thePluginRefusesWhatSolrCannotServeWithTheReason() throws Exception {
        Map<String, String> refusals = new HashMap<>();
        refusals.put(pluginModel("zscore", "zscore.model.json", Fixtures.FEATURES, ""),
                "model zscore: zscore.model.json cannot be served by Solr: it uses query-level z-score normalization");
        refusals.put(pluginModel("attn", "attn.model.json", Fixtures.FEATURES, ""),
                "model attn: attn.model.json cannot be served by Solr: attn.h1.w8 scores each document against the other"
                        + " documents of its query");
        refusals.put(pluginModel("narrow", "ensemble.model.json", Fixtures.FEATURES - 1, ""),
                "model narrow: it lists 5 Solr features but ensemble.model.json reads 6 (features [1, 2, 3, 4, 5, 6])");
        refusals.put(pluginModel("normed", "ensemble.model.json", Fixtures.FEATURES,
                ", \"norm\": {\"class\": \"org.apache.solr.ltr.norm.StandardNormalizer\", \"params\": {\"avg\": \"1\", \"std\": \"2\"}}"),
                "model normed: feature f1 has a Solr normalizer, but the rankgrad model file normalizes its raw features itself");
        refusals.put(pluginModel("missing", "missing.model.json", Fixtures.FEATURES, ""),
                "model missing: cannot read missing.model.json from the configuration");
        refusals.put("{\"class\": \"" + RankgradModel.class.getName() + "\", \"name\": \"nofile\", \"features\": [{\"name\": \"f1\"}]}",
                "model nofile: no \\\"modelFile\\\" in params");
        for (Map.Entry<String, String> r : refusals.entrySet()) {
            String response = restTestHarness.put(MODEL_STORE, r.getKey());
            assertTrue(response, response.contains("\"status\":400") || response.contains("\"status\": 400"));
            assertTrue(response, response.contains(r.getValue()));
        }
        // None of them entered the store.
        String models = restTestHarness.query(MODEL_STORE);
        for (String name : List.of("zscore", "attn", "narrow", "normed", "missing", "nofile")) {
            assertFalse(models, models.contains("\"name\":\"" + name + "\""));
        }
    }

    /**
     * Reranks query {@code q}'s documents with {@code model}, checks that Solr's feature values are
     * the fixture's (the same vectors predict scored), and returns the scores by document id.
     */
    private static Map<String, Float> rerank(String model, Query q) throws Exception {
        String response = restTestHarness.query("/query?q=" + enc("qid:" + q.qid()) + "&rows=100&rq="
                + enc("{!ltr model=" + model + " reRankDocs=100}") + "&fl=" + enc("id,score,[features]"));
        @SuppressWarnings("unchecked")
        Map<String, Object> root = (Map<String, Object>) Utils.fromJSONString(response);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> docs = (List<Map<String, Object>>) ((Map<String, Object>) root.get("response")).get("docs");
        assertEquals(response, q.docs(), docs.size());
        Map<String, Float> scores = new HashMap<>();
        for (Map<String, Object> doc : docs) {
            String id = (String) doc.get("id");
            int d = Integer.parseInt(id.substring(id.indexOf('-') + 1));
            StringBuilder logged = new StringBuilder();
            for (int f = 0; f < Fixtures.FEATURES; f++) {
                logged.append(f == 0 ? "" : ",").append("f").append(f + 1).append('=')
                        .append(q.x()[d * Fixtures.FEATURES + f]);
            }
            assertEquals(model + ": " + id + ": the features Solr extracted", logged.toString(), doc.get("[features]"));
            scores.put(id, ((Number) doc.get("score")).floatValue()); // the JSON writer prints the float's shortest decimal
        }
        return scores;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
