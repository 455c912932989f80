package rankgrad.ltr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;

class ModelFileTest {
    @TempDir
    Path dir;

    @Test
    void roundTripKeepsScoresExactlyAndBytesStable() throws IOException {
        Query q = CubicData.create(8, 1).sample("q", 1, 30, 2).queries().get(0);
        for (String arch : Architectures.names()) {
            RankingModel m = RankingModel.create(arch, 8, new Normalization.QueryZScore(), 7);
            m.info().put("loss", "ndcg-type3");
            Path f = dir.resolve(arch + ".json");
            ModelFile.write(m, f);
            RankingModel back = ModelFile.read(f);
            assertEquals(arch, back.architecture());
            assertEquals("ndcg-type3", back.info().get("loss"));
            assertArrayEquals(m.scorer().score(q), back.scorer().score(q), arch);
            assertEquals(Files.readString(f), ModelFile.toJson(back), arch + ": writing what was read gives the same bytes");
        }
    }

    @Test
    void damagedFilesSayWhatIsWrong() throws IOException {
        RankingModel m = RankingModel.create("R4.L", 8, new Normalization.None(), 7);
        String good = ModelFile.toJson(m);
        assertProblem(good.replace("\"version\": 1", "\"version\": 9"), "format version 9 is not supported");
        assertProblem(good.replace("\"format\": \"rankgrad-model\"", "\"format\": \"other\""), "\"format\" is other");
        assertProblem(good.replace("\"layers.0.weight\"", "\"layers.0.weights\""), "tensor \"layers.0.weight\" is missing");
        assertProblem(good.replaceFirst("\"shape\": \\[8, 100\\]", "\"shape\": [100, 8]"), "has shape [100, 8], the architecture needs [8, 100]");
        assertProblem(good.replaceFirst("\"values\": \\[[-0-9.E]+", "\"values\": [1e99"), "is not a finite float32");
        assertProblem(good.substring(0, good.length() / 2), "JSON line");
    }

    private void assertProblem(String text, String expected) throws IOException {
        Path f = dir.resolve("bad.json");
        Files.writeString(f, text);
        IOException e = assertThrows(IOException.class, () -> ModelFile.read(f));
        assertTrue(e.getMessage().startsWith(f + ": not a valid rankgrad model file: "), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
