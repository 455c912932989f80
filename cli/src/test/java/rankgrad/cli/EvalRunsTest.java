package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * {@code eval} of any ranker's output, end to end in-process: grouped libsvm data (committed
 * {@code .query} and {@code .group} fixtures), runs and TSVs against {@code --model}, several runs
 * in one table, the trec_eval fixtures, and one line with exit 2 for every bad option value.
 */
class EvalRunsTest {
    private static final Path GROUPED = Path.of("src/test/resources/grouped");
    /** The trec_eval 10.0 fixtures of the ltr module (see TrecEvalAgreementTest for how they were made). */
    private static final Path TREC = Path.of("../eval/src/test/resources/trec_eval");

    @TempDir
    Path dir;

    private Path model(int features) throws Exception {
        Path f = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("linear", features, new Normalization.None(), 5), f);
        return f;
    }

    private static List<String> metricLines(String out) {
        return out.lines().filter(l -> l.matches("(ndcg|map|p|mrr|err)\\S* +\\d\\.\\d{4}")).toList();
    }

    @Test
    void queryAndGroupFilesBesideTheDataAreReadAndAMismatchIsRefused() throws Exception {
        for (String name : List.of("lightgbm.train", "xgboost.train")) {
            Run s = run("stats", GROUPED.resolve(name).toString());
            assertEquals(0, s.code(), s.err());
            assertTrue(s.out().startsWith(GROUPED.resolve(name) + ": 3 queries, 9 documents, 3 features"), s.out());
        }
        Path plain = dir.resolve("plain.train");
        Files.copy(GROUPED.resolve("lightgbm.train"), plain);
        Run named = run("stats", plain.toString(), "--groups", GROUPED.resolve("xgboost.train.group").toString());
        assertEquals(0, named.code(), named.err());
        assertTrue(named.out().contains(": 3 queries, 9 documents"), named.out());
        assertEquals(1, run("stats", plain.toString()).code(), "no qid: and no group sizes");
        Path model = model(3);
        for (String[] args : new String[][] {
            {"stats", GROUPED.resolve("mismatch.train").toString()},
            {"eval", "--model", model.toString(), "--data", GROUPED.resolve("mismatch.train").toString()},
            {"predict", "--model", model.toString(), "--data", GROUPED.resolve("mismatch.train").toString(), "--out",
                dir.resolve("p.tsv").toString()},
            {"eval", "--model", model.toString(), "--data", plain.toString(), "--groups",
                GROUPED.resolve("mismatch.train.query").toString()}}) {
            Run r = run(args);
            assertEquals(1, r.code(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            assertTrue(r.err().contains("9 documents, but the group sizes in") && r.err().contains("mismatch.train.query")
                    && r.err().contains("add up to 10 (3 groups)"), r.err());
        }
    }

    @Test
    void runsTsvsAndScoreLinesGiveTheNumbersOfTheModel() throws Exception {
        Path data = GROUPED.resolve("lightgbm.train");
        Path model = model(3);
        String metrics = "ndcg@1,3,map@10,mrr,p@2";
        Run direct = run("eval", "--model", model.toString(), "--data", data.toString(), "--metrics", metrics);
        assertEquals(0, direct.code(), direct.err());
        assertEquals(5, metricLines(direct.out()).size(), direct.out());
        Path tsv = dir.resolve("run.tsv");
        Path trec = dir.resolve("run.trec");
        assertEquals(0, run("predict", "--model", model.toString(), "--data", data.toString(), "--out", tsv.toString()).code());
        assertEquals(0, run("predict", "--model", model.toString(), "--data", data.toString(), "--out", trec.toString(),
                "--format", "trec").code());
        // One score per line in data order, as LightGBM's predict writes: the model's scores.
        Dataset d = LetorReader.read(data);
        List<String> lines = new ArrayList<>();
        for (Query q : d.queries()) {
            for (float s : ModelFile.read(model).scorer().score(q)) {
                lines.add(Float.toString(s));
            }
        }
        Path scores = dir.resolve("predictions.txt");
        Files.write(scores, lines);
        for (String[] input : new String[][] {{"--run", tsv.toString()}, {"--run", trec.toString()}, {"--scores",
            scores.toString()}}) {
            Run r = run("eval", input[0], input[1], "--data", data.toString(), "--metrics", metrics);
            assertEquals(0, r.code(), r.err());
            assertEquals(metricLines(direct.out()), metricLines(r.out()), String.join(" ", input));
            assertTrue(r.out().contains("all 9 judged documents scored, none extra"), r.out());
            assertTrue(r.out().contains("position in the query"), "the naming is stated: " + r.out());
        }
        // With qrels naming the documents by position, the same numbers again.
        Path qrels = dir.resolve("q.qrels");
        List<String> judged = new ArrayList<>();
        for (Query q : d.queries()) {
            for (int i = 0; i < q.docs(); i++) {
                judged.add(q.qid() + " 0 " + i + " " + (int) q.labels()[i]);
            }
        }
        Files.write(qrels, judged);
        Run byQrels = run("eval", "--run", trec.toString(), "--qrels", qrels.toString(), "--metrics", metrics);
        assertEquals(metricLines(direct.out()), metricLines(byQrels.out()), byQrels.out());
    }

    @Test
    void missingAndExtraDocumentsAreReported() throws Exception {
        Path qrels = dir.resolve("q.qrels");
        Files.writeString(qrels, "1 0 a 1\n1 0 b 0\n2 0 c 1\n");
        Path r = dir.resolve("r.tsv");
        Files.writeString(r, "1\ta\t0.5\n1\tz\t0.7\n");
        Run e = run("eval", "--run", r.toString(), "--qrels", qrels.toString(), "--metrics", "mrr");
        assertEquals(0, e.code(), e.err());
        assertTrue(e.out().contains("1 judged documents scored; 1 scored but not judged (graded 0); 2 judged but not scored"
                + " (1 of them relevant; ranked last, less relevant first); 0 queries of the run without judgments (skipped);"
                + " 1 judged queries not in the run"), e.out());
        // Query 1: z (extra, grade 0) above a: RR 1/2. Query 2: c alone, ranked first of its missing documents: RR 1.
        assertTrue(e.out().contains("mrr        0.7500"), e.out());
    }

    @Test
    void severalRunsGiveTheComparisonTableWithTheWilcoxonMarker() throws Exception {
        StringBuilder qrels = new StringBuilder();
        StringBuilder good = new StringBuilder();
        StringBuilder bad = new StringBuilder();
        StringBuilder mixed = new StringBuilder();
        for (int q = 1; q <= 10; q++) {
            qrels.append(q).append(" 0 a 1\n").append(q).append(" 0 b 0\n");
            good.append(q).append(" a 2\n").append(q).append(" b 1\n");
            // Reversed everywhere: 10 of 10 paired differences of one sign, exact two-sided p = 2 / 2^10 < 0.01.
            bad.append(q).append(" a 1\n").append(q).append(" b 2\n");
            // Reversed on two queries only: p = 0.5, not significant although the mean is lower.
            mixed.append(q).append(" a ").append(q <= 2 ? 1 : 2).append('\n').append(q).append(" b ")
                    .append(q <= 2 ? 2 : 1).append('\n');
        }
        Path qr = write("c.qrels", qrels);
        Path g = write("good.tsv", good);
        Path b = write("bad.tsv", bad);
        Path m = write("mixed.tsv", mixed);
        Run r = run("eval", "--qrels", qr.toString(), "--run", g.toString(), "--run", b.toString(), "--run", m.toString(),
                "--metrics", "mrr");
        assertEquals(0, r.code(), r.err());
        String[] rows = r.out().lines().filter(l -> l.startsWith("| ")).toArray(String[]::new);
        assertTrue(rows[0].startsWith("| ranker"), r.out());
        assertTrue(rows[1].startsWith("| " + g) && rows[1].contains("**1.0000 ± 0.0000**"), rows[1]);
        assertTrue(rows[2].startsWith("| " + b) && rows[2].matches(".*0\\.5000 ± 0\\.0000 \\* \\|"), rows[2]);
        assertTrue(rows[3].startsWith("| " + m) && rows[3].contains(String.format(Locale.ROOT, "%.4f", 0.9))
                && !rows[3].contains("*"), rows[3]);
    }

    /**
     * Two models scored in one pass: one score per line in the data's order (what LightGBM's
     * predict writes, read back by eval --scores), and ranked outputs equal to one call per model;
     * --name names the inputs in their command-line order, not in the table's row order.
     */
    @Test
    void predictScoresSeveralModelsInOnePassAndEvalNamesTheRows() throws Exception {
        Path data = GROUPED.resolve("lightgbm.train");
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        ModelFile.write(RankingModel.create("linear", 3, new Normalization.None(), 5), a);
        ModelFile.write(RankingModel.create("linear", 3, new Normalization.None(), 11), b);
        Path sa = dir.resolve("a.scores");
        Path sb = dir.resolve("b.scores");
        Run p = run("predict", "--model", a.toString(), "--model", b.toString(), "--data", data.toString(), "--out",
                sa.toString(), "--out", sb.toString(), "--format", "scores");
        assertEquals(0, p.code(), p.err());
        assertTrue(p.out().contains("with " + b + " into " + sb), p.out());
        Dataset d = LetorReader.read(data);
        for (Path[] pair : new Path[][] {{a, sa}, {b, sb}}) {
            List<String> expected = new ArrayList<>();
            for (Query q : d.queries()) {
                for (float v : ModelFile.read(pair[0]).scorer().score(q)) {
                    expected.add(Float.toString(v));
                }
            }
            assertEquals(expected, Files.readAllLines(pair[1]), "one score per document in the data's order: " + pair[0]);
        }
        Path ta = dir.resolve("a.tsv");
        Path tb = dir.resolve("b.tsv");
        assertEquals(0, run("predict", "--model", a.toString(), "--model", b.toString(), "--data", data.toString(), "--out",
                ta.toString(), "--out", tb.toString()).code());
        Path alone = dir.resolve("b-alone.tsv");
        assertEquals(0, run("predict", "--model", b.toString(), "--data", data.toString(), "--out", alone.toString()).code());
        assertEquals(Files.readString(alone), Files.readString(tb), "one pass writes what a call per model writes");

        String metrics = "ndcg@3";
        String va = metricLines(run("eval", "--model", a.toString(), "--data", data.toString(), "--metrics", metrics).out())
                .get(0).split(" +")[1];
        String vb = metricLines(run("eval", "--scores", sb.toString(), "--data", data.toString(), "--metrics", metrics).out())
                .get(0).split(" +")[1];
        assertNotEquals(va, vb, "the two models must differ for the names to be told apart");
        // Command-line order: scores first, then the model; the table lists models first.
        Run e = run("eval", "--data", data.toString(), "--scores", sb.toString(), "--name", "lightgbm", "--model",
                a.toString(), "--name", "rankgrad", "--metrics", metrics);
        assertEquals(0, e.code(), e.err());
        String[] rows = e.out().lines().filter(l -> l.startsWith("| ")).toArray(String[]::new);
        assertTrue(rows[1].startsWith("| rankgrad ") && rows[1].contains(va), rows[1]);
        assertTrue(rows[2].startsWith("| lightgbm ") && rows[2].contains(vb), rows[2]);
        assertFalse(e.out().contains(a.toString()), "no row or coverage line is named by path: " + e.out());
        Run single = run("eval", "--data", data.toString(), "--model", a.toString(), "--name", "mine", "--metrics", metrics);
        assertTrue(single.out().startsWith("mine on "), single.out());

        for (String[] bad : new String[][] {
            {"--model", a.toString(), "--scores", sb.toString(), "--name", "x"},
            {"--model", a.toString(), "--scores", sb.toString(), "--name", "x", "--name", "x"},
            {"--model", a.toString(), "--name", "a|b"},
        }) {
            List<String> args = new ArrayList<>(List.of("eval", "--data", data.toString()));
            args.addAll(List.of(bad));
            Run r = run(args.toArray(String[]::new));
            assertEquals(2, r.code(), args + ": " + r.err());
            assertEquals(1, r.err().lines().count(), r.err());
        }
        Run mismatch = run("predict", "--model", a.toString(), "--model", b.toString(), "--data", data.toString(), "--out",
                dir.resolve("only-one").toString());
        assertEquals(2, mismatch.code(), mismatch.err());
        assertTrue(mismatch.err().contains("give one --out per --model"), mismatch.err());
        assertTrue(Files.notExists(dir.resolve("only-one")));
    }

    private Path write(String name, CharSequence text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void trecEvalsNumbersAreReproducedUnderItsConventions() throws Exception {
        Run r = run("eval", "--run", TREC.resolve("graded.run").toString(), "--qrels", TREC.resolve("graded.qrels").toString(),
                "--metrics", "ndcg_cut.10,map_cut.10,P.5,recip_rank,map,ndcg", "--gain", "linear", "--ties", "trec_eval",
                "--no-relevant", "zero");
        assertEquals(0, r.code(), r.err());
        for (String line : Files.readAllLines(TREC.resolve("graded.trec_eval"))) {
            String[] f = line.split("\\s+");
            if (f[1].equals("all")) {
                String name = f[0].replace("P_5", "p@5").replace("recip_rank", "mrr").replace("ndcg_cut_10", "ndcg@10")
                        .replace("map_cut_10", "map_cut@10");
                double got = r.out().lines().filter(l -> l.startsWith(name + " ")).mapToDouble(
                        l -> Double.parseDouble(l.substring(10).strip())).findFirst().orElseThrow();
                // Both printed to 4 decimals, each rounded from the float64 value: at most 1e-4 apart.
                assertEquals(Double.parseDouble(f[2]), got, 1e-4, name + " in\n" + r.out());
            }
        }
        assertTrue(r.out().contains("ties=trec_eval (document id descending)") && r.out().contains("gain=y (linear)"),
                r.out());
    }

    @Test
    void gradesAboveYmaxFailWhileReadingWhenErrIsComputed() throws Exception {
        Path data = dir.resolve("graded.txt");
        Files.writeString(data, "2 qid:1 1:0.1\n6 qid:1 1:0.2\n");
        Path model = model(1);
        Run r = run("eval", "--model", model.toString(), "--data", data.toString(), "--metrics", "err@10");
        assertEquals(1, r.code());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(data + ":2:") && r.err().contains("6"), r.err());
        assertEquals(0, run("eval", "--model", model.toString(), "--data", data.toString(), "--metrics", "ndcg@10").code(),
                "without ERR the grade scale does not matter");
        assertEquals(0, run("eval", "--model", model.toString(), "--data", data.toString(), "--metrics", "err@10", "--ymax",
                "6").code());
        Run train = run("train", "--train", data.toString(), "--valid", data.toString(), "--metric", "err@10", "--epochs",
                "1", "--model", "linear", "--out", dir.resolve("t").toString());
        assertEquals(1, train.code(), train.out());
        assertTrue(train.err().contains(data + ":2:"), train.err());
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--ties", "random"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--gain", "cubic"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--metrics", "ndcg_cut.x"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--metrics", "bpref"}),
                Arguments.of((Object) new String[] {"eval", "--qrels", "q"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--data", "d"}),
                Arguments.of((Object) new String[] {"eval", "--scores", "s", "--qrels", "q"}),
                Arguments.of((Object) new String[] {"eval", "--model", "m", "--qrels", "q"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--groups", "g"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--baseline", "r"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--run", "s", "--qrels", "q", "--baseline", "t"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--convention", "trec_eval",
                    "--gain", "linear"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--convention", "letor",
                    "--metrics", "mrr"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--convention", "ties"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--run", "r", "--qrels", "q"}),
                Arguments.of((Object) new String[] {"eval", "--run", "r", "--qrels", "q", "--ymax", "0"}),
                Arguments.of((Object) new String[] {"eval", "--run"}),
                Arguments.of((Object) new String[] {"stats", "a", "b", "--groups", "g"}),
                Arguments.of((Object) new String[] {"predict", "--model", "m", "--data", "d", "--out", "o", "--groups"}));
    }

    @ParameterizedTest
    @MethodSource("badValues")
    void badOptionValuesExitWithTwoAndOneLine(String[] args) {
        Run r = run(args);
        assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }
}
