package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.Tensor;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

class PredictCommandTest {
    private static final int D = 6;

    @TempDir
    Path dir;

    private final Dataset data = CubicData.create(D, 3).sample("d", 12, 15, 4);

    private Path model() throws Exception {
        Path f = dir.resolve("model.json");
        ModelFile.write(RankingModel.create("R4.L", D, new Normalization.QueryZScore(), 2), f);
        return f;
    }

    /** The data as LETOR lines ending in a LETOR 4.0 style comment: {@code #docid = D<query>-<doc> inc = 1}. */
    private Path withDocids(String name) throws Exception {
        Path plain = dir.resolve("plain-" + name);
        LetorWriter.write(data, plain);
        List<String> lines = Files.readAllLines(plain);
        List<String> out = new ArrayList<>();
        int line = 0;
        for (Query q : data.queries()) {
            for (int i = 0; i < q.docs(); i++) {
                out.add(lines.get(line++) + " #docid = D" + q.qid() + "-" + i + " inc = 1 prob = 0.5");
            }
        }
        Path f = dir.resolve(name);
        Files.write(f, out);
        return f;
    }

    /** The label of each document, by the docid {@link #withDocids} gave it. */
    private Map<String, Float> labelsByDocid() {
        Map<String, Float> labels = new HashMap<>();
        for (Query q : data.queries()) {
            for (int i = 0; i < q.docs(); i++) {
                labels.put("D" + q.qid() + "-" + i, q.labels()[i]);
            }
        }
        return labels;
    }

    /** A run file's lines per query, in file order; each line split on whitespace. */
    private static Map<String, List<String[]>> byQuery(List<String> lines) {
        Map<String, List<String[]>> out = new LinkedHashMap<>();
        for (String l : lines) {
            String[] cols = l.split("\\s+");
            out.computeIfAbsent(cols[0], k -> new ArrayList<>()).add(cols);
        }
        return out;
    }

    /** NDCG@k of a ranked list of grades (gain 2^y - 1, discount 1 / log2(1 + rank)), NaN without a relevant document. */
    private static double ndcg(List<Float> ranked, int k) {
        List<Float> ideal = new ArrayList<>(ranked);
        ideal.sort((a, b) -> Float.compare(b, a));
        double dcg = 0;
        double idcg = 0;
        for (int r = 1; r <= Math.min(k, ranked.size()); r++) {
            dcg += (Math.pow(2, ranked.get(r - 1)) - 1) / (Math.log(1 + r) / Math.log(2));
            idcg += (Math.pow(2, ideal.get(r - 1)) - 1) / (Math.log(1 + r) / Math.log(2));
        }
        return idcg == 0 ? Double.NaN : dcg / idcg;
    }

    @Test
    void aTrecRunReadBackGivesEvalsNdcg() throws Exception {
        Path model = model();
        Path letor = withDocids("d.txt");
        Path runFile = dir.resolve("run.trec");
        Run r = run("predict", "--model", model.toString(), "--data", letor.toString(), "--out", runFile.toString(),
                "--format", "trec", "--tag", "my-run");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("TREC run, documents named by their 'docid = ...' comments"), r.out());
        Map<String, Float> labels = labelsByDocid();
        Map<String, List<String[]>> run = byQuery(Files.readAllLines(runFile));
        assertEquals(data.size(), run.size(), "every query, its lines together");
        Map<Integer, List<Double>> perK = new HashMap<>();
        for (List<String[]> lines : run.values()) {
            List<Float> ranked = new ArrayList<>();
            double previous = Double.POSITIVE_INFINITY;
            for (int i = 0; i < lines.size(); i++) {
                String[] c = lines.get(i);
                assertEquals(6, c.length, String.join(" ", c));
                assertEquals("Q0", c[1]);
                assertEquals(i + 1, Integer.parseInt(c[3]), "ranks 1, 2, ... in file order");
                double score = Double.parseDouble(c[4]);
                assertTrue(score <= previous, "scores do not increase down the ranking");
                previous = score;
                assertEquals("my-run", c[5]);
                ranked.add(labels.remove(c[2]));
            }
            for (int k : new int[] {1, 5, 10}) {
                double v = ndcg(ranked, k);
                if (!Double.isNaN(v)) {
                    perK.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
                }
            }
        }
        assertTrue(labels.isEmpty(), "every document appears once: left over " + labels.keySet());
        Run eval = run("eval", "--model", model.toString(), "--data", letor.toString(), "--metrics", "ndcg@1,5,10");
        assertEquals(0, eval.code(), eval.err());
        RankingModel m = ModelFile.read(model);
        Dataset normalized = m.normalize(data);
        float[] scores = m.scorer().scoreNormalized(normalized);
        for (int k : new int[] {1, 5, 10}) {
            double fromRun = perK.get(k).stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            assertTrue(eval.out().contains(String.format(Locale.ROOT, "%-10s %.4f%n", "ndcg@" + k, fromRun)),
                    "ndcg@" + k + " " + fromRun + " in\n" + eval.out());
            double library = Metric.parse("ndcg@" + k).evaluate(scores, normalized.labelBatch(normalized.allQueries()),
                    MetricConventions.defaults()).mean();
            // The same sums in another order: equal to float64 rounding (about 1e-16 per term).
            assertEquals(library, fromRun, 1e-12, "ndcg@" + k);
        }
    }

    @Test
    void tsvListsEachQueryInRankOrderAndNamesDocumentsByPositionWithoutComments() throws Exception {
        Path plain = dir.resolve("plain.txt");
        LetorWriter.write(data, plain);
        Path out = dir.resolve("scores.tsv");
        Run r = run("predict", "--model", model().toString(), "--data", plain.toString(), "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("scored 180 documents of 12 queries into " + out + " (TSV, documents named by their"
                + " position in the query"), r.out());
        List<String> lines = Files.readAllLines(out);
        assertEquals("qid\tdocid\trank\tscore", lines.get(0));
        RankingModel m = ModelFile.read(dir.resolve("model.json"));
        Map<String, List<String[]>> byQuery = byQuery(lines.subList(1, lines.size()));
        for (Query q : data.queries()) {
            float[] s = m.scorer().score(q);
            List<String[]> rows = byQuery.get(q.qid());
            assertEquals(q.docs(), rows.size());
            for (int rank = 1; rank <= rows.size(); rank++) {
                String[] c = rows.get(rank - 1);
                assertEquals(Integer.toString(rank), c[2]);
                int doc = Integer.parseInt(c[1]);
                assertEquals(s[doc], Float.parseFloat(c[3]), "the score printed is predict's, exactly");
                if (rank > 1) {
                    assertTrue(Float.parseFloat(rows.get(rank - 2)[3]) >= s[doc], "highest score first");
                }
            }
        }
    }

    @Test
    void aNamedKeyMustBeOnEveryLineAndNothingIsWrittenOtherwise() throws Exception {
        Path letor = withDocids("d.txt");
        Path out = dir.resolve("run.txt");
        Run r = run("predict", "--model", model().toString(), "--data", letor.toString(), "--out", out.toString(),
                "--docid-key", "docno");
        assertEquals(1, r.code());
        assertEquals("rankgrad: " + letor + ": query 1, document 0 (0-based) has no 'docno = ...' in its comment"
                + " '#docid = D1-0 inc = 1 prob = 0.5'; every document must name its id there (or name another key with"
                + " --docid-key)" + System.lineSeparator(), r.err());
        assertTrue(Files.notExists(out));
        // Another key of the same comments works.
        Run inc = run("predict", "--model", model().toString(), "--data", letor.toString(), "--out", out.toString(),
                "--docid-key", "prob");
        assertEquals(0, inc.code(), inc.err());
        assertTrue(Files.readAllLines(out).get(1).split("\t")[1].equals("0.5"), "the value of the named key");
        // A file whose first documents have docids and a later one has none.
        List<String> lines = new ArrayList<>(Files.readAllLines(letor));
        lines.set(20, lines.get(20).substring(0, lines.get(20).indexOf('#')));
        Files.write(letor, lines);
        Files.delete(out);
        Run missing = run("predict", "--model", model().toString(), "--data", letor.toString(), "--out", out.toString());
        assertEquals(1, missing.code());
        assertEquals(1, missing.err().lines().count(), missing.err());
        assertTrue(missing.err().startsWith("rankgrad: " + letor + ": query 2, document 5 (0-based) has no 'docid = ...'"),
                missing.err());
        assertTrue(Files.notExists(out), "nothing is written");
    }

    @Test
    void nonFiniteScoresAreRefusedWithOneLineAndNothingIsWritten() throws Exception {
        RankingModel m = RankingModel.create("linear", D, new Normalization.None(), 1);
        Tensor w = m.network().namedParameters().get("layers.0.weight").value();
        for (int i = 0; i < w.size(); i++) {
            w.set(i, 3e38);
        }
        Path model = dir.resolve("huge.json");
        ModelFile.write(m, model);
        Path letor = dir.resolve("big.txt");
        Files.writeString(letor, "1 qid:1 1:5 2:5 3:5 4:5 5:5 6:5 #docid = A\n0 qid:1 1:1 #docid = B\n");
        Path out = dir.resolve("run.trec");
        Run r = run("predict", "--model", model.toString(), "--data", letor.toString(), "--out", out.toString(),
                "--format", "trec");
        assertEquals(1, r.code());
        assertEquals("rankgrad: " + letor + ": the model's score of document 0 (0-based) of query 1 is Infinity: a weight or"
                + " a normalization statistic overflows float32, so the model cannot rank these documents (docid A);"
                + " nothing was written" + System.lineSeparator(), r.err());
        assertTrue(Files.notExists(out));
    }

    static Stream<Arguments> badValues() {
        return Stream.of(
                Arguments.of("--format xml", new String[] {"--format", "xml"}),
                Arguments.of("--tag with spaces", new String[] {"--format", "trec", "--tag", "my run"}),
                Arguments.of("--tag without trec", new String[] {"--tag", "run1"}),
                Arguments.of("--docid-key with =", new String[] {"--docid-key", "doc=id"}),
                Arguments.of("empty --docid-key", new String[] {"--docid-key", ""}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badValues")
    void badValuesExitWithTwoAndOneLineBeforeAnythingIsRead(String what, String[] extra) {
        // The model and data do not exist: arguments are checked first.
        String[] base = {"predict", "--model", dir.resolve("none.json").toString(), "--data", dir.resolve("none.txt").toString(),
            "--out", dir.resolve("o.txt").toString()};
        String[] args = Stream.concat(Stream.of(base), Stream.of(extra)).toArray(String[]::new);
        Run r = run(args);
        assertEquals(2, r.code(), what + ": " + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("rankgrad predict: "), r.err());
    }
}
