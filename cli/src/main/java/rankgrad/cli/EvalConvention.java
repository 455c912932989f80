package rankgrad.cli;

import rankgrad.ltr.eval.TieOrder;
import rankgrad.ltr.metric.Gain;
import rankgrad.ltr.metric.NoRelevantPolicy;

/**
 * {@code eval --convention}: the metric conventions of a reference tool in one word, so that its
 * published numbers can be reproduced (docs/evaluation.md). Each sets the gain, the tie order and
 * what a query without a relevant document contributes; {@link #LETOR} also replaces the metrics'
 * formulas by the LETOR 4.0 script's ({@link rankgrad.ltr.eval.LetorScript}).
 */
enum EvalConvention {
    /** trec_eval 10.0: gain y, ties by document id descending, no-relevant queries count as 0. */
    TREC_EVAL(Gain.LINEAR, TieOrder.TREC_EVAL, NoRelevantPolicy.ZERO, "ndcg_cut.10,map_cut.10,P.5,recip_rank,map,ndcg"),
    /**
     * LightGBM's ndcg (and CatBoost's benchmark counting): gain 2^y - 1, ties in input order, a
     * query without a relevant document counts as 1.
     */
    LIGHTGBM(Gain.EXPONENTIAL, TieOrder.STABLE, NoRelevantPolicy.ONE, "ndcg@1,3,5,10"),
    /**
     * The LETOR 4.0 evaluation script: first two positions undiscounted, NDCG@k = 0 for a list
     * shorter than k, no-relevant queries kept as 0, ties in input order.
     */
    LETOR(Gain.EXPONENTIAL, TieOrder.STABLE, NoRelevantPolicy.ZERO, "ndcg@1,3,5,10,p@1,3,5,10,map");

    final Gain gain;
    final TieOrder ties;
    final NoRelevantPolicy noRelevant;
    /** The metrics the tool reports, used when --metrics is not given. */
    final String metrics;

    EvalConvention(Gain gain, TieOrder ties, NoRelevantPolicy noRelevant, String metrics) {
        this.gain = gain;
        this.ties = ties;
        this.noRelevant = noRelevant;
        this.metrics = metrics;
    }

    /** The report's conventions line. */
    String describe(String usual) {
        if (this != LETOR) {
            return usual + " (--convention " + name().toLowerCase(java.util.Locale.ROOT) + ")";
        }
        return "LETOR 4.0 script (Eval-Score-4.0.pl): gain=2^y-1, discount=1 at ranks 1-2 then 1/log2(r);"
                + " NDCG@k=0 for lists shorter than k; queries without relevant docs count as 0; ties=input order;"
                + " P@k divides by k; MAP over the whole list";
    }
}
