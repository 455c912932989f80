package rankgrad.ltr.eval;

import rankgrad.ltr.metric.Ties;

/**
 * How documents with equal scores are ordered when a run is evaluated: the two {@link Ties} of the
 * metrics, or trec_eval's order.
 */
public enum TieOrder {
    /** Tied documents keep the order of the run (for a model's scores: the data's order). */
    STABLE,
    /** The less relevant of tied documents first (the worst any tie-breaking could give). */
    PESSIMISTIC,
    /**
     * trec_eval 10.0's order: score descending, then document id descending by byte (strcmp of
     * the UTF-8 ids, reversed), so of ids "d2" and "d10" tied, "d2" is ranked first.
     */
    TREC_EVAL;

    /** The metric's tie rule once the documents are laid out in this order's input order. */
    public Ties metricTies() {
        return this == PESSIMISTIC ? Ties.PESSIMISTIC : Ties.STABLE;
    }

    /** For a report header. */
    public String describe() {
        return switch (this) {
            case STABLE -> "stable (run order)";
            case PESSIMISTIC -> "pessimistic (less relevant first)";
            case TREC_EVAL -> "trec_eval (document id descending)";
        };
    }
}
