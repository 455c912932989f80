package rankgrad.ltr.model;

/**
 * A model produced a score that is NaN or infinite, or a hidden activation on the way to one: a
 * weight, a batch-norm statistic or a normalization statistic is so large that the network
 * overflows float32. Such a model cannot rank the documents, so {@link Scorer} refuses to return
 * its scores.
 */
public final class NonFiniteScoreException extends ArithmeticException {
    private final String qid;
    private final int document;
    private final float score;
    private final String layer;

    NonFiniteScoreException(String qid, int document, float score) {
        super("the model's score of document " + document + " (0-based) of query " + qid + " is " + score
                + ": a weight or a normalization statistic overflows float32, so the model cannot rank these documents");
        this.qid = qid;
        this.document = document;
        this.score = score;
        this.layer = null;
    }

    NonFiniteScoreException(String qid, int document, float value, String layer) {
        super("the model's layer " + layer + " gives " + value + " for document " + document + " (0-based) of query " + qid
                + ": a weight or a normalization statistic overflows float32 inside the network, so the model cannot rank"
                + " these documents");
        this.qid = qid;
        this.document = document;
        this.score = value;
        this.layer = layer;
    }

    /** The query whose document got the score. */
    public String qid() {
        return qid;
    }

    /** The document's 0-based index within its query. */
    public int document() {
        return document;
    }

    /** The score (or the hidden activation, see {@link #layer()}): NaN or an infinity. */
    public float score() {
        return score;
    }

    /**
     * The layer whose output went non-finite first ({@code layers.<index> (<module>)}), or null
     * when the hidden activations were finite and the score itself is not.
     */
    public String layer() {
        return layer;
    }
}
