package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.onnx.OnnxExport;

class ExportCommandTest {
    @TempDir
    Path dir;

    private Path model(String architecture, Normalization norm) throws Exception {
        Path f = dir.resolve(architecture + "-" + norm.kind() + ".json");
        ModelFile.write(RankingModel.create(architecture, 6, norm, 3), f);
        return f;
    }

    @Test
    void onnxWritesTheExportOfTheModelFileEvenWithQueryLevelNormalization() throws Exception {
        Path model = model("R4.L", new Normalization.QueryZScore());
        Path out = dir.resolve("out/model.onnx");
        Run r = run("export", "--model", model.toString(), "--format", "onnx", "--name", "ranker", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals("wrote ONNX model 'ranker' (IR 8, opset 17; 6 features, query-zscore normalization inside the graph;"
                + " feed one query's documents per run) to " + out + System.lineSeparator(), r.out());
        assertArrayEquals(OnnxExport.toBytes(ModelFile.read(model), "ranker"), Files.readAllBytes(out));
        Run none = run("export", "--model", model("B64", new Normalization.None()).toString(), "--format", "ONNX", "--out",
                out.toString());
        assertEquals(0, none.code(), none.err());
        assertTrue(none.out().contains("none normalization inside the graph) to "), none.out());
        assertArrayEquals(OnnxExport.toBytes(ModelFile.read(dir.resolve("B64-none.json")), "rankgrad"), Files.readAllBytes(out),
                "the default name, and the file replaced whole");
    }

    @Test
    void featureNamesAreForSolrOnlyAndAMissingModelIsNamed() throws Exception {
        Path names = dir.resolve("names.txt");
        Files.writeString(names, "a\nb\n");
        Run r = run("export", "--model", dir.resolve("absent.json").toString(), "--format", "onnx", "--feature-names",
                names.toString(), "--out", dir.resolve("m.onnx").toString());
        assertEquals(2, r.code());
        assertEquals("rankgrad export: --feature-names applies to --format solr only (an ONNX model takes its features by"
                + " column: LETOR feature j in column j - 1) (see 'rankgrad export --help')" + System.lineSeparator(), r.err());
        Run missing = run("export", "--model", dir.resolve("absent.json").toString(), "--format", "onnx", "--out",
                dir.resolve("m.onnx").toString());
        assertEquals(1, missing.code());
        assertEquals("rankgrad: no such file: " + dir.resolve("absent.json") + System.lineSeparator(), missing.err());
        assertTrue(Files.notExists(dir.resolve("m.onnx")));
    }
}
