package rankgrad.ltr.loss;

import rankgrad.ltr.QueryBatch;
import rankgrad.autodiff.Var;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * A ranking loss: a scalar to minimize from the flat scores of a ragged batch, the mean over the
 * batch's queries of a per-query loss. Implementations are custom-gradient nodes
 * ({@link rankgrad.autodiff.Op}) that do the per-query pairwise work inside one node, so the graph
 * never holds an N x N tensor.
 *
 * <p>Conventions shared by every loss: a query with no relevant document contributes 0 and a zero
 * gradient (it still counts in the mean's denominator); a query of one document works; NaN or
 * infinite scores raise {@link IllegalArgumentException} naming the query, and so do scores of the
 * wrong shape and a batch without queries; the value and gradient take the scores' dtype; results
 * do not depend on the number of threads. The losses of the library are listed, parsed by name
 * and tested together through the registry {@link rankgrad.ltr.loss.Losses}.
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

    /**
     * The loss as used at training step {@code step} on a shard of that step's batch whose query 0
     * is query {@code firstQuery} of the whole batch: the draws for its query q are those of query
     * {@code firstQuery + q} of the batch ({@link rankgrad.ltr.rank.TieBreak}), so the shards of a
     * batch together draw exactly what the whole batch draws, however it is split. {@code
     * atStep(step, 0)} is {@code atStep(step)}. Losses that draw random numbers override it; the
     * default, for losses that draw none, is {@link #atStep(long)}.
     */
    default RankingLoss atStep(long step, int firstQuery) {
        return atStep(step);
    }

    /**
     * The loss as used by a training run of {@code totalSteps} steps; {@code
     * rankgrad.ltr.train.Trainer#fit} calls it with the run's epochs times its batches per epoch.
     * A loss whose schedule spans the run (REG-SHF-SDCG made by {@code Losses.parse}) returns a copy
     * set to that length; other losses return themselves.
     */
    default RankingLoss forRun(long totalSteps) {
        return this;
    }

    /**
     * The same loss with its pairwise work on {@code backend} (the scalar reference, a TornadoVM
     * backend, a user's); losses without pairwise work (ListNet, ListMLE) return themselves.
     */
    default RankingLoss withBackend(PairwiseBackend backend) {
        return this;
    }

    /** The name used in model files, logs and on the command line (e.g. "ndcg-type3"). */
    String name();
}
