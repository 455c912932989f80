package rankgrad.ltr.metric;

/**
 * The mean of a metric over a batch's queries, with how many queries counted and the conventions
 * used, so that no number is reported without its policy.
 *
 * @param metric the metric
 * @param conventions the conventions it was computed under
 * @param mean the mean over the counted queries; NaN when no query counted (every query lacked
 *        relevant documents under {@link NoRelevantPolicy#EXCLUDE}, or the batch is empty)
 * @param counted queries in the mean's denominator
 * @param withoutRelevant queries without a relevant document (excluded, or counted as 0 or 1 by
 *        the policy)
 */
public record MetricResult(Metric metric, MetricConventions conventions, double mean, int counted, int withoutRelevant) {

    /** One line such as {@code ndcg@10 = 0.512345 over 98 queries (2 without relevant docs) [ties=...]}. */
    public String report() {
        return String.format(java.util.Locale.ROOT, "%s = %.6f over %d queries (%d without relevant docs) [%s]",
                metric, mean, counted, withoutRelevant, conventions.describe());
    }
}
