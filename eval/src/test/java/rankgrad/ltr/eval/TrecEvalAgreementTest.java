package rankgrad.ltr.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.NoRelevantPolicy;

/**
 * rankgrad reproduces trec_eval 10.0 (github.com/usnistgov/trec_eval) on a graded run with many
 * score ties, under trec_eval's conventions: linear gain, ties by document id descending, queries
 * without relevant documents counted as 0.
 *
 * <p>The fixtures under {@code trec_eval/}: {@code graded.qrels} (7 queries, grades 0 to 3, query
 * 107 without a relevant document), {@code graded.run} (every judged document plus 3 unjudged ones
 * per query, scores on a coarse grid so that ties are frequent, ids like d2 and d10 whose byte
 * order differs from their numeric order), and {@code graded.trec_eval}, written by
 *
 * <pre>
 * trec_eval -q -m ndcg_cut.10 -m map_cut.10 -m P.5 -m recip_rank -m map -m ndcg graded.qrels graded.run
 * </pre>
 */
class TrecEvalAgreementTest {
    /** trec_eval prints 4 decimals (rounding error at most 5e-5); rankgrad's value is float64. */
    private static final double TOLERANCE = 1e-4;

    private static final MetricConventions TREC_EVAL = MetricConventions.defaults().withGain(Gain.LINEAR)
            .withNoRelevant(NoRelevantPolicy.ZERO);

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(TrecEvalAgreementTest.class.getResource("/trec_eval/" + name).toURI());
    }

    /** measure -> (qid or "all" -> value). */
    private static Map<String, Map<String, Double>> expected() throws IOException, URISyntaxException {
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(resource("graded.trec_eval"))) {
            String[] f = line.strip().split("\\s+");
            out.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], Double.parseDouble(f[2]));
        }
        return out;
    }

    private static String trecName(String measure) {
        // trec_eval prints P.5 as P_5, ndcg_cut.10 as ndcg_cut_10.
        return measure.replace('.', '_');
    }

    @Test
    void everyMeasureOfEveryQueryAndTheMeansAgree() throws Exception {
        RunEvaluation e = RunEvaluation.of(Judgments.readQrels(resource("graded.qrels")), Run.read(resource("graded.run")),
                TieOrder.TREC_EVAL);
        assertEquals(0, e.coverage().missing());
        assertEquals(21, e.coverage().extra(), "3 unjudged documents in each of 7 queries");
        Map<String, Map<String, Double>> expected = expected();
        List<String> measures = List.of("ndcg_cut.10", "map_cut.10", "P.5", "recip_rank", "map", "ndcg");
        for (String measure : measures) {
            Map<String, Double> want = expected.get(trecName(measure));
            double[] got = e.perQuery(Metric.parse(measure), TREC_EVAL);
            assertEquals(want.size() - 1, got.length, measure);
            double sum = 0;
            for (int q = 0; q < got.length; q++) {
                assertEquals(want.get(e.qids().get(q)), got[q], TOLERANCE, measure + " query " + e.qids().get(q));
                sum += got[q];
            }
            assertEquals(want.get("all"), sum / got.length, TOLERANCE, measure + " mean");
        }
    }

    @Test
    void theFixtureSeparatesTheConventions() throws Exception {
        // Each convention matters on these fixtures: with the run's own tie order, or with the
        // exponential gain, some value moves by more than the tolerance.
        Judgments j = Judgments.readQrels(resource("graded.qrels"));
        Run run = Run.read(resource("graded.run"));
        double[] trec = RunEvaluation.of(j, run, TieOrder.TREC_EVAL).perQuery(Metric.parse("ndcg_cut.10"), TREC_EVAL);
        double[] stable = RunEvaluation.of(j, run, TieOrder.STABLE).perQuery(Metric.parse("ndcg_cut.10"), TREC_EVAL);
        double[] exponential = RunEvaluation.of(j, run, TieOrder.TREC_EVAL).perQuery(Metric.parse("ndcg_cut.10"),
                TREC_EVAL.withGain(Gain.EXPONENTIAL));
        assertTrue(maxDifference(trec, stable) > 10 * TOLERANCE);
        assertTrue(maxDifference(trec, exponential) > 10 * TOLERANCE);
    }

    private static double maxDifference(double[] a, double[] b) {
        double max = 0;
        for (int i = 0; i < a.length; i++) {
            max = Math.max(max, Math.abs(a[i] - b[i]));
        }
        return max;
    }
}
