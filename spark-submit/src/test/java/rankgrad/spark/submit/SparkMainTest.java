package rankgrad.spark.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.Main;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.eval.DocIds;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;
import rankgrad.spark.LetorFixtures;
import rankgrad.spark.LocalSpark;

/** The spark-submit main, in the test's local session (its getOrCreate finds it). */
class SparkMainTest {
    private static SparkSession spark;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        spark = LocalSpark.start(SparkMainTest.class);
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    @Test
    void scoreWritesPredictsLinesInPartFilesInOrder() throws Exception {
        Path data = LetorFixtures.write(dir, "main.txt", LetorFixtures.text(12, 31));
        Path model = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("R4.L", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 9), model);
        // predict's lines, as PredictCommand writes them.
        Scorer scorer = ModelFile.read(model).scorer();
        List<String> expected = new ArrayList<>(List.of("qid\tdocid\trank\tscore"));
        DocIds ids = new DocIds(null);
        LetorReader.streamWithComments(data, scorer.features(), LetorOptions.DEFAULT, false, (q, comments) -> {
            String[] names = ids.names(data, q.qid(), comments);
            float[] s = scorer.score(q);
            int[] order = Ranking.order(s, 0, s.length, null);
            for (int r = 0; r < order.length; r++) {
                expected.add(q.qid() + "\t" + names[order[r]] + "\t" + (r + 1) + "\t" + s[order[r]]);
            }
        });
        Path out = dir.resolve("scored");
        assertEquals(0, SparkMain.run("score", "--model", model.toString(), "--data", data.toString(), "--out",
                out.toString(), "--split-bytes", "700"));
        List<String> got = new ArrayList<>();
        try (Stream<Path> parts = Files.list(out)) {
            for (Path p : parts.filter(p -> p.getFileName().toString().startsWith("part-")).sorted().toList()) {
                got.addAll(Files.readAllLines(p, StandardCharsets.UTF_8));
            }
        }
        assertEquals(expected, got);
    }

    @Test
    void evalPrintsEvalsNumbers() throws Exception {
        Path data = LetorFixtures.write(dir, "main-eval.txt", LetorFixtures.text(20, 32));
        Path model = dir.resolve("model-eval.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 4), model);
        Scorer scorer = ModelFile.read(model).scorer();
        List<float[]> scores = new ArrayList<>();
        List<float[]> labels = new ArrayList<>();
        LetorReader.stream(data, scorer.features(), q -> {
            scores.add(scorer.score(q));
            labels.add(q.labels());
        });
        String printed = run("eval", "--model", model.toString(), "--data", data.toString(), "--metrics", "ndcg@10,map@10",
                "--split-bytes", "900");
        float[] flat = new float[labels.stream().mapToInt(l -> l.length).sum()];
        int at = 0;
        for (float[] s : scores) {
            System.arraycopy(s, 0, flat, at, s.length);
            at += s.length;
        }
        QueryBatch batch = QueryBatch.of(labels.toArray(float[][]::new));
        for (String name : List.of("ndcg@10", "map@10")) {
            double mean = Metric.parse(name).evaluate(flat, batch, MetricConventions.defaults()).mean();
            String line = String.format(Locale.ROOT, "%-10s %.4f", name, mean);
            assertTrue(printed.contains(line + "\n"), "'" + line + "' in:\n" + printed);
        }
        // The conventions line is the rankgrad command's, word for word ("stable (run order)").
        StringWriter cli = new StringWriter();
        assertEquals(0, Main.run(new String[] {"eval", "--model", model.toString(), "--data", data.toString(),
            "--metrics", "ndcg@10,map@10"}, new PrintWriter(cli, true), new PrintWriter(new StringWriter(), true)));
        String conventions = cli.toString().lines().filter(l -> l.startsWith("conventions: ")).findFirst().orElseThrow();
        assertTrue(printed.contains(conventions + "\n"), "'" + conventions + "' in:\n" + printed);
    }

    @Test
    void usageErrorsAreTheRankgradCommandsMessages() {
        // The options come from the rankgrad command's mixins and parsers: its messages, exit code 2,
        // before any session work (the files named here do not exist).
        String[][] cases = {
            {"train", "--train", "t.txt", "--valid", "v.txt", "--normalization", "foo",
                "--normalization: unknown 'foo'; choose one of query-zscore, standardize, none"},
            {"train", "--train", "t.txt", "--valid", "v.txt", "--epochs", "0", "--epochs must be >= 1, got 0"},
            {"score", "--model", "m.json", "--data", "d.txt", "--out", "o", "--tag", "x",
                "--tag applies to --format trec only"},
            {"eval", "--model", "m.json", "--data", "d.txt", "--metrics", "5",
                "--metrics: cutoff 5 has no metric before it in '5'"},
        };
        for (String[] c : cases) {
            String expected = c[c.length - 1];
            PrintStream old = System.err;
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
            int status;
            try {
                status = SparkMain.run(Arrays.copyOf(c, c.length - 1));
            } finally {
                System.setErr(old);
            }
            String printed = buf.toString(StandardCharsets.UTF_8);
            assertEquals(2, status, printed);
            assertTrue(printed.startsWith(expected + System.lineSeparator()), "'" + expected + "' first in:\n" + printed);
        }
    }

    @Test
    void aBadValueInATaskIsOneLineOnStderrAndStatusOne() throws Exception {
        String text = LetorFixtures.text(12, 33);
        int bad = (int) text.lines().takeWhile(l -> !l.contains("qid:170 ")).count();
        List<String> lines = new ArrayList<>(text.lines().toList());
        lines.set(bad, "1 qid:170 2:0.5 5:abc");
        Path data = LetorFixtures.write(dir, "bad.txt", String.join("\n", lines) + "\n");
        Path model = dir.resolve("model-bad.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 4), model);
        String[] args = {"score", "--model", model.toString(), "--data", data.toString(), "--out",
            dir.resolve("bad-out").toString(), "--split-bytes", "700"};
        String quiet = stderr(1, args);
        assertEquals("rankgrad-spark: " + data + ":" + (bad + 1) + ": value of feature 5 'abc' is not a number",
                quiet.strip());
        String[] verbose = Arrays.copyOf(args, args.length + 1);
        verbose[args.length] = "--verbose";
        String traced = stderr(1, verbose);
        assertTrue(traced.startsWith(quiet) && traced.lines().count() > 10, traced);
    }

    @Test
    void theEmptyFolderOfAFailedRunDoesNotBlockTheRerun() throws Exception {
        Path data = LetorFixtures.write(dir, "rerun.txt", LetorFixtures.text(5, 34));
        Path model = dir.resolve("model-rerun.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.QueryZScore(), 4), model);
        Path out = Files.createDirectories(dir.resolve("rerun-out").resolve("_temporary").resolve("0")).getParent()
                .getParent();
        run("score", "--model", model.toString(), "--data", data.toString(), "--out", out.toString());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        // A folder with output stays: the rerun over it fails and leaves it as it was.
        stderr(1, "score", "--model", model.toString(), "--data", data.toString(), "--out", out.toString());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
    }

    /** Regression: the main never stopped the session, which a standalone cluster's shutdown then tripped over. */
    @Test
    void theMainStopsTheSessionItsCommandRan() throws Exception {
        Path data = LetorFixtures.write(dir, "stop.txt", LetorFixtures.text(4, 35));
        Path model = dir.resolve("model-stop.json");
        ModelFile.write(RankingModel.create("linear", LetorFixtures.FEATURES, new Normalization.None(), 4), model);
        PrintStream old = System.out;
        System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, SparkMain.runAndStop("eval", "--model", model.toString(), "--data", data.toString(),
                    "--metrics", "ndcg@5"));
            assertTrue(spark.sparkContext().isStopped(), "the command's session is stopped");
            assertTrue(SparkSession.getDefaultSession().isEmpty());
        } finally {
            System.setOut(old);
            spark = LocalSpark.start(SparkMainTest.class);
        }
    }

    /** What SparkMain prints on stderr for {@code args}, asserting its exit status. */
    private static String stderr(int status, String... args) {
        PrintStream old = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertEquals(status, SparkMain.run(args));
        } finally {
            System.setErr(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static String run(String... args) {
        PrintStream old = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            assertEquals(0, SparkMain.run(args));
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
