package rankgrad.ltr;

import java.util.Arrays;
import java.util.Objects;

/**
 * A ragged batch of queries: the documents of all queries laid end to end, with
 * {@code offsets[q] .. offsets[q+1]} the documents of query q. Scores for the batch are one flat
 * vector of the same length; no padding, no masks (DESIGN section 1).
 *
 * @param offsets query boundaries, {@code offsets[0] == 0}, non-decreasing, last = documents
 * @param labels relevance grades per document (0 = not relevant), finite and non-negative
 */
public record QueryBatch(int[] offsets, float[] labels) {

    public QueryBatch {
        Objects.requireNonNull(offsets, "offsets");
        Objects.requireNonNull(labels, "labels");
        if (offsets.length == 0 || offsets[0] != 0) {
            throw new IllegalArgumentException("offsets must start with 0");
        }
        for (int q = 0; q + 1 < offsets.length; q++) {
            if (offsets[q + 1] < offsets[q]) {
                throw new IllegalArgumentException("offsets decrease at query " + q + ": " + offsets[q] + " > " + offsets[q + 1]);
            }
        }
        if (offsets[offsets.length - 1] != labels.length) {
            throw new IllegalArgumentException("offsets end at " + offsets[offsets.length - 1] + " but there are "
                    + labels.length + " labels");
        }
        for (int i = 0; i < labels.length; i++) {
            if (!(labels[i] >= 0) || Float.isInfinite(labels[i])) {
                throw new IllegalArgumentException("label " + labels[i] + " of document " + i + " is not a finite grade >= 0");
            }
        }
    }

    /** A batch from per-query label arrays. */
    public static QueryBatch of(float[]... perQuery) {
        int[] offsets = new int[perQuery.length + 1];
        for (int q = 0; q < perQuery.length; q++) {
            offsets[q + 1] = offsets[q] + perQuery[q].length;
        }
        float[] labels = new float[offsets[perQuery.length]];
        for (int q = 0; q < perQuery.length; q++) {
            System.arraycopy(perQuery[q], 0, labels, offsets[q], perQuery[q].length);
        }
        return new QueryBatch(offsets, labels);
    }

    /** Number of queries. */
    public int queries() {
        return offsets.length - 1;
    }

    /** Total number of documents. */
    public int documents() {
        return labels.length;
    }

    /** Index of query q's first document. */
    public int start(int q) {
        return offsets[q];
    }

    /** Number of documents of query q. */
    public int size(int q) {
        return offsets[q + 1] - offsets[q];
    }

    /** Whether query q has a document with label > 0. */
    public boolean hasRelevant(int q) {
        for (int i = offsets[q]; i < offsets[q + 1]; i++) {
            if (labels[i] > 0) {
                return true;
            }
        }
        return false;
    }

    /** The labels of query q (a copy). */
    public float[] labelsOf(int q) {
        return Arrays.copyOfRange(labels, offsets[q], offsets[q + 1]);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QueryBatch b && Arrays.equals(offsets, b.offsets) && Arrays.equals(labels, b.labels);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(offsets) + Arrays.hashCode(labels);
    }

    @Override
    public String toString() {
        return "QueryBatch[" + queries() + " queries, " + documents() + " documents]";
    }
}
