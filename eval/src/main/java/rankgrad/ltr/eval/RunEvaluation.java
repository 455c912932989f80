package rankgrad.ltr.eval;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;

/**
 * A run matched to judgments, ready for the exact metrics: per judged query (in the judgments'
 * order) the grades and scores of its documents, laid out so that {@link Metric#perQuery(double[],
 * QueryBatch, MetricConventions)} with {@link TieOrder#metricTies()} orders ties as the
 * {@link TieOrder} says.
 *
 * <p>Matching (counted in {@link Coverage}): a scored document without a judgment has grade 0; a
 * judged document the run does not score is placed below every scored document of its query, the
 * less relevant of them first, which gives it the worst rank it could have (for metrics with a
 * cutoff at or below the number of scored documents it does not count at all; for AP and nDCG it
 * counts in the ideal, as in trec_eval); a query of the run without judgments is skipped.
 *
 * @param run the run's name
 * @param qids the judged queries, in the judgments' order
 * @param batch their grades
 * @param scores their scores, laid out like the batch
 * @param ties the tie order applied
 * @param coverage what matched and what did not
 */
public record RunEvaluation(String run, List<String> qids, QueryBatch batch, double[] scores, TieOrder ties,
        Coverage coverage) {

    /** Byte order of the UTF-8 ids, like C's strcmp. */
    private static final Comparator<String> BYTES = (a, b) -> Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8),
            b.getBytes(StandardCharsets.UTF_8));

    private record Doc(String id, float grade, double score) {
    }

    /** Matches {@code run} to {@code judgments}. */
    public static RunEvaluation of(Judgments judgments, Run run, TieOrder ties) {
        List<String> qids = new ArrayList<>();
        List<float[]> labels = new ArrayList<>();
        List<double[]> scores = new ArrayList<>();
        long judged = 0;
        long extra = 0;
        long missing = 0;
        long missingRelevant = 0;
        int notInRun = 0;
        for (Map.Entry<String, Map<String, Float>> q : judgments.queries().entrySet()) {
            Map<String, Float> grades = q.getValue();
            Map<String, Double> scored = run.queries().getOrDefault(q.getKey(), Map.of());
            if (scored.isEmpty()) {
                notInRun++;
            }
            List<Doc> docs = new ArrayList<>();
            double lowest = Double.POSITIVE_INFINITY;
            for (Map.Entry<String, Double> d : scored.entrySet()) {
                Float grade = grades.get(d.getKey());
                if (grade == null) {
                    extra++;
                } else {
                    judged++;
                }
                docs.add(new Doc(d.getKey(), grade == null ? 0f : grade, d.getValue()));
                lowest = Math.min(lowest, d.getValue());
            }
            if (ties == TieOrder.TREC_EVAL) {
                docs.sort((a, b) -> BYTES.compare(b.id(), a.id()));
            }
            List<Doc> absent = new ArrayList<>();
            for (Map.Entry<String, Float> g : grades.entrySet()) {
                if (!scored.containsKey(g.getKey())) {
                    absent.add(new Doc(g.getKey(), g.getValue(), 0));
                }
            }
            // Stable sort: equal grades keep the judgments' order.
            absent.sort(Comparator.comparingDouble(Doc::grade));
            double s = docs.isEmpty() ? 0 : lowest;
            for (Doc a : absent) {
                s = Math.nextDown(s);
                docs.add(new Doc(a.id(), a.grade(), s));
                missing++;
                if (a.grade() > 0) {
                    missingRelevant++;
                }
            }
            float[] y = new float[docs.size()];
            double[] x = new double[docs.size()];
            for (int i = 0; i < y.length; i++) {
                y[i] = docs.get(i).grade();
                x[i] = docs.get(i).score();
            }
            qids.add(q.getKey());
            labels.add(y);
            scores.add(x);
        }
        int notJudged = (int) run.queries().keySet().stream().filter(k -> !judgments.queries().containsKey(k)).count();
        double[] flat = scores.stream().flatMapToDouble(Arrays::stream).toArray();
        return new RunEvaluation(run.name(), List.copyOf(qids), QueryBatch.of(labels.toArray(float[][]::new)), flat, ties,
                new Coverage(judged, extra, missing, missingRelevant, notJudged, notInRun));
    }

    /** Per-query values of {@code metric} (NaN: excluded by the no-relevant policy). */
    public double[] perQuery(Metric metric, MetricConventions conventions) {
        return metric.perQuery(scores, batch, conventions.withTies(ties.metricTies()));
    }
}
