package rankgrad.ltr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;

/**
 * rankgrad reproduces the LETOR 4.0 evaluation script, {@code Eval-Score-4.0.pl} (Xu and Liu, 2009;
 * its public copy: github.com/AmirHooshangi/mlpython, {@code datasets/letor_mq2007.py}, variable
 * {@code perl_eval_script}).
 *
 * <p>The fixtures under {@code letor/}: {@code letor4.txt} (7 queries in LETOR 4.0's format with
 * {@code docid = ... inc = ... prob = ...} comments, grades 0 to 2; query 13 has 4 documents and
 * query 17 has 7, so NDCG@k of k above them is the script's 0; query 15 has no relevant document),
 * {@code letor4.pred} (one score per line on a coarse grid, so ties are frequent) and
 * {@code letor4.eval}, written by perl 5 with {@code perl Eval-Score-4.0.pl letor4.txt letor4.pred
 * letor4.eval 1}.
 */
class LetorScriptAgreementTest {
    /** The script prints 4 decimals (rounding error at most 5e-5); rankgrad's value is float64. */
    private static final double TOLERANCE = 1e-4;

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(LetorScriptAgreementTest.class.getResource("/letor/" + name).toURI());
    }

    private static RunEvaluation evaluation() throws Exception {
        Judgments j = Judgments.readLetor(resource("letor4.txt"), LetorOptions.DEFAULT, new DocIds(null));
        return RunEvaluation.of(j, Run.ofScoreLines(resource("letor4.pred"), j), TieOrder.STABLE);
    }

    /** The script's two tables: header line, per-query rows, "Average" row. */
    private static List<String[]> table(int which) throws Exception {
        List<String[]> rows = new ArrayList<>();
        int seen = -1;
        for (String line : Files.readAllLines(resource("letor4.eval"))) {
            if (line.startsWith("qid")) {
                seen++;
            }
            if (seen == which && !line.isBlank()) {
                rows.add(line.strip().split("\t"));
            }
        }
        return rows;
    }

    private static void agree(RunEvaluation e, List<String[]> table, String metric, int column) {
        double[] got = LetorScript.perQuery(e, Metric.parse(metric));
        double sum = 0;
        for (int q = 0; q < got.length; q++) {
            String[] row = table.get(q + 1);
            assertEquals(row[0], e.qids().get(q));
            assertEquals(Double.parseDouble(row[column]), got[q], TOLERANCE, metric + " query " + row[0]);
            sum += got[q];
        }
        String[] average = table.get(table.size() - 1);
        assertEquals("Average", average[0]);
        assertEquals(Double.parseDouble(average[column]), sum / got.length, TOLERANCE, metric + " mean");
    }

    @Test
    void ndcgPrecisionAndMapOfEveryQueryAndTheMeansAgree() throws Exception {
        RunEvaluation e = evaluation();
        assertEquals(7, e.qids().size());
        for (int k = 1; k <= 10; k++) {
            agree(e, table(1), "ndcg@" + k, k);
            agree(e, table(0), "p@" + k, k);
        }
        agree(e, table(0), "map", 11);
    }

    @Test
    void theUsualConventionsDoNotReproduceTheScript() throws Exception {
        // Guards the fixture: it must tell the conventions apart, else the agreement proves nothing.
        RunEvaluation e = evaluation();
        double usual = mean(e.perQuery(Metric.parse("ndcg@10"), MetricConventions.defaults()));
        double script = mean(LetorScript.perQuery(e, Metric.parse("ndcg@10")));
        assertFalse(Math.abs(usual - script) < 0.01, usual + " vs " + script);
    }

    @Test
    void metricsTheScriptDoesNotComputeAreRefused() throws Exception {
        RunEvaluation e = evaluation();
        IllegalArgumentException err = assertThrows(IllegalArgumentException.class,
                () -> LetorScript.perQuery(e, Metric.parse("err@10")));
        assertEquals("the LETOR 4.0 script computes ndcg@k, p@k, map, not err@10", err.getMessage());
    }

    private static double mean(double[] v) {
        double s = 0;
        int n = 0;
        for (double x : v) {
            if (!Double.isNaN(x)) {
                s += x;
                n++;
            }
        }
        return s / n;
    }
}
