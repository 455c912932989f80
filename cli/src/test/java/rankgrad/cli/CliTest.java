package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.data.LetorWriter;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

class CliTest {
    @TempDir
    Path dir;

    /** Exit code, standard output and standard error of one in-process run. */
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void generateWritesThreeFilesAndStatsReadsThem() throws Exception {
        Run g = run("generate", "cubic", "--out", dir.toString(), "--queries", "20,10,10", "--docs", "12", "--features", "6");
        assertEquals(0, g.code(), g.err());
        Path train = dir.resolve("Fold1/train.txt");
        assertTrue(Files.exists(dir.resolve("Fold1/vali.txt")) && Files.exists(dir.resolve("Fold1/test.txt")));
        assertEquals(240, LetorReader.read(train).documents());
        Run s = run("stats", train.toString());
        assertEquals(0, s.code(), s.err());
        assertTrue(s.out().startsWith(train + ": 20 queries, 240 documents, 6 features"), s.out());
    }

    @Test
    void badArgumentsExitWithTwo() {
        Run r = run("generate", "cubic", "--docs", "many", "--out", dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--docs"), r.err());
        assertEquals(2, run("no-such-command").code());
    }

    @Test
    void missingInputFileExitsWithOneAndNamesIt() {
        Run r = run("stats", dir.resolve("missing.txt").toString());
        assertEquals(1, r.code());
        assertEquals("rankgrad: no such file: " + dir.resolve("missing.txt") + System.lineSeparator(), r.err());
    }

    private Path modelFile(Normalization norm) throws Exception {
        RankingModel m = RankingModel.create("linear", 6, norm, 3);
        Path f = dir.resolve("model.json");
        ModelFile.write(m, f);
        return f;
    }

    private Path dataFile() throws Exception {
        Path f = dir.resolve("data.txt");
        LetorWriter.write(CubicData.create(6, 1).sample("d", 8, 10, 2), f);
        return f;
    }

    @Test
    void evalPrintsEveryMetricAndItsConventions() throws Exception {
        Run r = run("eval", "--model", modelFile(new Normalization.QueryZScore()).toString(), "--data", dataFile().toString(),
                "--metrics", "ndcg@1,5,map@10,err@10", "--per-query");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("conventions: "), r.out());
        for (String m : new String[] {"ndcg@1 ", "ndcg@5 ", "map@10 ", "err@10 "}) {
            assertTrue(r.out().contains("\n" + m), m + " in " + r.out());
        }
        assertTrue(r.out().contains("qid\tndcg@1\tndcg@5\tmap@10\terr@10"), r.out());
        assertEquals(2, run("eval", "--model", "m", "--data", "d", "--metrics", "5,ndcg").code(), "a cutoff without a metric");
    }

    @Test
    void predictWritesOneScorePerDocument() throws Exception {
        Path out = dir.resolve("scores.tsv");
        Run r = run("predict", "--model", modelFile(new Normalization.QueryZScore()).toString(), "--data", dataFile().toString(),
                "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertEquals(81, Files.readAllLines(out).size(), "header + 80 documents");
        assertTrue(r.out().startsWith("scored 80 documents of 8 queries"), r.out());
    }

    @Test
    void exportRefusesQueryLevelNormalizationAndWritesSolrOtherwise() throws Exception {
        Path out = dir.resolve("solr.json");
        Run refused = run("export", "--model", modelFile(new Normalization.QueryZScore()).toString(), "--out", out.toString());
        assertEquals(1, refused.code());
        assertTrue(refused.err().contains("Solr cannot serve"), refused.err());
        assertTrue(Files.notExists(out), "nothing is written when the export is refused");
        Run ok = run("export", "--model", modelFile(new Normalization.None()).toString(), "--out", out.toString());
        assertEquals(0, ok.code(), ok.err());
        assertTrue(Files.readString(out).contains("org.apache.solr.ltr.model.NeuralNetworkModel"));
    }
}
