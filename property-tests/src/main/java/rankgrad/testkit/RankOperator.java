package rankgrad.testkit;

import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;

/**
 * The subject of a ranking law: anything that maps the flat scores of a ragged batch to a Var,
 * such as a rank operator (one rank per document), a metric or a loss (a scalar). A
 * {@link rankgrad.ltr.loss.RankingLoss} is one through {@code loss::loss}; a custom-gradient node
 * through {@code (s, b) -> Var.apply(MyRanks.of(b), s)}.
 *
 * <p>Laws may apply it several times to the same case (a gradient check evaluates it 2 + 2n times),
 * so it must be deterministic: an operator that draws random tie-breaks from a call counter is
 * made afresh inside the lambda, so that every application replays the same draws.
 */
@FunctionalInterface
public interface RankOperator {

    /** The operator applied to {@code scores} (one per document of {@code batch}). */
    Var apply(Var scores, QueryBatch batch);
}
