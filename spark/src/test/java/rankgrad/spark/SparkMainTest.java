package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
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
