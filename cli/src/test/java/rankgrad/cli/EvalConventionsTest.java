package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.eval.Significance;
import rankgrad.ltr.letor.LetorWriter;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * {@code eval --convention} against the tools themselves, and {@code eval --baseline}, several inputs'
 * {@code --per-query} and the seed spread, end to end.
 *
 * <p>Fixtures: the LETOR 4.0 script's output on {@code ../eval/src/test/resources/letor} (see
 * LetorScriptAgreementTest); {@code conventions/valid.txt} with LightGBM 4.7's scores and the
 * validation ndcg@k LightGBM reports for them, written by {@code conventions/make-lightgbm-fixture.py}
 * (3 of its 25 queries have no relevant document, which LightGBM counts as 1; 174 documents share
 * 55 distinct scores, so the tie order matters).
 */
class EvalConventionsTest {
    private static final Path LETOR = Path.of("../eval/src/test/resources/letor");
    private static final Path CONVENTIONS = Path.of("src/test/resources/conventions");
    /** Metric lines of a one-input report: name, then the mean to 4 decimals. */
    private static final Pattern METRIC = Pattern.compile("(?m)^(\\S+@\\d+|map) +(\\d\\.\\d{4})$");

    @TempDir
    Path dir;

    private static Map<String, Double> means(String out) {
        Map<String, Double> m = new LinkedHashMap<>();
        Matcher x = METRIC.matcher(out);
        while (x.find()) {
            m.put(x.group(1), Double.parseDouble(x.group(2)));
        }
        return m;
    }

    @Test
    void letorConventionReproducesTheLetor4ScriptsAverages() throws Exception {
        Run r = run("eval", "--scores", LETOR.resolve("letor4.pred").toString(), "--data", LETOR.resolve("letor4.txt").toString(),
                "--convention", "letor", "--metrics", "ndcg@1,2,3,4,5,6,7,8,9,10,p@1,2,3,4,5,6,7,8,9,10,map");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("conventions: LETOR 4.0 script"), r.out());
        Map<String, Double> got = means(r.out());
        List<String> lines = Files.readAllLines(LETOR.resolve("letor4.eval"));
        String[] precision = lines.get(8).split("\t");
        String[] ndcg = lines.get(18).split("\t");
        assertEquals("Average", precision[0]);
        assertEquals("Average", ndcg[0]);
        for (int k = 1; k <= 10; k++) {
            // Both print 4 decimals of the same float64 mean: equal up to the last digit's rounding.
            assertEquals(Double.parseDouble(ndcg[k]), got.get("ndcg@" + k), 1e-4, "ndcg@" + k);
            assertEquals(Double.parseDouble(precision[k]), got.get("p@" + k), 1e-4, "p@" + k);
        }
        assertEquals(Double.parseDouble(precision[11]), got.get("map"), 1e-4);
        Run refused = run("eval", "--scores", LETOR.resolve("letor4.pred").toString(), "--data",
                LETOR.resolve("letor4.txt").toString(), "--convention", "letor", "--metrics", "err@10");
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("the LETOR 4.0 script computes ndcg@k, p@k, map, not err@10"), refused.err());
    }

    @Test
    void lightgbmConventionReproducesLightgbmsOwnNdcg() throws Exception {
        Run r = run("eval", "--scores", CONVENTIONS.resolve("valid.lightgbm.pred").toString(), "--data",
                CONVENTIONS.resolve("valid.txt").toString(), "--convention", "lightgbm");
        assertEquals(0, r.code(), r.err());
        Map<String, Double> got = means(r.out());
        int checked = 0;
        for (String line : Files.readAllLines(CONVENTIONS.resolve("valid.lightgbm.ndcg"))) {
            if (!line.startsWith("#")) {
                String[] f = line.split("\t");
                // rankgrad prints 4 decimals of the mean; LightGBM's value is float64.
                assertEquals(Double.parseDouble(f[1]), got.get(f[0]), 5e-5 + 1e-12, f[0] + " in " + r.out());
                checked++;
            }
        }
        assertEquals(4, checked);
        Run usual = run("eval", "--scores", CONVENTIONS.resolve("valid.lightgbm.pred").toString(), "--data",
                CONVENTIONS.resolve("valid.txt").toString(), "--metrics", "ndcg@1,3,5,10");
        assertTrue(Math.abs(means(usual.out()).get("ndcg@1") - got.get("ndcg@1")) > 0.01,
                "excluding the 3 no-relevant queries must differ from counting them as 1: " + usual.out());
        Run conflict = run("eval", "--scores", "s", "--data", "d", "--convention", "lightgbm", "--no-relevant", "zero");
        assertEquals(2, conflict.code());
        assertTrue(conflict.err().contains("--convention lightgbm sets --no-relevant; give one or the other"), conflict.err());
    }

    private Path data() throws Exception {
        Path f = dir.resolve("data.txt");
        LetorWriter.write(CubicData.create(6, 1).sample("d", 40, 10, 2), f);
        return f;
    }

    private Path model(String name, String arch, long seed) throws Exception {
        Path f = dir.resolve(name);
        ModelFile.write(RankingModel.create(arch, 6, new Normalization.QueryZScore(), seed), f);
        return f;
    }

    @Test
    void baselinePrintsBothPValuesOfEveryPairAndPerQueryTakesSeveralInputs() throws Exception {
        Path data = data();
        Path a = model("a.json", "linear", 1);
        Path b = model("b.json", "linear", 2);
        Path c = model("c.json", "R4.L", 3);
        Run r = run("eval", "--model", a.toString(), "--model", b.toString(), "--model", c.toString(), "--data",
                data.toString(), "--metrics", "ndcg@5,map@10", "--baseline", a.toString(), "--per-query");
        assertEquals(0, r.code(), r.err());
        // Per-query rows: one per query and input, in query order.
        Map<String, List<double[]>> perRanker = new LinkedHashMap<>();
        List<String> rows = r.out().lines().dropWhile(l -> !l.startsWith("qid\tranker\t")).skip(1).toList();
        assertEquals(40 * 3, rows.size());
        for (String row : rows) {
            String[] f = row.split("\t");
            perRanker.computeIfAbsent(f[1], k -> new ArrayList<>()).add(new double[] {value(f[2]), value(f[3])});
        }
        // Queries without a relevant document are "excluded" for every ranker alike.
        double[] base = perRanker.get(a.toString()).stream().mapToDouble(v -> v[0]).filter(v -> !Double.isNaN(v)).toArray();
        for (Path other : List.of(b, c)) {
            double[] x = perRanker.get(other.toString()).stream().mapToDouble(v -> v[0]).filter(v -> !Double.isNaN(v))
                    .toArray();
            String line = r.out().lines().filter(l -> l.startsWith("| " + other + " ") && l.contains("(W p="))
                    .findFirst().orElseThrow(() -> new AssertionError(r.out()));
            Matcher p = Pattern.compile("\\(W p=(\\S+), t p=(\\S+)\\)").matcher(line);
            assertTrue(p.find(), line);
            // Recomputed from the per-query values as printed (4 decimals), which can merge or split a
            // few Wilcoxon ties: the p-values agree to 0.01, not exactly (PairedTestsTest checks exactly).
            assertEquals(Significance.wilcoxonSignedRank(x, base), Double.parseDouble(p.group(1)), 0.01, line);
            assertEquals(Significance.pairedT(x, base), Double.parseDouble(p.group(2)), 0.01, line);
        }
        assertTrue(r.out().contains("| ranker vs " + a), r.out());
        // a and b differ only in their seed: one recipe, its spread printed; c is another recipe.
        String spread = r.out().lines().filter(l -> l.startsWith("| " + a + " ") && l.contains(" 2 |")).findFirst()
                .orElseThrow(() -> new AssertionError(r.out()));
        assertTrue(spread.matches(".*\\d\\.\\d{4} ± \\d\\.\\d{4} \\[\\d\\.\\d{4}, \\d\\.\\d{4}].*"), spread);
        assertTrue(r.out().lines().noneMatch(l -> l.startsWith("| " + c + " ") && l.contains(" ± ") && l.contains("[")),
                r.out());
    }

    private static double value(String text) {
        return text.equals("excluded") ? Double.NaN : Double.parseDouble(text);
    }
}
