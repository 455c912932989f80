package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static rankgrad.cli.CliTest.run;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.cli.CliTest.Run;

class ReproCommandTest {
    @TempDir
    Path dir;

    /** The cells of the Markdown table row that starts with {@code first}, or fails. */
    private static String[] row(String markdown, String first) {
        List<String> rows = markdown.lines().filter(l -> l.startsWith("| " + first + " |")).toList();
        assertEquals(1, rows.size(), "one row for " + first + " in\n" + markdown);
        String[] cells = rows.get(0).split("\\|");
        String[] out = new String[cells.length - 1];
        for (int i = 1; i < cells.length; i++) {
            out[i - 1] = cells[i].strip().replace("**", "");
        }
        return out;
    }

    private static void assertChart(Path png) throws Exception {
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, png + " is a readable image");
        assertEquals(800, image.getWidth(), png.toString());
        assertEquals(500, image.getHeight(), png.toString());
    }

    @Test
    void alphaWritesARowPerAlphaAndAChart() throws Exception {
        Path out = dir.resolve("alpha");
        Run r = run("repro", "alpha", "--queries", "16,8", "--epochs", "2", "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String md = Files.readString(out.resolve("alpha.md"));
        int best = 0;
        for (double alpha : AlphaExperiment.ALPHAS) {
            String label = AlphaExperiment.label(alpha);
            assertTrue(r.out().contains("| " + label + " |"), "stdout has the row of alpha " + label);
            String[] cells = row(md, label);
            for (int c = 1; c <= 3; c++) {
                double ndcg = Double.parseDouble(cells[c]);
                assertTrue(ndcg > 0 && ndcg <= 1, "NDCG in (0, 1]: " + ndcg);
            }
            best += cells[5].equals("best") ? 1 : 0;
        }
        assertEquals(1, best, "exactly one alpha is the reference of the significance column");
        assertTrue(md.contains("not significantly different"), "the paper's claim is beside the table");
        assertChart(out.resolve("alpha.png"));
    }

    @Test
    void spsaWritesBothTablesTheChartsAndTheObjectiveDecreases() throws Exception {
        Path out = dir.resolve("spsa");
        Run r = run("repro", "spsa", "--queries", "16,8,8", "--evaluations", "204", "--iterations", "20", "--epochs", "2",
                "--out", out.toString());
        assertEquals(0, r.code(), r.err());
        String md = Files.readString(out.resolve("spsa.md"));
        for (String method : List.of("SPSA:2", "SPSA:4", "SPSA:8", "FDSA")) {
            String[] cells = row(md.substring(0, md.indexOf("Table 1")), method);
            int per = Integer.parseInt(cells[1]);
            int spent = Integer.parseInt(cells[3]);
            assertTrue(spent <= 204 && spent > 204 - per, method + " spends the budget but for less than an iteration: " + spent);
            assertEquals(spent, per * Integer.parseInt(cells[2]), method + ": evaluations = iterations x evaluations/iteration");
            double start = Double.parseDouble(cells[4]);
            double end = Double.parseDouble(cells[5]);
            assertTrue(end < start, method + " lowers the RankNet objective: " + start + " -> " + end);
        }
        String table1 = md.substring(md.indexOf("Table 1"));
        for (String method : List.of("LambdaRank", "SPSA:4")) {
            String[] cells = row(table1, method);
            for (int c = 1; c <= 3; c++) {
                double ndcg = Double.parseDouble(cells[c]);
                assertTrue(ndcg > 0 && ndcg <= 1, method + " NDCG@10 in (0, 1]: " + ndcg);
            }
        }
        assertTrue(row(table1, "LambdaRank")[7].equals("0.707") && row(table1, "SPSA:4")[7].equals("0.677"),
                "the paper's test values are beside ours");
        assertTrue(md.contains(String.format(Locale.ROOT, "a = %s", SpsaExperiment.OBJECTIVE_GAINS.a())), "the gains are named");
        assertTrue(r.out().contains("| FDSA | 102 | 2 | 204 |"), r.out());
        assertChart(out.resolve("spsa-objective.png"));
        assertChart(out.resolve("spsa-ndcg.png"));
    }

    @Test
    void spsaCurvesStayWithinTheBudget() {
        Run r = run("repro", "spsa", "--queries", "8,4,4", "--evaluations", "101", "--iterations", "1", "--epochs", "1", "--out",
                dir.resolve("small").toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("| FDSA | 102 | 0 | 0 |"), "FDSA cannot afford one iteration of 102 evaluations:\n" + r.out());
        assertTrue(r.out().contains("| SPSA:8 | 8 | 12 | 96 |"), r.out());
    }

    @Test
    void badReproArgumentsExitWithTwo() {
        Run noExperiment = run("repro");
        assertEquals(2, noExperiment.code());
        assertTrue(noExperiment.err().contains("an experiment is required"), noExperiment.err());
        Run queries = run("repro", "alpha", "--queries", "10", "--out", dir.toString());
        assertEquals(2, queries.code());
        assertTrue(queries.err().contains("--queries needs 2 counts"), queries.err());
        assertEquals(2, run("repro", "spsa", "--iterations", "0", "--out", dir.toString()).code());
        assertTrue(Files.notExists(dir.resolve("alpha.md")), "nothing is written for bad arguments");
    }
}
