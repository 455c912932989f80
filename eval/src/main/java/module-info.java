/**
 * Evaluation of external runs: TREC run and qrels files scored with the exact metrics, per query
 * and in tables with significance tests.
 */
module rankgrad.eval {
    requires transitive rankgrad.letor;

    exports rankgrad.ltr.eval;
}
