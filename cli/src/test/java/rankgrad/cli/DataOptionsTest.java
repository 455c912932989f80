package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/** --features, --split-valid and --folds of train and compare, end to end in-process. */
class DataOptionsTest {
    @TempDir
    Path dir;

    private Path data(int queries) throws Exception {
        Path f = dir.resolve("all.txt");
        LetorWriter.write(CubicData.create(6, 1).sample("all", queries, 8, 2), f);
        return f;
    }

    @Test
    void trainOnAFeatureFileWithAHeldOutSplitThenEvalPredictAndExportFullWidthData() throws Exception {
        Path all = data(20);
        Path features = dir.resolve("features.txt");
        Files.writeString(features, "# RankLib style\n2\n4\n5\n");
        Path out = dir.resolve("run");
        CliTest.Run t = CliTest.run("train", "--train", all.toString(), "--split-valid", "0.25", "--features",
                features.toString(), "--model", "linear", "--epochs", "2", "--threads", "1", "--out", out.toString());
        assertEquals(0, t.code(), t.err());
        assertTrue(t.out().contains("held out 5 of 20 training queries"), t.out());
        RankingModel m = ModelFile.read(out.resolve("model.json"));
        assertEquals(FeatureSubset.parse("2,4-5"), m.inputs());
        assertEquals("validation: 0.25 of the training queries held out, seed 1", m.info().get("data"));
        CliTest.Run e = CliTest.run("eval", "--model", out.resolve("model.json").toString(), "--data", all.toString());
        assertEquals(0, e.code(), e.err());
        Path scores = dir.resolve("scores.tsv");
        CliTest.Run p = CliTest.run("predict", "--model", out.resolve("model.json").toString(), "--data", all.toString(),
                "--out", scores.toString());
        assertEquals(0, p.code(), p.err());
        Dataset full = LetorReader.read(all);
        float[] expected = m.scorer().score(full);
        float[] written = Files.readAllLines(scores).stream().skip(1).map(l -> Float.parseFloat(l.split("\t")[3]))
                .sorted().collect(java.util.stream.Collectors.collectingAndThen(java.util.stream.Collectors.toList(),
                        l -> { float[] f = new float[l.size()]; for (int i = 0; i < f.length; i++) { f[i] = l.get(i); } return f; }));
        java.util.Arrays.sort(expected);
        assertArrayEquals(expected, written, "predict scores full-width rows through the subset (floats written exactly)");
        assertEquals(0, CliTest.run("export", "--model", out.resolve("model.json").toString(), "--format", "onnx", "--out",
                dir.resolve("m.onnx").toString()).code());
    }

    @Test
    void theSameSeedGivesTheSameSplitAndModelAndAnotherSplitIsAnotherRun() throws Exception {
        Path all = data(20);
        String[] base = {"train", "--train", all.toString(), "--split-valid", "0.25", "--features", "1-3", "--model", "linear",
            "--epochs", "2"};
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        assertEquals(0, CliTest.run(concat(base, "--threads", "1", "--out", a.toString())).code());
        assertEquals(0, CliTest.run(concat(base, "--threads", "2", "--out", b.toString())).code());
        assertEquals(Files.readString(a.resolve("model.json")), Files.readString(b.resolve("model.json")));
        CliTest.Run other = CliTest.run("train", "--train", all.toString(), "--split-valid", "0.3", "--features", "1-3",
                "--model", "linear", "--epochs", "2", "--out", a.toString());
        assertEquals(1, other.code(), "a checkpoint of another split is refused");
        assertTrue(other.err().contains("data split"), other.err());
    }

    @Test
    void trainFoldsWritesEachFoldAndASummary() throws Exception {
        Path all = data(12);
        Path out = dir.resolve("cv");
        CliTest.Run t = CliTest.run("train", "--train", all.toString(), "--folds", "3", "--features", "1-4", "--model",
                "linear", "--epochs", "2", "--out", out.toString());
        assertEquals(0, t.code(), t.err());
        for (int k = 1; k <= 3; k++) {
            RankingModel m = ModelFile.read(out.resolve("Fold" + k + "/model.json"));
            assertEquals(FeatureSubset.parse("1-4"), m.inputs());
            assertTrue(m.info().get("data").toString().startsWith("fold " + k + " of 3"), m.info().toString());
        }
        List<String> csv = Files.readAllLines(out.resolve("cv.csv"));
        assertEquals("fold,train_queries,valid_queries,test_queries,best_epoch,test_ndcg@5", csv.get(0));
        assertEquals(3 + 1 + 3, csv.size(), "three folds, mean, std, pooled");
        int tested = 0;
        for (int k = 1; k <= 3; k++) {
            String[] row = csv.get(k).split(",");
            assertEquals(12, Integer.parseInt(row[1]) + Integer.parseInt(row[2]) + Integer.parseInt(row[3]));
            tested += Integer.parseInt(row[3]);
        }
        assertEquals(12, tested, "every query is tested once");
        assertTrue(csv.get(6).startsWith("pooled,,,12,,"), csv.get(6));
        assertTrue(Files.readString(out.resolve("cv.md")).startsWith("3-fold cross-validation"), t.out());
    }

    @Test
    void compareSplitsOneFileIntoFoldsAndKeepsTheSubset() throws Exception {
        Path all = data(12);
        Path out = dir.resolve("cmp");
        CliTest.Run c = CliTest.run("compare", "--losses", "ranknet,listnet", "--data", all.toString(), "--folds", "3",
                "--features", "2-5", "--model", "linear", "--epochs", "2", "--metrics", "ndcg@5", "--out", out.toString());
        assertEquals(0, c.code(), c.err());
        assertTrue(c.out().contains("Test queries of 3 folds (split by query, seed 1) of " + all + " (12 in all"), c.out());
        assertEquals(FeatureSubset.parse("2-5"), ModelFile.read(out.resolve("Fold3/ranknet/model.json")).inputs());
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("--features", new String[] {"train", "--train", "t.txt", "--valid", "v.txt", "--features", "3-1"}),
                Arguments.of("--features", new String[] {"train", "--train", "t.txt", "--valid", "v.txt", "--features", "0,2"}),
                Arguments.of("--features", new String[] {"train", "--train", "t.txt", "--valid", "v.txt", "--features",
                    "no-such-file.txt"}),
                Arguments.of("--split-valid", new String[] {"train", "--train", "t.txt", "--split-valid", "1.5"}),
                Arguments.of("--split-valid", new String[] {"train", "--train", "t.txt", "--split-valid", "half"}),
                Arguments.of("--valid", new String[] {"train", "--train", "t.txt"}),
                Arguments.of("--split-valid", new String[] {"train", "--train", "t.txt", "--valid", "v.txt", "--split-valid",
                    "0.2"}),
                Arguments.of("--folds", new String[] {"train", "--train", "t.txt", "--folds", "2"}),
                Arguments.of("--folds", new String[] {"train", "--train", "t.txt", "--folds", "5", "--valid", "v.txt"}),
                Arguments.of("--folds", new String[] {"train", "--train", "t.txt", "--folds", "5", "--loss", "fdsa"}),
                Arguments.of("--features", new String[] {"compare", "--losses", "ranknet", "--data", "d", "--features", "x,y"}));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("badValues")
    void badValuesExitWithTwoAndOneLineBeforeAnyDataIsRead(String option, String[] args) {
        // t.txt and v.txt do not exist: a message about them would mean the data were read first
        CliTest.Run r = CliTest.run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(option), r.err());
    }

    @Test
    void compareWithOneFileWantsOneFoldCountAndAFeatureBeyondTheDataIsNamed() throws Exception {
        Path all = data(12);
        CliTest.Run r = CliTest.run("compare", "--losses", "ranknet", "--data", all.toString(), "--folds", "1,3");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("the number of folds K"), r.err());
        CliTest.Run wide = CliTest.run("train", "--train", all.toString(), "--split-valid", "0.2", "--features", "1-9",
                "--out", dir.resolve("w").toString());
        assertEquals(2, wide.code(), wide.err());
        assertEquals(1, wide.err().lines().count(), wide.err());
        assertTrue(wide.err().contains("feature 9 is beyond the 6 features"), wide.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
