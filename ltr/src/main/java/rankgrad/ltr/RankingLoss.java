package rankgrad.ltr;

import rankgrad.autodiff.Var;

/**
 * A ranking loss: a scalar to minimize from the flat scores of a ragged batch, the mean over the
 * batch's queries of a per-query loss. Implementations are custom-gradient nodes
 * ({@link rankgrad.autodiff.Op}) that do the per-query pairwise work inside one node, so the graph
 * never holds an N x N tensor.
 *
 * <p>Conventions shared by every loss: a query with no relevant document contributes 0 and a zero
 * gradient (it still counts in the mean's denominator); a query of one document works; NaN or
 * infinite scores raise {@link IllegalArgumentException} naming the query.
 */
public interface RankingLoss {

    /**
     * The loss of {@code scores} (a vector of {@code batch.documents()} values) on {@code batch}.
     */
    Var loss(Var scores, QueryBatch batch);

    /**
     * The loss as used at training step {@code step} (1-based). Losses whose value follows a
     * schedule (REG-SHF-SDCG) or that draw random tie-breaks return a copy configured for that
     * step: its draws are keyed by the step, so a resumed run draws exactly what the uninterrupted
     * run drew. Other losses return themselves.
     */
    default RankingLoss atStep(long step) {
        return this;
    }

    /** The name used in model files, logs and on the command line (e.g. "ndcg-type3"). */
    String name();
}
