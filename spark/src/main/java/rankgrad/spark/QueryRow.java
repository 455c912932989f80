package rankgrad.spark;

import java.io.Serializable;
import java.util.Arrays;

/**
 * One whole query as a row of a Spark {@code Dataset}: the unit that data frames, scoring and
 * evaluation never split. A mutable JavaBean because Spark's bean encoder needs one (getters,
 * setters, a no-argument constructor); its primitive arrays are encoded as Spark arrays without
 * boxing. The columns are those of the properties ({@link #COLUMNS}).
 *
 * <p>{@code order} keeps the input's order: for a file it increases with the query's place in the
 * files as given (not dense: the split's number in the high 32 bits, the query's place within the
 * split in the low ones), for a documents table it is the smallest order value of the query's
 * documents. Every result that sums over queries sums in this order.
 */
public final class QueryRow implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Column names, as the bean encoder writes them. */
    public static final String[] COLUMNS = {"docIds", "features", "file", "labels", "order", "qid", "scores", "width"};

    private String file;
    private long order;
    private String qid;
    private float[] labels;
    private float[] features;
    private int width;
    private String[] docIds;
    private float[] scores;

    /** For the encoder. */
    public QueryRow() {
    }

    QueryRow(String file, long order, String qid, float[] labels, float[] features, int width, String[] docIds) {
        this.file = file;
        this.order = order;
        this.qid = qid;
        this.labels = labels;
        this.features = features;
        this.width = width;
        this.docIds = docIds;
    }

    /** Number of documents. */
    public int docs() {
        return labels.length;
    }

    /** The file the query was read from (as listed), or the table's name. */
    public String getFile() {
        return file;
    }

    public void setFile(String file) {
        this.file = file;
    }

    /** The query's place in the input (increasing, not dense). */
    public long getOrder() {
        return order;
    }

    public void setOrder(long order) {
        this.order = order;
    }

    /** The query id as written in the data. */
    public String getQid() {
        return qid;
    }

    public void setQid(String qid) {
        this.qid = qid;
    }

    /** One relevance grade per document, in the query's document order. */
    public float[] getLabels() {
        return labels;
    }

    public void setLabels(float[] labels) {
        this.labels = labels;
    }

    /** Raw feature values, {@code docs x width}, row-major. */
    public float[] getFeatures() {
        return features;
    }

    public void setFeatures(float[] features) {
        this.features = features;
    }

    /** Feature columns per document. */
    public int getWidth() {
        return width;
    }

    public void setWidth(int width) {
        this.width = width;
    }

    /**
     * One name per document: the comment's {@code docid = X} (or another key), else the 0-based
     * position in the query, as {@code rankgrad predict} names them.
     */
    public String[] getDocIds() {
        return docIds;
    }

    public void setDocIds(String[] docIds) {
        this.docIds = docIds;
    }

    /** One score per document once scored ({@link QueryScorer}), else null. */
    public float[] getScores() {
        return scores;
    }

    public void setScores(float[] scores) {
        this.scores = scores;
    }

    @Override
    public String toString() {
        return "QueryRow[" + qid + ", order " + order + ", " + (labels == null ? 0 : labels.length) + " docs x " + width
                + (scores == null ? "" : ", scores " + Arrays.toString(scores)) + "]";
    }
}
