package rankgrad.testkit;

import java.util.Objects;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.metric.MetricKind;
import rankgrad.ltr.metric.NoRelevantPolicy;
import rankgrad.ltr.rank.RankMetric;

/**
 * An exact IR metric with its conventions: what a differentiable metric computed from rank
 * variables must equal when the ranks are exact (Yu et al. 2020, Sec. 3.3: r_bar_p = p at exact
 * ranks, so Eq. 13-16 reduce to the metrics' definitions; docs/design.md §3.3). See
 * {@link MetricLaws}.
 *
 * <pre>{@code
 * ExactMetric.of(RankMetric.ndcg())                      // nDCG over the whole list, 0 without relevant documents
 * new ExactMetric(Metric.parse("ndcg@5"), MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO))
 * }</pre>
 *
 * @param metric the metric and cutoff
 * @param conventions ties (irrelevant here: exact ranks have none), the value of a query without
 *        relevant documents, the grade scale maximum of ERR
 */
public record ExactMetric(Metric metric, MetricConventions conventions) {

    public ExactMetric {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(conventions, "conventions");
    }

    /**
     * The exact metric that rankgrad's differentiable {@code m} equals at exact ranks: Pre@k is
     * P@k (dividing by k even when k &gt; m), AP is AP over the whole list (dividing by the number
     * of relevant documents), nDCG is NDCG over the whole list, nDCG@k NDCG@k, RR the reciprocal
     * rank of the first relevant document (MRR's per-query term), nERR@k is nERR@k with the same
     * grade scale maximum; a query without relevant documents has value 0 (the losses' convention).
     */
    public static ExactMetric of(RankMetric m) {
        MetricConventions zero = MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ZERO);
        return switch (m) {
            case RankMetric.Precision p -> new ExactMetric(Metric.at(MetricKind.PRECISION, p.k()), zero);
            case RankMetric.AveragePrecision ap -> new ExactMetric(Metric.full(MetricKind.AP), zero);
            case RankMetric.Ndcg ndcg -> new ExactMetric(Metric.full(MetricKind.NDCG), zero);
            case RankMetric.NdcgAt ndcg -> new ExactMetric(Metric.at(MetricKind.NDCG, ndcg.k()), zero);
            case RankMetric.ReciprocalRank rr -> new ExactMetric(Metric.full(MetricKind.MRR), zero);
            case RankMetric.Nerr nerr -> new ExactMetric(Metric.at(MetricKind.NERR, nerr.k()), zero.withYmax(nerr.ymax()));
        };
    }

    /**
     * Per query, the metric of the ranking that {@code exactRanks} give (the document of rank 1
     * first): the metric of the scores -r, which have no ties.
     */
    public double[] ofRanks(double[] exactRanks, QueryBatch batch) {
        double[] negated = new double[exactRanks.length];
        for (int i = 0; i < negated.length; i++) {
            negated[i] = -exactRanks[i];
        }
        return metric.perQuery(negated, batch, conventions);
    }

    @Override
    public String toString() {
        return metric + " (" + conventions.describe() + ")";
    }
}
