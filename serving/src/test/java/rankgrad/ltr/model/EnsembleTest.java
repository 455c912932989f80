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

class EnsembleTest {
    private static final Dataset DATA = CubicData.create(8, 1).sample("d", 12, 25, 2);

    @TempDir
    Path dir;

    private static List<RankingModel> members(int k) {
        return java.util.stream.IntStream.range(0, k).mapToObj(i -> RankingModel.create(i % 2 == 0 ? "R4.L" : "B64", 8,
                new Normalization.QueryZScore(), 10 + i).withTransform(FeatureTransform.SIGNED_LOG1P)).toList();
    }

    /** The definition: each member's float32 score, summed in float64 in member order, divided by K, rounded once. */
    private static float[] meanOfMembers(List<RankingModel> members, Dataset data) {
        double[] sum = new double[Math.toIntExact(data.documents())];
        for (RankingModel m : members) {
            float[] s = m.scorer().score(data);
            for (int i = 0; i < sum.length; i++) {
                sum[i] += s[i];
            }
        }
        float[] out = new float[sum.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (sum[i] / members.size());
        }
        return out;
    }

    @Test
    void theEnsembleScoreIsTheMeanOfTheMembersScoresBitForBit() {
        List<RankingModel> members = members(3);
        float[] got = Ensemble.of(members).scorer().score(DATA);
        assertArrayEquals(meanOfMembers(members, DATA), got, 0f);
        assertFalse(Arrays.equals(members.get(0).scorer().score(DATA), got), "not just the first member");
        assertArrayEquals(members.get(0).scorer().score(DATA), Ensemble.of(members.subList(0, 1)).scorer().score(DATA), 0f,
                "an ensemble of one scores as its member");
    }

    @Test
    void anEnsembleOfListwiseModelsScoresEachMemberWithItsOwnContextBlock() throws IOException {
        List<RankingModel> members = java.util.stream.IntStream.range(0, 2).mapToObj(i -> RankingModel.create("attn", 8,
                new Normalization.QueryZScore(), 20 + i)).toList();
        Ensemble e = Ensemble.of(members);
        assertArrayEquals(meanOfMembers(members, DATA), e.scorer().score(DATA), 0f);
        Path f = dir.resolve("listwise-ensemble.json");
        ModelFile.write(e, f);
        assertArrayEquals(e.scorer().score(DATA), ModelFile.readScorer(f).score(DATA), 0f);
    }

    @Test
    void theFileRoundTripKeepsEveryScoreAndTheBytes() throws IOException {
        Ensemble e = Ensemble.of(members(3));
        e.info().put("loss", "ranknet");
        Path f = dir.resolve("ensemble.json");
        ModelFile.write(e, f);
        Ensemble back = ModelFile.readEnsemble(f);
        assertEquals(3, back.members().size());
        assertEquals("ranknet", back.info().get("loss"));
        assertArrayEquals(e.scorer().score(DATA), back.scorer().score(DATA), 0f);
        assertArrayEquals(e.scorer().score(DATA), ModelFile.readScorer(f).score(DATA), 0f);
        assertEquals(Files.readString(f), rankgrad.ltr.io.Json.write(ModelFile.toMap(back)));
        assertEquals(FeatureTransform.SIGNED_LOG1P, back.members().get(2).transform());
    }

    @Test
    void aSingleModelFileReadsAsAnEnsembleOfOneAndAnEnsembleIsNotASingleModel() throws IOException {
        RankingModel m = members(1).get(0);
        Path single = dir.resolve("single.json");
        ModelFile.write(m, single);
        assertArrayEquals(m.scorer().score(DATA), ModelFile.readScorer(single).score(DATA), 0f);
        assertEquals(1, ModelFile.readEnsemble(single).members().size());
        Path ens = dir.resolve("ensemble.json");
        ModelFile.write(Ensemble.of(members(2)), ens);
        IOException e = assertThrows(IOException.class, () -> ModelFile.read(ens));
        assertTrue(e.getMessage().contains("an ensemble of 2 models, not a single network"), e.getMessage());
    }

    @Test
    void damagedEnsembleFilesNameTheMember() throws IOException {
        Path f = dir.resolve("ensemble.json");
        ModelFile.write(Ensemble.of(members(2)), f);
        String text = Files.readString(f);
        int second = text.indexOf("\"layers.0.weight\"", text.indexOf("\"layers.0.weight\"") + 1);
        Files.writeString(f, text.substring(0, second) + "\"layers.0.weighs\"" + text.substring(second + 17));
        IOException e = assertThrows(IOException.class, () -> ModelFile.readEnsemble(f));
        assertTrue(e.getMessage().contains("ensemble member 2: tensor \"layers.0.weight\" is missing"), e.getMessage());
        Files.writeString(f, text.replace("\"combine\": \"mean\"", "\"combine\": \"max\""));
        e = assertThrows(IOException.class, () -> ModelFile.readEnsemble(f));
        assertTrue(e.getMessage().contains("\"combine\" is max"), e.getMessage());
    }

    @Test
    void membersMustPrepareTheirFeaturesAlike() {
        RankingModel a = RankingModel.create("R4.L", 8, new Normalization.QueryZScore(), 1);
        RankingModel b = RankingModel.create("R4.L", 8, new Normalization.QueryZScore(), 2)
                .withTransform(FeatureTransform.SIGNED_LOG1P);
        RankingModel c = RankingModel.create("R4.L", 8, new Normalization.None(), 3);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Ensemble.of(List.of(a, b))).getMessage()
                .contains("member 2 prepares its features differently from member 1: transform"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Ensemble.of(List.of(a, c))).getMessage()
                .contains("normalization"));
        assertThrows(IllegalArgumentException.class, () -> Ensemble.of(List.of()));
    }
}
