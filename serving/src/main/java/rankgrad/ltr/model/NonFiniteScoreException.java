package rankgrad.ltr.model;

/**
 * A model produced a score that is NaN or infinite: a weight, a batch-norm statistic or a
 * normalization statistic is so large that the network overflows float32. Such a model cannot rank
 * the documents, so {@link Scorer} refuses to return its scores.
 */
public final class NonFiniteScoreException extends ArithmeticException {
    private final String qid;
    private final int document;
    private final float score;

    NonFiniteScoreException(String qid, int document, float score) {
        super("the model's score of document " + document + " (0-based) of query " + qid + " is " + score
                + ": a weight or a normalization statistic overflows float32, so the model cannot rank these documents");
        this.qid = qid;
        this.document = document;
        this.score = score;
    }

    /** The query whose document got the score. */
    public String qid() {
        return qid;
    }

    /** The document's 0-based index within its query. */
    public int document() {
        return document;
    }

    /** The score: NaN or an infinity. */
    public float score() {
        return score;
    }
}
