package rankgrad.testkit;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * One generated input of a ranking property: a ragged batch of queries (labels and query
 * boundaries), one score per document, and a seed for whatever the subject draws at random (tie
 * breaks, output weights of a gradient check). Made by {@link RankingCases}.
 *
 * <p>Every score is a float32 value stored as a double, so an operator run on
 * {@link #tensor(DType) tensor(F32)} and on {@code tensor(F64)} sees the same numbers and only
 * the arithmetic differs. Scores are finite. The arrays are shared, not copied: a property that
 * moves scores works on a copy ({@code c.scores().clone()}, {@link #withScores}).
 *
 * <pre>{@code
 * qt().forAll(RankingCases.tiedScores(4, 10)).checkAssert(c -> {
 *     Var loss = myLoss.loss(Var.param(c.tensor(DType.F64)), c.batch());
 *     ...
 * });
 * }</pre>
 *
 * @param batch the queries: labels and offsets
 * @param scores one score per document of the batch, in the batch's order
 * @param seed a seed drawn with the case, so that a failure's printed case reproduces the subject's draws
 */
public record RankingCase(QueryBatch batch, double[] scores, long seed) {

    public RankingCase {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(scores, "scores");
        if (scores.length != batch.documents()) {
            throw new IllegalArgumentException(scores.length + " scores for " + batch.documents() + " documents");
        }
    }

    /** A case from per-query labels and scores (of equal lengths per query). */
    public static RankingCase of(float[][] labels, double[][] scores, long seed) {
        if (labels.length != scores.length) {
            throw new IllegalArgumentException(labels.length + " label arrays but " + scores.length + " score arrays");
        }
        for (int q = 0; q < labels.length; q++) {
            if (labels[q].length != scores[q].length) {
                throw new IllegalArgumentException("query " + q + " has " + labels[q].length + " labels but "
                        + scores[q].length + " scores");
            }
        }
        return new RankingCase(QueryBatch.of(labels), Arrays.stream(scores).flatMapToDouble(Arrays::stream).toArray(),
                seed);
    }

    /** The same queries and seed with other scores (one per document). */
    public RankingCase withScores(double[] newScores) {
        return new RankingCase(batch, newScores, seed);
    }

    /** Number of queries. */
    public int queries() {
        return batch.queries();
    }

    /** Number of documents of all queries. */
    public int documents() {
        return batch.documents();
    }

    /** The labels of query q (a copy). */
    public float[] labelsOf(int q) {
        return batch.labelsOf(q);
    }

    /** The scores of query q (a copy). */
    public double[] scoresOf(int q) {
        return Arrays.copyOfRange(scores, batch.start(q), batch.start(q) + batch.size(q));
    }

    /** The scores as a vector tensor of {@code dtype} (exact for float32, see the class comment). */
    public Tensor tensor(DType dtype) {
        return Tensor.of(scores.clone(), scores.length).to(dtype);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RankingCase[seed=").append(seed).append(", ").append(queries())
                .append(queries() == 1 ? " query]" : " queries]");
        for (int q = 0; q < queries(); q++) {
            sb.append("\n  query ").append(q).append(": labels ").append(Arrays.toString(labelsOf(q)))
                    .append(" scores ").append(Arrays.toString(scoresOf(q)));
        }
        return sb.toString();
    }
}
