package rankgrad.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import rankgrad.ltr.metric.MetricResult;

/**
 * Exact metrics of a scored query frame.
 *
 * @param results one per metric, in the order asked: mean over the counted queries, queries
 *        counted, queries without a relevant document, and the conventions
 * @param perQuery one row per query: {@code order} (long), {@code qid} (string),
 *        {@code relevant} (boolean: some label above 0), then one double column per metric named
 *        as the metric prints ({@code ndcg@10}; quote it in SQL: {@code `ndcg@10`}); NaN for a
 *        query excluded by {@code NoRelevantPolicy.EXCLUDE};
 *        cached (computed once for the means; {@code unpersist()} it when done)
 */
public record SparkEvaluation(List<MetricResult> results, Dataset<Row> perQuery) {
    public SparkEvaluation {
        results = List.copyOf(results);
    }
}
