package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;

/** The feature transform and the dropout rate in model files, the scorer and the Solr export. */
class ModelFileTransformTest {
    private static final Dataset RAW = CubicData.create(8, 1).sample("d", 6, 20, 2);

    @TempDir
    Path dir;

    private static RankingModel logged() {
        Dataset transformed = FeatureTransform.SIGNED_LOG1P.apply(RAW);
        return RankingModel.create("R4.L", 8, Normalization.byName("standardize", transformed), 5)
                .withTransform(FeatureTransform.SIGNED_LOG1P).withDropout(0.2);
    }

    @Test
    void transformAndDropoutRoundTripAndScoringAppliesTheTransform() throws IOException {
        RankingModel m = logged();
        Path f = dir.resolve("m.json");
        ModelFile.write(m, f);
        String text = Files.readString(f);
        assertTrue(text.contains("\"inputTransform\": \"signed-log1p\"") && text.contains("\"dropout\": 0.2"), text);
        RankingModel back = ModelFile.read(f);
        assertEquals(FeatureTransform.SIGNED_LOG1P, back.transform());
        assertEquals(0.2, back.network().spec().dropout());
        assertEquals(text, ModelFile.toJson(back));
        float[] scores = back.scorer().score(RAW);
        assertArrayEquals(m.scorer().score(RAW), scores, 0f);
        // The scorer must transform: the same network on untransformed, standardized rows differs.
        float[] untransformed = RankingModel.of("R4.L", back.network(), back.normalization()).scorer().score(RAW);
        assertFalse(Arrays.equals(scores, untransformed));
        Dataset prepared = back.normalize(RAW);
        assertArrayEquals(scores, back.scorer().scoreNormalized(prepared), 0f);
    }

    @Test
    void filesWithoutTheNewFieldsReadAsBefore() throws IOException {
        RankingModel plain = RankingModel.create("R4.L", 8, new Normalization.QueryZScore(), 5);
        String text = ModelFile.toJson(plain);
        assertFalse(text.contains("inputTransform") || text.contains("dropout"), "defaults add no field");
        RankingModel back = ModelFile.fromJson(text);
        assertEquals(FeatureTransform.NONE, back.transform());
        assertEquals(0.0, back.network().spec().dropout());
    }

    @Test
    void badValuesAreRefused() {
        String text = ModelFile.toJson(logged());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ModelFile.fromJson(text.replace("\"signed-log1p\"", "\"log2\"")));
        assertTrue(e.getMessage().contains("\"inputTransform\": unknown feature transform 'log2'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ModelFile.fromJson(text.replace("\"dropout\": 0.2",
                "\"dropout\": 1.5")));
        assertTrue(e.getMessage().contains("\"dropout\" is 1.5"), e.getMessage());
    }

    @Test
    void solrRefusesTheTransformWithTheReason() {
        RankingModel m = logged();
        List<String> names = java.util.stream.IntStream.rangeClosed(1, 8).mapToObj(i -> "f" + i).toList();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SolrExport.toMap(m, "m", names));
        assertTrue(e.getMessage().startsWith("cannot export to Solr: the model applies the signed-log1p feature transform"),
                e.getMessage());
        SolrExport.toMap(m.withTransform(FeatureTransform.NONE), "m", names);
    }
}
