package rankgrad.ltr.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;

/** Reading runs, qrels and LETOR grades, and matching them: every mismatch counted, none dropped. */
class RunEvaluationTest {
    // Closed forms in double against a few summed terms: only rounding of a few ulps can differ.
    private static final double EPS = 1e-12;

    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    @Test
    void trecRunAndTsvReadAlike() throws Exception {
        Run trec = Run.read(write("a.run", "1 Q0 x 1 2.5 t\n1 Q0 y 2 1 t\n2 Q0 z 1 -3e-1 t\n"));
        Run tsv = Run.read(write("a.tsv", "qid\tdocid\trank\tscore\n1\tx\t1\t2.5\n1\ty\t2\t1\n2\tz\t1\t-0.3\n"));
        Run three = Run.read(write("b.tsv", "1 x 2.5\n1 y 1.0\n2 z -0.3\n"));
        assertEquals(trec.queries(), tsv.queries());
        assertEquals(trec.queries(), three.queries());
        assertEquals(List.of("x", "y"), List.copyOf(trec.queries().get("1").keySet()));
    }

    @Test
    void malformedRunsNameFileAndLine() throws Exception {
        assertMessage(write("r1", "1 Q0 x 1 2.5 t\n1 Q0 y 2 NaN t\n"), ":2: score 'NaN' is not a decimal number");
        assertMessage(write("r2", "1 x 1\n1 x 2\n"), ":2: document x appears twice in query 1");
        assertMessage(write("r3", "1 x 1\n2 y 1\n1 z 1\n"), ":3: query 1 appears again after other queries");
        assertMessage(write("r4", "1 x 1\n1 y 2 3 4 5\n"), ":2: 6 fields where the file's first line has 3");
        assertMessage(write("r5", "1 x\n"), ":1: expected a TREC run line");
        assertMessage(write("r6", "\n\n"), "the run has no data lines");
        assertMessage(write("r7", "1 x 1e999\n"), ":1: score '1e999' is beyond the range of a double");
        EvalInputException e = assertThrows(EvalInputException.class, () -> Judgments.readQrels(write("q", "1 0 x -1\n")));
        assertTrue(e.getMessage().endsWith("q:1: grade '-1' must be a number from 0 to 31"), e.getMessage());
    }

    @Test
    void fractionalQrelsGradesAreRefusedAsTrecEvalWouldTruncateThem() throws Exception {
        EvalInputException e = assertThrows(EvalInputException.class, () -> Judgments.readQrels(write("q", "1 0 a 1\n1 0 b 2.5\n")));
        assertTrue(e.getMessage().endsWith("q:2: grade 2.5 is not a whole number; grades are integers (trec_eval reads 2.5"
                + " as 2, dropping the fraction)"), e.getMessage());
        assertEquals(2f, Judgments.readQrels(write("q2", "1 0 a 2.0\n")).queries().get("1").get("a"), "2.0 is grade 2");
    }

    private static void assertMessage(Path run, String part) {
        EvalInputException e = assertThrows(EvalInputException.class, () -> Run.read(run));
        assertTrue(e.getMessage().startsWith(run.toString()) && e.getMessage().contains(part), e.getMessage());
    }

    @Test
    void extraAndMissingDocumentsAreCountedAndMissingOnesRankLast() throws Exception {
        Judgments j = Judgments.readQrels(write("q", "1 0 a 2\n1 0 b 0\n1 0 c 1\n1 0 d 0\n2 0 e 1\n"));
        // Query 1 lacks c (relevant) and d; u is unjudged; query 2 is absent; query 9 is not judged.
        Run run = Run.read(write("r", "1 a 0.5\n1 u 0.9\n1 b 0.1\n9 x 1\n"));
        RunEvaluation e = RunEvaluation.of(j, run, TieOrder.STABLE);
        assertEquals(new Coverage(2, 1, 3, 2, 1, 1), e.coverage());
        assertEquals(List.of("1", "2"), e.qids());
        // Query 1 in run order a(2), u(0), b(0), then the missing d(0) before c(1) (less relevant
        // first); ranked by score: u, a, b, d, c.
        assertArrayEquals(new float[] {2, 0, 0, 0, 1}, e.batch().labelsOf(0));
        double[] ap = e.perQuery(Metric.parse("map"), MetricConventions.defaults());
        assertEquals((1 / 2.0 + 2 / 5.0) / 2, ap[0], EPS);
        assertEquals(1.0, ap[1], EPS, "query 2's only judged document is ranked first of its empty list");
        assertTrue(e.coverage().describe().contains("1 scored but not judged"), e.coverage().describe());
    }

    @Test
    void trecEvalTiesOrderIdsDescendingByByte() throws Exception {
        Judgments j = Judgments.readQrels(write("q", "1 0 d10 1\n1 0 d2 0\n1 0 d9 0\n"));
        Run run = Run.read(write("r", "1 d10 1\n1 d2 1\n1 d9 1\n"));
        // Bytes descending: d9 > d2 > d10, so the relevant d10 is third.
        assertEquals(1 / 3.0, RunEvaluation.of(j, run, TieOrder.TREC_EVAL).perQuery(Metric.parse("mrr"),
                MetricConventions.defaults())[0], EPS);
        assertEquals(1.0, RunEvaluation.of(j, run, TieOrder.STABLE).perQuery(Metric.parse("mrr"),
                MetricConventions.defaults())[0], EPS);
        assertEquals(1 / 3.0, RunEvaluation.of(j, run, TieOrder.PESSIMISTIC).perQuery(Metric.parse("mrr"),
                MetricConventions.defaults())[0], EPS);
    }

    @Test
    void letorGradesAreNamedByCommentsOrPositionsAndScoreLinesPairWithThem() throws Exception {
        Path named = write("n.txt", "2 qid:1 1:0.5 # docid = A\n0 qid:1 1:0.1 # docid = B\n1 qid:2 1:0 # docid = C\n");
        Judgments byComment = Judgments.readLetor(named, LetorOptions.DEFAULT, new DocIds(null));
        assertEquals(List.of("A", "B"), List.copyOf(byComment.queries().get("1").keySet()));
        Path plain = write("p.txt", "2 1:0.5\n0 1:0.1\n1 1:0\n");
        write("p.txt.query", "2\n1\n");
        Judgments byPosition = Judgments.readLetor(plain, LetorOptions.DEFAULT, new DocIds(null));
        assertEquals(List.of("0", "1"), List.copyOf(byPosition.queries().get("1").keySet()));
        assertTrue(byPosition.source().contains("position"), byPosition.source());
        Run scores = Run.ofScoreLines(write("pred.txt", "0.1\n0.9\n3\n"), byPosition);
        assertEquals(0.9, scores.queries().get("1").get("1"), 0.0);
        EvalInputException e = assertThrows(EvalInputException.class, () -> Run.ofScoreLines(write("short.txt", "1\n"),
                byPosition));
        assertTrue(e.getMessage().contains("has 1 scores, but"), e.getMessage());
        assertThrows(EvalInputException.class, () -> Run.ofScoreLines(write("long.txt", "1\n2\n3\n4\n"), byPosition));
    }
}
