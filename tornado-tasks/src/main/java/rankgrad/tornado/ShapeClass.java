package rankgrad.tornado;

/**
 * The buffer sizes of a plan: powers of two at least as large as a batch's documents and queries,
 * so that batches of similar size share one compiled task graph and one set of device buffers,
 * and a growing batch size costs O(log N) rebuilds in total.
 *
 * @param docs capacity in documents (flat rows)
 * @param queries capacity in queries
 */
record ShapeClass(int docs, int queries) {
    /** Smallest document capacity: a plan for a tiny batch would only be rebuilt soon. */
    static final int MIN_DOCS = 1024;
    /** Smallest query capacity. */
    static final int MIN_QUERIES = 16;

    /** The smallest shape class holding {@code docs} documents in {@code queries} queries. */
    static ShapeClass of(int docs, int queries) {
        return new ShapeClass(ceilPow2(Math.max(docs, MIN_DOCS)), ceilPow2(Math.max(queries, MIN_QUERIES)));
    }

    /** Whether a batch of this size fits. */
    boolean holds(int docs, int queries) {
        return docs <= this.docs && queries <= this.queries;
    }

    /** The smallest class holding both this one and the given batch (plans only grow). */
    ShapeClass grownFor(int docs, int queries) {
        return of(Math.max(docs, this.docs), Math.max(queries, this.queries));
    }

    private static int ceilPow2(int n) {
        if (n > 1 << 30) {
            throw new IllegalArgumentException("batch too large for one device buffer: " + n);
        }
        return Integer.highestOneBit(n) == n ? n : Integer.highestOneBit(n) << 1;
    }
}
