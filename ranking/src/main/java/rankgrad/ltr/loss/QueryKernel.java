package rankgrad.ltr.loss;

import java.util.SplittableRandom;

/**
 * The per-query work of a ranking loss: the loss of one query and its gradient with respect to the
 * query's scores, in one fused pass with O(m) extra memory.
 */
@FunctionalInterface
interface QueryKernel {

    /**
     * Returns the loss of the query whose documents are {@code from .. from+m)} and adds
     * {@code weight * d loss / d s_i} into {@code grad[from + i]}. Called only for queries with at
     * least one relevant document and finite scores.
     *
     * @param random this query's own generator for tie-breaking, {@code TieBreak.generator(seed,
     *        call, query)}, so results do not depend on threads and twin-sigmoid and LambdaRank with
     *        the same seed break ties alike
     */
    double lossAndGradient(double[] s, float[] labels, int from, int m, SplittableRandom random, double weight,
            double[] grad);
}
