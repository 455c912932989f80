package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/** --transform, --input-noise, --dropout, --lr-*, --ensemble on train and compare; predict, eval and export of their models. */
class RegularizationOptionsTest {
    @TempDir
    Path dir;

    private Path fold() {
        assertEquals(0, CliTest.run("generate", "cubic", "--out", dir.toString(), "--queries", "24,12,12", "--docs", "10",
                "--features", "6").code());
        return dir.resolve("Fold1");
    }

    private String[] train(Path f, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("train", "--train", f.resolve("train.txt").toString(), "--valid",
                f.resolve("vali.txt").toString(), "--loss", "ranknet", "--model", "B64", "--epochs", "2", "--batch-queries",
                "8"));
        args.addAll(Arrays.asList(more));
        return args.toArray(String[]::new);
    }

    @Test
    void badValuesAreRejectedNamingTheOption() {
        Path f = fold();
        String[][] cases = {
            {"--transform", "log", "--transform: unknown 'log'; choose one of none, signed-log1p"},
            {"--input-noise", "-0.1", "--input-noise must be a finite number >= 0"},
            {"--input-noise", "NaN", "--input-noise must be a finite number >= 0"},
            {"--dropout", "1", "--dropout must be in [0, 1)"},
            {"--lr-warmup", "-1", "--lr-warmup must be >= 0"},
            {"--lr-decay", "linear", "--lr-decay: unknown decay 'linear'"},
            {"--lr-step-size", "0", "--lr-step-size must be >= 1"},
            {"--lr-gamma", "1.5", "--lr-gamma must be in (0, 1]"},
            {"--ensemble", "0", "--ensemble must be >= 1"},
        };
        for (String[] c : cases) {
            for (String command : List.of("train", "compare")) {
                String[] args = command.equals("train") ? train(f, c[0], c[1], "--out", dir.resolve("x").toString())
                        : new String[] {"compare", "--data", f.toString(), "--losses", "ranknet", c[0], c[1], "--out",
                            dir.resolve("y").toString()};
                CliTest.Run r = CliTest.run(args);
                assertEquals(2, r.code(), command + " " + c[0] + " " + c[1] + ": " + r.err());
                assertTrue(r.err().contains(c[2]), command + ": " + r.err());
            }
        }
        CliTest.Run spsa = CliTest.run("train", "--train", f.resolve("train.txt").toString(), "--valid",
                f.resolve("vali.txt").toString(), "--loss", "spsa:2", "--model", "linear", "--dropout", "0.1", "--out",
                dir.resolve("s").toString());
        assertEquals(2, spsa.code());
        assertTrue(spsa.err().contains("spsa:2 is gradient-free"), spsa.err());
    }

    @Test
    void anEnsembleWithEveryOptionTrainsPredictsEvaluatesAndRefusesExport() throws Exception {
        Path f = fold();
        Path out = dir.resolve("run");
        CliTest.Run r = CliTest.run(train(f, "--test", f.resolve("test.txt").toString(), "--transform", "signed-log1p",
                "--normalization", "standardize", "--input-noise", "0.1", "--dropout", "0.1", "--lr-warmup", "3",
                "--lr-decay", "cosine", "--ensemble", "3", "--out", out.toString()));
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("ensemble valid ndcg@5") && r.out().contains("ensemble test ndcg@5"), r.out());
        Ensemble e = ModelFile.readEnsemble(out.resolve("model.json"));
        assertEquals(3, e.members().size());
        for (int k = 1; k <= 3; k++) {
            RankingModel member = ModelFile.read(out.resolve("member-" + k).resolve("model.json"));
            assertEquals(FeatureTransform.SIGNED_LOG1P, member.transform());
            assertEquals(0.1, member.network().spec().dropout());
            assertEquals(Long.toString(k), ((java.util.Map<?, ?>) member.info().get("training")).get("seed"));
        }
        Dataset test = LetorReader.read(f.resolve("test.txt"));
        Path scores = dir.resolve("scores.txt");
        assertEquals(0, CliTest.run("predict", "--model", out.resolve("model.json").toString(), "--data",
                f.resolve("test.txt").toString(), "--out", scores.toString()).code());
        // TSV rows: qid, docid, rank, score (shortest float text, exact), ranked within each query.
        List<String> lines = Files.readAllLines(scores);
        float[] predicted = new float[(int) test.documents()];
        for (int i = 0; i < predicted.length; i++) {
            predicted[i] = Float.parseFloat(lines.get(i + 1).split("\t")[3]);
        }
        float[] expected = e.scorer().score(test);
        Arrays.sort(expected);
        Arrays.sort(predicted);
        assertArrayEquals(expected, predicted, 0f, "predict scores with the members' mean");
        assertEquals(0, CliTest.run("eval", "--model", out.resolve("model.json").toString(), "--data",
                f.resolve("test.txt").toString()).code());
        CliTest.Run export = CliTest.run("export", "--model", out.resolve("model.json").toString(), "--out",
                dir.resolve("m.json").toString());
        assertEquals(1, export.code());
        assertTrue(export.err().contains("to Solr: it is an ensemble of 3 models whose scores are averaged"), export.err());
        CliTest.Run onnx = CliTest.run("export", "--model", out.resolve("model.json").toString(), "--format", "onnx", "--out",
                dir.resolve("m.onnx").toString());
        assertEquals(0, onnx.code(), onnx.err());
        assertTrue(onnx.out().contains("the mean of 3 members"), onnx.out());
        CliTest.Run solr = CliTest.run("export", "--model", out.resolve("member-1/model.json").toString(), "--out",
                dir.resolve("solr.json").toString());
        assertEquals(1, solr.code());
        assertTrue(solr.err().contains("signed-log1p feature transform"), solr.err());
    }

    @Test
    void compareTrainsAnEnsemblePerRow() {
        Path f = fold();
        CliTest.Run r = CliTest.run("compare", "--data", f.toString(), "--losses", "ranknet,listnet", "--model", "B64",
                "--epochs", "1", "--ensemble", "2", "--transform", "signed-log1p", "--out", dir.resolve("cmp").toString());
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(Files.exists(dir.resolve("cmp/ranknet/member-2/model.json")), r.out());
        assertTrue(Files.exists(dir.resolve("cmp/listnet/model.json")), r.out());
    }
}
