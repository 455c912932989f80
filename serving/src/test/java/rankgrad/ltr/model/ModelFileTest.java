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
import rankgrad.nn.Activation;
import rankgrad.nn.Mlp;
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

    @Test
    void anUnknownArchitectureIsRefusedWithTheFileNamed() throws IOException {
        String good = ModelFile.toJson(RankingModel.create("R4.L", 8, new Normalization.None(), 7));
        assertProblem(good.replace("\"name\": \"R4.L\"", "\"name\": \"R9\""), "unknown architecture \"R9\"; this rankgrad"
                + " knows linear, R5, CE5, R4.L, CE4.L, B64, B128, B256, B512, B1024, attn (a network built in code is stored with"
                + " \"custom\": true)");
        assertProblem(good.replace("\"batchNorm\": true", "\"weightNoise\": 0.5,\n    \"batchNorm\": true"),
                "architecture field \"weightNoise\" is unknown to this rankgrad");
        assertProblem(good.replace("\"kind\": \"relu\"", "\"kind\": \"relu\", \"slope\": 0.1"),
                "activation field \"slope\" is unknown for \"relu\"");
        assertProblem(good.replace("\"lastActivated\": false", "\"lastActivated\": true"),
                "the architecture named \"R4.L\" is not R4.L: lastActivated true (R4.L has false)");
        assertProblem(good.replace("\"outputWidth\": 1", "\"outputWidth\": 2"), "\"outputWidth\" is 2; a ranking model scores one");
    }

    @Test
    void aNetworkBuiltInCodeIsStoredAsCustomAndReadBack() throws IOException {
        Query q = CubicData.create(8, 1).sample("q", 1, 20, 2).queries().get(0);
        Mlp net = Mlp.create(Mlp.builder(8).hidden(5).activation(Activation.tanh()).batchNorm(false).seed(3).spec());
        for (String name : new String[] {"my-net", "R4.L"}) {
            RankingModel m = RankingModel.of(name, net, new Normalization.None());
            Path f = dir.resolve(name + ".json");
            ModelFile.write(m, f);
            assertTrue(Files.readString(f).contains("\"custom\": true"), name);
            RankingModel back = ModelFile.read(f);
            assertArrayEquals(m.scorer().score(q), back.scorer().score(q), name);
            assertProblem(Files.readString(f).replace("\"custom\": true,", ""), name.equals("R4.L")
                    ? "the architecture named \"R4.L\" is not R4.L: hiddenWidths [5] (R4.L has [100, 100, 100, 100])"
                    : "unknown architecture \"my-net\"");
        }
        assertTrue(!ModelFile.toJson(RankingModel.create("B64", 8, new Normalization.None(), 1)).contains("custom"),
                "a zoo architecture is stored by name alone");
    }

    @Test
    void aDamagedWidthIsAnErrorNotAnOutOfMemoryError() throws IOException {
        String good = ModelFile.toJson(RankingModel.create("linear", 8, new Normalization.None(), 7));
        assertProblem(good.replace("\"inputWidth\": 8", "\"inputWidth\": 2000000000"),
                "the architecture needs 2000000001 weights, the file holds 9");
    }

    @Test
    void deepNestingIsAnErrorNotAStackOverflow() throws IOException {
        assertProblem("[".repeat(100_000), "nested more than 256 deep");
        assertProblem("{\"a\": ".repeat(100_000), "nested more than 256 deep");
    }

    @Test
    void binaryFilesAndDirectoriesAreNamed() throws IOException {
        Path bin = dir.resolve("model.bin");
        Files.write(bin, new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 0, (byte) 0xff});
        IOException e = assertThrows(IOException.class, () -> ModelFile.read(bin));
        assertEquals(bin + ": not a valid rankgrad model file: not UTF-8 text (binary data?)", e.getMessage());
        e = assertThrows(IOException.class, () -> ModelFile.read(dir));
        assertEquals(dir + ": cannot be read: a directory, not a file", e.getMessage());
    }
}
