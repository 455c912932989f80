package rankgrad.spark;

import java.io.Serializable;

/**
 * One scored document (a JavaBean for Spark's encoder): what {@code rankgrad predict} writes per
 * line, with the query's order, the document's position in the query and its label.
 */
public final class DocumentScore implements Serializable {
    private static final long serialVersionUID = 1L;

    private long order;
    private String qid;
    private String docId;
    private int position;
    private int rank;
    private float score;
    private float label;

    /** For the encoder. */
    public DocumentScore() {
    }

    DocumentScore(long order, String qid, String docId, int position, int rank, float score, float label) {
        this.order = order;
        this.qid = qid;
        this.docId = docId;
        this.position = position;
        this.rank = rank;
        this.score = score;
        this.label = label;
    }

    /** The query's order ({@link QueryRow#getOrder()}). */
    public long getOrder() {
        return order;
    }

    public void setOrder(long order) {
        this.order = order;
    }

    /** The query id. */
    public String getQid() {
        return qid;
    }

    public void setQid(String qid) {
        this.qid = qid;
    }

    /** The document's name ({@link QueryRow#getDocIds()}). */
    public String getDocId() {
        return docId;
    }

    public void setDocId(String docId) {
        this.docId = docId;
    }

    /** The document's 0-based position in its query's input order. */
    public int getPosition() {
        return position;
    }

    public void setPosition(int position) {
        this.position = position;
    }

    /** 1-based rank: score descending, ties in input order. */
    public int getRank() {
        return rank;
    }

    public void setRank(int rank) {
        this.rank = rank;
    }

    /** The model's score. */
    public float getScore() {
        return score;
    }

    public void setScore(float score) {
        this.score = score;
    }

    /** The document's relevance grade from the data. */
    public float getLabel() {
        return label;
    }

    public void setLabel(float label) {
        this.label = label;
    }
}
