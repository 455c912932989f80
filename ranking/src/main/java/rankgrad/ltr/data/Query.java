package rankgrad.ltr.data;

import java.util.Objects;

/**
 * One query's documents: a dense row-major feature matrix ({@code docs x features}) and one
 * relevance grade per document.
 *
 * @param qid the query id as written in the file
 * @param features feature columns (the same for every query of a dataset)
 * @param x feature values, {@code docs * features} floats, row-major
 * @param labels relevance grades, one per document
 */
public record Query(String qid, int features, float[] x, float[] labels) {

    public Query {
        Objects.requireNonNull(qid, "qid");
        if (features < 0 || x.length != labels.length * features) {
            throw new IllegalArgumentException("query " + qid + ": " + x.length + " feature values for " + labels.length
                    + " documents of " + features + " features");
        }
    }

    /** Number of documents. */
    public int docs() {
        return labels.length;
    }

    /** Feature f of document d. */
    public float feature(int d, int f) {
        return x[d * features + f];
    }

    /** Whether some document has a grade above 0. */
    public boolean hasRelevant() {
        for (float l : labels) {
            if (l > 0) {
                return true;
            }
        }
        return false;
    }

    /** The same documents and labels with other feature values (e.g. normalized). */
    public Query withX(float[] newX) {
        return new Query(qid, features, newX, labels);
    }
}
