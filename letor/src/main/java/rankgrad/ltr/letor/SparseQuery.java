package rankgrad.ltr.letor;

import rankgrad.ltr.data.Query;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One query's documents as read, before the feature count is known: per document a label and
 * its (0-based index, value) pairs, all in flat growing arrays.
 */
final class SparseQuery {
    final String qid;
    /** The line of its first document, for messages. */
    final long firstLine;
    private int docs;
    private float[] labels = new float[16];
    /** Document d's pairs are at [rowEnd[d - 1], rowEnd[d]) (from 0 for d = 0). */
    private int[] rowEnd = new int[16];
    private int pairs;
    private int[] index = new int[64];
    private float[] value = new float[64];
    /** Each document's comment, kept only when the reader was asked for comments. */
    private final List<String> comments = new ArrayList<>();

    SparseQuery(String qid, long firstLine) {
        this.qid = qid;
        this.firstLine = firstLine;
    }

    /** Adds a document from pairs {@code index[0, n)} (0-based) and {@code value[0, n)}. */
    void add(float label, int[] idx, float[] val, int n) {
        if (docs == labels.length) {
            labels = Arrays.copyOf(labels, 2 * docs);
            rowEnd = Arrays.copyOf(rowEnd, 2 * docs);
        }
        if (pairs + n > index.length) {
            int size = Math.max(pairs + n, 2 * index.length);
            index = Arrays.copyOf(index, size);
            value = Arrays.copyOf(value, size);
        }
        System.arraycopy(idx, 0, index, pairs, n);
        System.arraycopy(val, 0, value, pairs, n);
        pairs += n;
        labels[docs] = label;
        rowEnd[docs] = pairs;
        docs++;
    }

    /**
     * Shrinks the arrays to what they hold: a whole-file read keeps every query until the end, and
     * millions of small queries must not each keep their growth slack.
     */
    void trim() {
        labels = Arrays.copyOf(labels, docs);
        rowEnd = Arrays.copyOf(rowEnd, docs);
        index = Arrays.copyOf(index, pairs);
        value = Arrays.copyOf(value, pairs);
    }

    /** Keeps the comment of the document added last. */
    void addComment(String comment) {
        comments.add(comment);
    }

    /** The documents' comments, in order (empty unless the reader kept them). */
    List<String> comments() {
        return List.copyOf(comments);
    }

    /** The documents' grades, a copy. */
    float[] labels() {
        return Arrays.copyOf(labels, docs);
    }

    /** Number of documents. */
    int docs() {
        return docs;
    }

    /** The dense query with {@code features} columns (every index read is below it). */
    Query densify(int features) {
        float[] x = new float[docs * features];
        int from = 0;
        for (int d = 0; d < docs; d++) {
            int row = d * features;
            for (int t = from; t < rowEnd[d]; t++) {
                // an index at or above the width is a dropped column (LetorReader's dropWider)
                if (index[t] < features) {
                    x[row + index[t]] = value[t];
                }
            }
            from = rowEnd[d];
        }
        return new Query(qid, features, x, Arrays.copyOf(labels, docs));
    }
}
