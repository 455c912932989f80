package rankgrad.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * Scoring and evaluation stream a partition: each output row takes one input query, so a task
 * holds the query it works on, not its whole partition a second time (regression: both collected
 * the partition into a list before returning its first row). No Spark session: the partition
 * functions run on plain iterators, as a task runs them.
 */
class PartitionStreamingTest {
    private static final int WIDTH = 3;
    private static final int QUERIES = 5;

    /** Query rows 0..n-1 of 2 + i documents, counting how many were taken. */
    private static final class Counting implements Iterator<QueryRow> {
        private final int n;
        private int taken;

        Counting(int n) {
            this.n = n;
        }

        @Override
        public boolean hasNext() {
            return taken < n;
        }

        @Override
        public QueryRow next() {
            int i = taken++;
            int docs = 2 + i;
            float[] x = new float[docs * WIDTH];
            float[] labels = new float[docs];
            String[] ids = new String[docs];
            for (int d = 0; d < docs; d++) {
                for (int f = 0; f < WIDTH; f++) {
                    x[d * WIDTH + f] = (d * 7 + f * 3 + i) % 5 - 2f;
                }
                labels[d] = (d + i) % 3;
                ids[d] = Integer.toString(d);
            }
            return new QueryRow("mem", i, "q" + i, labels, x, WIDTH, ids);
        }
    }

    private static final Scorer SCORER = RankingModel.create("linear", WIDTH, new Normalization.QueryZScore(), 5)
            .scorer();

    @Test
    void scoringTakesOneQueryPerScoredQuery() {
        Counting in = new Counting(QUERIES);
        Iterator<QueryRow> out = QueryScorer.scoring(SCORER, in);
        assertEquals(0, in.taken, "nothing read before the first row is asked for");
        for (int i = 1; i <= QUERIES; i++) {
            QueryRow q = out.next();
            assertEquals(i, in.taken, "rows read after " + i + " scored");
            assertArrayEquals(SCORER.score(new Query(q.getQid(), WIDTH, q.getFeatures(), q.getLabels())), q.getScores());
        }
        assertFalse(out.hasNext());
    }

    @Test
    void evaluationTakesOneQueryPerValue() {
        Counting in = new Counting(QUERIES);
        Iterator<QueryRow> scored = QueryScorer.scoring(SCORER, in);
        Metric ndcg = Metric.parse("ndcg@3");
        Iterator<Row> out = QueryEvaluator.values(scored, new Metric[] {ndcg}, MetricConventions.defaults());
        assertEquals(0, in.taken, "nothing read before the first value is asked for");
        for (int i = 1; i <= QUERIES; i++) {
            Row r = out.next();
            assertEquals(i, in.taken, "rows read after " + i + " values");
            assertEquals("q" + (i - 1), r.getString(1));
        }
        assertFalse(out.hasNext());
        // The values themselves are eval's (QueryEvaluatorTest); here only one check that they are the metric's.
        QueryRow q = QueryScorer.scoring(SCORER, new Counting(1)).next();
        Row v = QueryEvaluator.values(List.of(q).iterator(), new Metric[] {ndcg}, MetricConventions.defaults()).next();
        assertEquals(ndcg.value(q.getScores(), q.getLabels(), MetricConventions.defaults()), v.getDouble(3), 0.0);
    }
}
