/**
 * Exact IR metrics for evaluation (DESIGN section 3.1): {@link rankgrad.ltr.metric.Metric} by name
 * ("ndcg@5", "map@10", "err@10"), the formulas on ranked labels ({@link
 * rankgrad.ltr.metric.ExactMetrics}, whose gains, discounts and ideal DCG the losses share), and
 * the conventions every report prints ({@link rankgrad.ltr.metric.MetricConventions}). All public
 * types are API.
 */
package rankgrad.ltr.metric;
