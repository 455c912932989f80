package rankgrad.ltr.data;

import java.util.List;
import java.util.Objects;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * Queries with a common number of features, in file order.
 *
 * @param name where the data came from (a file name, or a generator's description)
 * @param features feature columns of every query
 * @param queries the queries, unmodifiable
 */
public record Dataset(String name, int features, List<Query> queries) {

    public Dataset {
        Objects.requireNonNull(name, "name");
        queries = List.copyOf(queries);
        for (Query q : queries) {
            if (q.features() != features) {
                throw new IllegalArgumentException(name + ": query " + q.qid() + " has " + q.features()
                        + " features, dataset has " + features);
            }
        }
    }

    /** Total number of documents. */
    public long documents() {
        long n = 0;
        for (Query q : queries) {
            n += q.docs();
        }
        return n;
    }

    /**
     * The largest label (0 for no documents): the grade scale's maximum as the data shows it, e.g.
     * for ERR's ymax when none is given.
     */
    public float maxLabel() {
        float max = 0;
        for (Query q : queries) {
            for (float l : q.labels()) {
                max = Math.max(max, l);
            }
        }
        return max;
    }

    /** Number of queries. */
    public int size() {
        return queries.size();
    }

    /** The features of the chosen queries stacked into one N x features matrix, in the given order. */
    public Tensor featureMatrix(int[] queryIndices) {
        int n = 0;
        for (int q : queryIndices) {
            n += queries.get(q).docs();
        }
        if ((long) n * features > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(name + ": " + n + " documents of " + features
                    + " features are more floats than one batch (a Java array) holds; use fewer queries per batch");
        }
        float[] x = new float[n * features];
        int at = 0;
        for (int q : queryIndices) {
            float[] src = queries.get(q).x();
            System.arraycopy(src, 0, x, at, src.length);
            at += src.length;
        }
        return Tensor.of(x, n, features);
    }

    /** The ragged label batch of the chosen queries, in the given order. */
    public QueryBatch labelBatch(int[] queryIndices) {
        float[][] labels = new float[queryIndices.length][];
        for (int i = 0; i < queryIndices.length; i++) {
            labels[i] = queries.get(queryIndices[i]).labels();
        }
        return QueryBatch.of(labels);
    }

    /** Indices 0..size-1, for batching all queries in file order. */
    public int[] allQueries() {
        int[] all = new int[queries.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }
}
