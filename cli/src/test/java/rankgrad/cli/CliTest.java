package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
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
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
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
    void generateUniformWritesOneGradedFeatureThatRanksIdeally() throws Exception {
        Run g = run("generate", "uniform", "--out", dir.toString(), "--queries", "6,3,3", "--docs", "40");
        assertEquals(0, g.code(), g.err());
        Dataset train = LetorReader.read(dir.resolve("Fold1/train.txt"));
        assertEquals(1, train.features());
        assertTrue(g.out().contains(": 6 queries, 240 documents, 1 feature" + System.lineSeparator()), g.out());
        assertEquals(240, train.documents());
        for (Query q : train.queries()) {
            for (int i = 0; i < q.docs(); i++) {
                for (int j = 0; j < q.docs(); j++) {
                    if (q.feature(i, 0) > q.feature(j, 0)) {
                        assertTrue(q.labels()[i] >= q.labels()[j], "grades follow feature 1 in query " + q.qid());
                    }
                }
            }
        }
        Run bad = run("generate", "uniform", "--out", dir.toString(), "--features", "0");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--features"), bad.err());
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

    static Stream<Arguments> badArguments() {
        return Stream.of(
                Arguments.of("generate", new String[] {"generate", "sphere", "--out", "d"}),
                Arguments.of("train", new String[] {"train", "--train", "t.txt"}),
                Arguments.of("eval", new String[] {"eval", "--model", "m", "--data", "d", "--metrics", "ndcg@x"}),
                Arguments.of("predict", new String[] {"predict", "--model", "m", "--data", "d"}),
                Arguments.of("export", new String[] {"export", "--model", "m", "--format", "pmml", "--out", "o"}),
                Arguments.of("stats", new String[] {"stats"}),
                Arguments.of("compare", new String[] {"compare", "--losses", "ranknet", "--data", "d", "--folds", "3..1"}),
                Arguments.of("repro", new String[] {"repro", "alpha", "--epochs", "none"}),
                Arguments.of("demo", new String[] {"demo", "--queries", "10"}),
                Arguments.of("unknown option", new String[] {"eval", "--no-such-option"}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badArguments")
    void everyCommandAnswersBadArgumentsWithOneLineAndExitTwo(String command, String[] args) {
        Run r = run(args);
        assertEquals(2, r.code(), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("rankgrad "), r.err());
    }

    @Test
    void everyCommandNamesAMissingInputFileAndExitsWithOne() throws Exception {
        Path model = modelFile(new Normalization.None());
        Path data = dataFile();
        Path missing = dir.resolve("absent.txt");
        String[][] runs = {
            {"eval", "--model", missing.toString(), "--data", data.toString()},
            {"eval", "--model", model.toString(), "--data", missing.toString()},
            {"predict", "--model", model.toString(), "--data", missing.toString(), "--out", dir.resolve("s.tsv").toString()},
            {"export", "--model", missing.toString(), "--out", dir.resolve("solr.json").toString()},
        };
        for (String[] args : runs) {
            Run r = run(args);
            assertEquals(1, r.code(), String.join(" ", args));
            assertEquals("rankgrad: no such file: " + missing + System.lineSeparator(), r.err(), String.join(" ", args));
        }
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

    private Path fold() throws Exception {
        assertEquals(0, run("generate", "cubic", "--out", dir.toString(), "--queries", "24,12,12", "--docs", "10", "--features", "6").code());
        return dir.resolve("Fold1");
    }

    @Test
    void trainWritesModelMetricsAndCurvesAndTheModelEvaluates() throws Exception {
        Path f = fold();
        Path out = dir.resolve("run");
        Run r = run("train", "--train", f.resolve("train.txt").toString(), "--valid", f.resolve("vali.txt").toString(), "--test",
                f.resolve("test.txt").toString(), "--loss", "ndcg-type3", "--model", "R4.L", "--epochs", "3", "--batch-queries", "8",
                "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("epoch   3"), r.out());
        assertEquals(4, Files.readAllLines(out.resolve("metrics.csv")).size(), "header + 3 epochs");
        List<String> timings = Files.readAllLines(out.resolve("timings.csv"));
        assertEquals(List.of("epoch,seconds,documents_per_second", "1", "2", "3"),
                timings.stream().map(l -> l.contains(",") && !l.startsWith("epoch") ? l.substring(0, l.indexOf(',')) : l).toList(),
                "header + the 3 epochs this process trained");
        for (String row : timings.subList(1, timings.size())) {
            String[] cells = row.split(",");
            double seconds = Double.parseDouble(cells[1]);
            // 24 queries x 10 documents over the epoch's seconds. Seconds are printed to 1 us, so
            // for any epoch over 0.1 ms (one takes milliseconds) the ratio is within 1%; documents/s
            // is rounded to an integer (0.5).
            assertEquals(240 / seconds, Double.parseDouble(cells[2]), 0.5 + 0.01 * 240 / seconds, row);
        }
        assertTrue(Files.size(out.resolve("curves.png")) > 1000);
        assertEquals(0, run("eval", "--model", out.resolve("model.json").toString(), "--data", f.resolve("test.txt").toString()).code());
        String model = Files.readString(out.resolve("model.json"));
        Run again = run("train", "--train", f.resolve("train.txt").toString(), "--valid", f.resolve("vali.txt").toString(), "--test",
                f.resolve("test.txt").toString(), "--loss", "ndcg-type3", "--model", "R4.L", "--epochs", "3", "--batch-queries", "8",
                "--out", out.toString());
        assertEquals(0, again.code(), again.err());
        assertEquals(model, Files.readString(out.resolve("model.json")), "a finished run resumes to the same model");
        assertEquals(4, Files.readAllLines(out.resolve("metrics.csv")).size(), "the resumed run still lists every epoch");
        Run spsa = run("train", "--train", f.resolve("train.txt").toString(), "--valid", f.resolve("vali.txt").toString(),
                "--loss", "spsa:4", "--model", "linear", "--epochs", "20", "--lr", "0.5", "--out", dir.resolve("spsa").toString());
        assertEquals(0, spsa.code(), spsa.err());
        assertTrue(spsa.out().contains("evaluations      80"), spsa.out());
    }

    @Test
    void trainRejectsUnknownLossModelAndMissingFiles() throws Exception {
        Path f = fold();
        String[] base = {"train", "--train", f.resolve("train.txt").toString(), "--valid", f.resolve("vali.txt").toString()};
        Run loss = run(concat(base, "--loss", "ndcg-type9"));
        assertEquals(2, loss.code());
        assertTrue(loss.err().contains("--loss: unknown loss 'ndcg-type9'"), loss.err());
        assertEquals(2, run(concat(base, "--model", "R7")).code());
        Run missing = run("train", "--train", dir.resolve("nope.txt").toString(), "--valid", f.resolve("vali.txt").toString(),
                "--out", dir.resolve("x").toString());
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("nope.txt"), missing.err());
    }

    @Test
    void demoRunsEndToEndOnSmallData() throws Exception {
        Path out = dir.resolve("demo");
        Run r = run("demo", "--queries", "40,20,20", "--epochs", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String results = Files.readString(out.resolve("results.md"));
        assertTrue(r.out().contains(results), "the report printed is the report written");
        for (String loss : new String[] {"ndcg-type3", "approx-ndcg", "listnet", "listmle", "lambdarank", "ranknet"}) {
            assertTrue(results.lines().filter(line -> line.startsWith("| " + loss + " ")).count() == 2,
                    loss + " has a row in the metric table and in the timing table");
            assertTrue(Files.exists(out.resolve(loss).resolve("model.json")), loss);
        }
        assertTrue(results.lines().anyMatch(line -> line.matches("\\| loss +\\| +ndcg@1 \\|.*map@10 \\|")), results);
        assertTrue(results.contains(" ± ") && results.contains("**"), "intervals and a bold best");
        assertTrue(results.contains(ComparisonTable.legend()) && results.contains("conventions: "), results);
        assertTrue(Files.size(out.resolve("curves.png")) > 1000);
    }

    @Test
    void reproRankAccuracyPrintsBothTablesWithThePapersNumbers() {
        Run r = run("repro", "rank-accuracy");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Table 2") && r.out().contains("Table 3"), r.out());
        assertTrue(r.out().contains("2866.94"), "the paper's sigma = 1 value is printed beside ours");
        assertEquals(2, run("repro", "nothing").code());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
