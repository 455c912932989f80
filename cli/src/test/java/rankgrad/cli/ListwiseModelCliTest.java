package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/** The README's attn example: train from the command line, predict whole queries, exports refuse with the reason. */
class ListwiseModelCliTest {
    private static final int D = 6;

    @TempDir
    Path dir;

    @Test
    void trainPredictAndExportAnAttentionModel() throws Exception {
        CubicData gen = CubicData.create(D, 3);
        Path train = dir.resolve("train.txt");
        Path valid = dir.resolve("vali.txt");
        LetorWriter.write(gen.sample("train", 40, 12, 1), train);
        LetorWriter.write(gen.sample("valid", 20, 12, 2), valid);
        Path out = dir.resolve("run-attn");
        Run r = run("train", "--train", train.toString(), "--valid", valid.toString(), "--model", "attn.h2.w8", "--loss",
                "ndcg-type3", "--epochs", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("training attn.w8 ("), r.out());
        RankingModel model = ModelFile.read(out.resolve("model.json"));
        assertTrue(model.isListwise());

        Path scores = dir.resolve("scores.txt");
        Run p = run("predict", "--model", out.resolve("model.json").toString(), "--data", valid.toString(), "--out",
                scores.toString());
        assertEquals(0, p.code(), p.err());
        Dataset v = LetorReader.read(valid);
        float[] expected = model.scorer().score(v);
        List<String> lines = Files.readAllLines(scores);
        assertEquals("qid\tdocid\trank\tscore", lines.get(0));
        assertEquals(expected.length, lines.size() - 1);
        float[] got = new float[expected.length];
        for (int i = 0; i < got.length; i++) {
            got[i] = Float.parseFloat(lines.get(i + 1).split("\t")[3]);
        }
        java.util.Arrays.sort(expected);
        java.util.Arrays.sort(got);
        assertArrayEquals(expected, got, "predict scores whole queries as the Scorer does");

        Run onnx = run("export", "--model", out.resolve("model.json").toString(), "--format", "onnx", "--out",
                dir.resolve("m.onnx").toString());
        assertTrue(onnx.code() != 0 && onnx.err().contains("cannot export to ONNX: attn.w8 scores each document against"
                + " the other documents of its query"), onnx.err());
        assertTrue(Files.notExists(dir.resolve("m.onnx")));
    }
}
