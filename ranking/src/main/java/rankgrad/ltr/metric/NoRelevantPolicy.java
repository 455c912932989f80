package rankgrad.ltr.metric;

/**
 * What a query without any relevant document (no label &gt; 0) contributes to a mean over queries.
 * Such a query has no defined NDCG (0 / 0), so every convention is a choice; reports print it.
 */
public enum NoRelevantPolicy {
    /** Left out of the mean: neither numerator nor denominator (Bruch et al., Sec. 3.5; the default). */
    EXCLUDE,
    /** Counts as 0. */
    ZERO,
    /** Counts as 1 (LightGBM's convention, to compare with its numbers). */
    ONE
}
