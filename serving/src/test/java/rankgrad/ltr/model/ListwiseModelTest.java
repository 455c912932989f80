package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.ListwiseContext;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;

/** The attn architecture: names, scoring whole queries, the model file round trip and the exports that refuse it. */
class ListwiseModelTest {
    private static final int FEATURES = 6;
    private static final Dataset DATA = CubicData.create(FEATURES, 3).sample("d", 5, 7, 1);

    /** An attn model whose weights are all moved off their initial values (biases start at 0, layer norm at 1). */
    private static RankingModel perturbed(String architecture) {
        RankingModel m = RankingModel.create(architecture, FEATURES, Normalization.Standardization.fit(DATA), 4);
        SplittableRandom rng = new SplittableRandom(9);
        for (Tensor t : m.state().values()) {
            for (int i = 0; i < t.size(); i++) {
                t.set(i, t.get(i) + rng.nextDouble(-0.2, 0.2));
            }
        }
        m.eval();
        return m;
    }

    @Test
    void namesCarryHeadsWidthAndCombination() {
        assertEquals("attn", Architectures.canonical("attn.h2.w64"));
        assertEquals("attn.h4.w32.res", Architectures.canonical("ATTN.H4.W32.RES"));
        assertEquals("attn.w16", Architectures.canonical("attn.h2.w16"));
        assertEquals("attn.h4", Architectures.canonical("Attn.h4"));
        assertTrue(Architectures.names().contains("attn"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Architectures.canonical("attn.h3.w64"));
        assertTrue(e.getMessage().contains("multiple of the heads"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Architectures.canonical("attn.x4"));
        ListwiseContext.Spec c = Architectures.context("attn.h4.w32.res", 1).orElseThrow();
        assertEquals(List.of(32, 4, ListwiseContext.Combine.RESIDUAL), List.of(c.width(), c.heads(), c.combine()));
        assertTrue(Architectures.context("R4.L", 1).isEmpty());
    }

    @Test
    void modelHoldsTheContextParametersUnderTheirPrefix() {
        RankingModel m = RankingModel.create("attn.w8", FEATURES, new Normalization.None(), 1);
        assertTrue(m.isListwise());
        assertEquals(m.network().parameterCount() + m.context().orElseThrow().parameterCount(), m.parameterCount());
        assertTrue(m.namedParameters().containsKey("context.attention.query.weight"));
        assertTrue(m.namedParameters().containsKey("layers.0.weight"));
        assertEquals(8, m.network().spec().outputWidth());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.forward(DATA.featureMatrix(new int[] {0})));
        assertTrue(e.getMessage().contains("queryOffsets"), e.getMessage());
    }

    @Test
    void scorerScoresEachQueryAsAWholeWhateverElseIsScored() {
        RankingModel m = perturbed("attn.w8");
        Scorer s = m.scorer();
        float[] all = s.score(DATA);
        int at = 0;
        for (Query q : DATA.queries()) {
            float[] alone = s.score(q);
            // bit-identical: one query's loops do not read the other queries
            assertArrayEquals(alone, Arrays.copyOfRange(all, at, at + q.docs()), q.qid());
            at += q.docs();
        }
    }

    @Test
    void modelFileRoundTripGivesIdenticalScoresAndBytes() {
        for (String arch : List.of("attn.w8", "attn.h1.w4.res")) {
            RankingModel m = perturbed(arch);
            String json = ModelFile.toJson(m);
            RankingModel back = ModelFile.fromJson(json);
            assertEquals(m.architecture(), back.architecture());
            assertEquals(m.context().orElseThrow().spec(), back.context().orElseThrow().spec());
            assertArrayEquals(m.scorer().score(DATA), back.scorer().score(DATA), arch);
            assertEquals(json, ModelFile.toJson(back), arch);
        }
    }

    @Test
    void modelFileRefusesAContextThatIsNotTheNamedArchitecture() {
        String json = ModelFile.toJson(perturbed("attn.w8"));
        assertTrue(json.matches("(?s).*\"heads\":\\s*2.*"), "the file names its heads");
        IllegalArgumentException heads = assertThrows(IllegalArgumentException.class,
                () -> ModelFile.fromJson(json.replaceFirst("\"heads\":\\s*2", "\"heads\": 4")));
        assertTrue(heads.getMessage().contains("context.heads"), heads.getMessage());
        IllegalArgumentException combine = assertThrows(IllegalArgumentException.class,
                () -> ModelFile.fromJson(json.replace("LATENT_CROSS", "SOMETHING")));
        assertTrue(combine.getMessage().contains("context.combine"), combine.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ModelFile.fromJson(json.replaceFirst(",\\s*\"context\":\\s*\\{[^}]*\\}", "")));
        assertTrue(missing.getMessage().contains("outputWidth") || missing.getMessage().contains("context"),
                missing.getMessage());
        IllegalArgumentException unknownField = assertThrows(IllegalArgumentException.class,
                () -> ModelFile.fromJson(json.replaceFirst("\"heads\":\\s*2", "\"heads\": 2, \"dropout\": 0.1")));
        assertTrue(unknownField.getMessage().contains("dropout"), unknownField.getMessage());
    }

    @Test
    void solrExportRefusesWithTheReason() {
        List<String> names = new ArrayList<>();
        for (int f = 1; f <= FEATURES; f++) {
            names.add("f" + f);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SolrExport.toMap(perturbed("attn.w8"), "m", names));
        assertTrue(e.getMessage().startsWith("cannot export to Solr") && e.getMessage().contains("other documents of its query"),
                e.getMessage());
        Map<String, Object> plain = SolrExport.toMap(RankingModel.create("R4.L", FEATURES,
                Normalization.Standardization.fit(DATA), 1), "m", names);
        assertFalse(plain.isEmpty());
    }
}
