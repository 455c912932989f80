package rankgrad.ltr.metric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.QueryBatch;

/** Hand-computed values of every metric and every convention. */
class MetricTest {
    // The expected values below are closed forms evaluated in double; the code sums a few terms
    // of the same closed forms in another order, so only rounding of a few ulps can differ.
    private static final double EPS = 1e-12;
    private static final double INV_LOG2_3 = 1 / (Math.log(3) / Math.log(2));

    /** Scores already descending: ranked labels [0, 2, 1, 0], gains [0, 3, 1, 0]. */
    private static final float[] SCORES = {3f, 2f, 1f, 0f};
    private static final float[] LABELS = {0f, 2f, 1f, 0f};
    private static final MetricConventions DEFAULTS = MetricConventions.defaults();

    private static double value(String metric) {
        return Metric.parse(metric).value(SCORES, LABELS, DEFAULTS);
    }

    @Test
    void dcgAndNdcgAtAndWithoutCutoff() {
        double dcg = 3 * INV_LOG2_3 + 1 * 0.5;
        double idcg = 3 + 1 * INV_LOG2_3;
        assertEquals(dcg, value("dcg"), EPS);
        assertEquals(dcg, value("dcg@4"), EPS);
        assertEquals(3 * INV_LOG2_3, value("dcg@2"), EPS);
        assertEquals(dcg / idcg, value("ndcg"), EPS);
        assertEquals(0.6590018, value("ndcg"), 1e-7); // the same number as a literal, 7 digits
        assertEquals(3 * INV_LOG2_3 / idcg, value("ndcg@2"), EPS);
        assertEquals(0.0, value("ndcg@1"), 0.0);
    }

    @Test
    void precisionDividesByKEvenPastTheList() {
        assertEquals(0.0, value("p@1"), 0.0);
        assertEquals(1.0 / 2, value("p@2"), EPS);
        assertEquals(2.0 / 3, value("p@3"), EPS);
        assertEquals(2.0 / 6, value("p@6"), EPS);
        assertEquals(2.0 / 4, value("precision"), EPS);
    }

    @Test
    void averagePrecisionDividesByMinOfKAndRelevant() {
        // Relevant at ranks 2 and 3: P@2 = 1/2, P@3 = 2/3.
        assertEquals((1.0 / 2 + 2.0 / 3) / 2, value("map"), EPS);
        assertEquals((1.0 / 2) / 2, value("map@2"), EPS);
        assertEquals(0.0, value("ap@1"), 0.0);
        // Ranked labels [1, 0, 1, 1]: three relevant, so AP@2 divides by min(2, 3) = 2 and AP by 3.
        float[] labels = {1f, 0f, 1f, 1f};
        assertEquals(1.0 / 2, Metric.parse("map@2").value(SCORES, labels, DEFAULTS), EPS);
        assertEquals((1 + 2.0 / 3 + 3.0 / 4) / 3, Metric.parse("map").value(SCORES, labels, DEFAULTS), EPS);
    }

    @Test
    void errAndNerrUseTheGradeScaleMaximum() {
        // ymax = 4: R = [0, 3/16, 1/16, 0]; ideal order [2, 1, 0, 0].
        double err = 3.0 / 16 / 2 + (13.0 / 16) * (1.0 / 16) / 3;
        double ideal = 3.0 / 16 + (13.0 / 16) * (1.0 / 16) / 2;
        assertEquals(85.0 / 768, err, EPS);
        assertEquals(err, value("err"), EPS);
        assertEquals(err / ideal, value("nerr@10"), EPS);
        assertEquals(170.0 / 327, value("nerr"), EPS);
        assertEquals(3.0 / 32, value("err@2"), EPS);
        // ymax = 2: R = [0, 3/4, 1/4, 0].
        MetricConventions ymax2 = DEFAULTS.withYmax(2);
        assertEquals(3.0 / 8 + (1.0 / 4) * (1.0 / 4) / 3, Metric.parse("err").value(SCORES, LABELS, ymax2), EPS);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metric.parse("err").value(SCORES, new float[] {0f, 3f, 1f, 0f}, ymax2));
        assertTrue(e.getMessage().contains("ymax"), e.getMessage());
    }

    @Test
    void reciprocalRankOfTheFirstRelevantWithinTheCutoff() {
        assertEquals(0.5, value("mrr"), 0.0);
        assertEquals(0.5, value("mrr@2"), 0.0);
        assertEquals(0.0, value("mrr@1"), 0.0);
    }

    @Test
    void stableTiesKeepInputOrderAndPessimisticPutLessRelevantFirst() {
        float[] scores = {1f, 1f, 1f};
        float[] labels = {2f, 0f, 1f};
        MetricConventions pessimistic = DEFAULTS.withTies(Ties.PESSIMISTIC);
        double idcg = 3 + INV_LOG2_3;
        assertEquals((3 + 0.5) / idcg, Metric.parse("ndcg").value(scores, labels, DEFAULTS), EPS);
        assertEquals((INV_LOG2_3 + 1.5) / idcg, Metric.parse("ndcg").value(scores, labels, pessimistic), EPS);
        assertEquals(1.0, Metric.parse("mrr").value(scores, labels, DEFAULTS), 0.0);
        assertEquals(0.5, Metric.parse("mrr").value(scores, labels, pessimistic), 0.0);
        // Only tied documents move: the strictly best score stays first under both conventions.
        float[] partly = {2f, 1f, 1f};
        float[] partlyLabels = {0f, 1f, 0f};
        assertEquals(0.5, Metric.parse("mrr").value(partly, partlyLabels, DEFAULTS), 0.0);
        assertEquals(1.0 / 3, Metric.parse("mrr").value(partly, partlyLabels, pessimistic), EPS);
    }

    @Test
    void signedZerosTie() {
        // If +0.0 ranked above -0.0, the relevant document would be first and RR would be 1.
        float[] labels = {0f, 1f};
        assertEquals(0.5, Metric.parse("mrr").value(new float[] {-0.0f, 0.0f}, labels, DEFAULTS), 0.0);
        assertEquals(0.5, Metric.parse("mrr").value(new double[] {-0.0, 0.0}, labels, DEFAULTS), 0.0);
    }

    @Test
    void shortListsSumTheDocumentsTheyHave() {
        float[] labels = {1f, 0f};
        float[] worst = {1f, 2f};
        // IDCG@5 uses the top min(5, 2) labels: gain 1 at rank 1.
        assertEquals(INV_LOG2_3, Metric.parse("ndcg@5").value(worst, labels, DEFAULTS), EPS);
        assertEquals(INV_LOG2_3, Metric.parse("dcg@5").value(worst, labels, DEFAULTS), EPS);
        assertEquals(1.0 / 5, Metric.parse("p@5").value(worst, labels, DEFAULTS), EPS);
        assertEquals(1.0 / 2, Metric.parse("map@5").value(worst, labels, DEFAULTS), EPS);
        assertEquals(1.0, Metric.parse("ndcg@5").value(new float[] {2f, 1f}, labels, DEFAULTS), EPS);
        assertEquals(1.0, Metric.parse("nerr@5").value(new float[] {2f, 1f}, labels, DEFAULTS), EPS);
    }

    @Test
    void noRelevantPolicyDecidesTheMean() {
        QueryBatch batch = QueryBatch.of(new float[] {1f, 0f}, new float[] {0f, 0f});
        float[] scores = {1f, 2f, 5f, 3f};
        Metric ndcg = Metric.parse("ndcg");
        MetricResult excluded = ndcg.evaluate(scores, batch, DEFAULTS);
        assertEquals(INV_LOG2_3, excluded.mean(), EPS);
        assertEquals(1, excluded.counted());
        assertEquals(1, excluded.withoutRelevant());
        assertTrue(Double.isNaN(ndcg.perQuery(scores, batch, DEFAULTS)[1]));
        MetricResult zero = ndcg.evaluate(scores, batch, DEFAULTS.withNoRelevant(NoRelevantPolicy.ZERO));
        assertEquals(INV_LOG2_3 / 2, zero.mean(), EPS);
        assertEquals(2, zero.counted());
        MetricResult one = ndcg.evaluate(scores, batch, DEFAULTS.withNoRelevant(NoRelevantPolicy.ONE));
        assertEquals((INV_LOG2_3 + 1) / 2, one.mean(), EPS);
        // The policy applies to unnormalized metrics too, so all metrics average the same queries.
        assertEquals(0.0, Metric.parse("dcg").perQuery(scores, batch, DEFAULTS.withNoRelevant(NoRelevantPolicy.ZERO))[1]);
        assertTrue(Double.isNaN(Metric.parse("p@1").evaluate(new float[] {1f, 2f},
                QueryBatch.of(new float[] {0f, 0f}), DEFAULTS).mean()));
    }

    @Test
    void floatAndDoubleScoresGiveTheSameValues() {
        QueryBatch batch = QueryBatch.of(new float[] {0f, 2f, 1f, 0f}, new float[] {3f, 0f, 1f});
        float[] f = {0.25f, -1.5f, 3f, 0.25f, 7f, 7f, -2f};
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; i++) {
            d[i] = f[i];
        }
        for (String name : new String[] {"ndcg@3", "dcg", "p@2", "map", "err@2", "nerr", "mrr"}) {
            Metric metric = Metric.parse(name);
            for (Ties ties : Ties.values()) {
                MetricConventions c = DEFAULTS.withTies(ties);
                double[] expected = metric.perQuery(f, batch, c);
                double[] actual = metric.perQuery(d, batch, c);
                for (int q = 0; q < expected.length; q++) {
                    assertEquals(expected[q], actual[q], 0.0, name + " " + ties + " query " + q);
                }
            }
        }
    }

    @Test
    void nonFiniteScoresNameTheQuery() {
        QueryBatch batch = QueryBatch.of(new float[] {1f}, new float[] {1f, 0f});
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Metric.parse("ndcg").perQuery(new float[] {1f, 2f, Float.NaN}, batch, DEFAULTS));
        assertTrue(e.getMessage().contains("query 1"), e.getMessage());
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> Metric.parse("ndcg").perQuery(new double[] {1, Double.POSITIVE_INFINITY, 0}, batch, DEFAULTS));
        assertTrue(d.getMessage().contains("query 1"), d.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> Metric.parse("ndcg").perQuery(new float[] {1f, 2f}, batch, DEFAULTS));
    }

    @Test
    void parsesNamesAndPrintsThemCanonically() {
        assertEquals(Metric.at(MetricKind.NDCG, 5), Metric.parse("NDCG@5"));
        assertEquals(Metric.at(MetricKind.AP, 10), Metric.parse("map@10"));
        assertEquals(Metric.at(MetricKind.AP, 10), Metric.parse("ap@10"));
        assertEquals(Metric.at(MetricKind.PRECISION, 3), Metric.parse("p@3"));
        assertEquals(Metric.at(MetricKind.ERR, 10), Metric.parse(" err@10 "));
        assertEquals(Metric.at(MetricKind.NERR, 5), Metric.parse("nerr@5"));
        assertEquals(Metric.full(MetricKind.MRR), Metric.parse("mrr"));
        assertEquals("map@10", Metric.parse("ap@10").toString());
        assertEquals("p@3", Metric.parse("precision@3").toString());
        assertEquals("mrr", Metric.parse("MRR").toString());
        for (String bad : new String[] {"ndcg@0", "ndcg@x", "foo@3", "ndcg@-1", ""}) {
            assertThrows(IllegalArgumentException.class, () -> Metric.parse(bad), bad);
        }
    }

    @Test
    void reportsPrintTheConventions() {
        assertEquals("ties=stable (input order); queries without relevant docs: excluded from the mean; "
                + "gain=2^y-1, discount=1/log2(1+r); k>m: DCG sums m docs, IDCG top min(k,m), P@k divides by k, "
                + "AP@k by min(k,|rel|); ERR ymax=4", DEFAULTS.describe());
        MetricConventions other = DEFAULTS.withTies(Ties.PESSIMISTIC).withNoRelevant(NoRelevantPolicy.ONE).withYmax(2.5);
        assertTrue(other.describe().contains("pessimistic"));
        assertTrue(other.describe().contains("count as 1"));
        assertTrue(other.describe().contains("ymax=2.5"));
        String report = Metric.parse("ndcg@2").evaluate(SCORES, QueryBatch.of(LABELS), other).report();
        assertTrue(report.startsWith("ndcg@2 = "), report);
        assertTrue(report.endsWith("[" + other.describe() + "]"), report);
        assertThrows(IllegalArgumentException.class, () -> DEFAULTS.withYmax(0));
        assertThrows(IllegalArgumentException.class, () -> DEFAULTS.withYmax(Double.NaN));
    }
}
