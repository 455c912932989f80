package rankgrad.autodiff.ops;

import rankgrad.simd.Parallel;

/**
 * A fixed partition of the rows of an n x c matrix, for row passes and column reductions (sums per
 * column over the rows) run in parallel. Each chunk reduces its rows on its own and the partial
 * results are combined in chunk order, so the sums do not depend on the thread count. The chunk height depends only on c: a
 * chunk is about 128 KiB of float32, so a second pass over it runs from cache.
 */
final class RowChunks {
    private static final int ELEMENTS_PER_CHUNK = 1 << 15;

    private RowChunks() {
    }

    /** Rows per chunk for matrices with {@code cols} columns. */
    static int height(int cols) {
        return Math.max(8, ELEMENTS_PER_CHUNK / Math.max(1, cols));
    }

    /** Number of chunks covering {@code rows} rows (at least 1). */
    static int count(int rows, int cols) {
        int h = height(cols);
        return Math.max(1, (rows + h - 1) / h);
    }

    /** The rows [from, to) of one chunk. */
    @FunctionalInterface
    interface Rows {
        void run(int from, int to);
    }

    /** Accumulates the rows [from, to) of one chunk into {@code acc}: zeroed arrays of one entry per column. */
    @FunctionalInterface
    interface Reduction {
        void reduce(int from, int to, double[][] acc);
    }

    /** Runs {@code body} on every chunk of the {@code rows x cols} matrix, chunks in parallel. */
    static void forEach(int rows, int cols, Rows body) {
        int h = height(cols);
        Parallel.forEach(count(rows, cols), t -> body.run(t * h, Math.min(rows, (t + 1) * h)));
    }

    /**
     * Runs {@code body} on every chunk, chunks in parallel, each into its own {@code accumulators}
     * arrays of {@code cols} zeros; returns them as {@code partial[a][t]}, accumulator a of chunk t,
     * for the caller to combine in chunk order.
     */
    static double[][][] reduce(int rows, int cols, int accumulators, Reduction body) {
        int h = height(cols);
        int chunks = count(rows, cols);
        double[][][] partial = new double[accumulators][chunks][];
        Parallel.forEach(chunks, t -> {
            double[][] acc = new double[accumulators][cols];
            body.reduce(t * h, Math.min(rows, (t + 1) * h), acc);
            for (int a = 0; a < accumulators; a++) {
                partial[a][t] = acc[a];
            }
        });
        return partial;
    }

    /** partial[0] + partial[1] + ... element by element, in chunk order (into partial[0]). */
    static double[] addInOrder(double[][] partial) {
        double[] total = partial[0];
        for (int t = 1; t < partial.length; t++) {
            for (int j = 0; j < total.length; j++) {
                total[j] += partial[t][j];
            }
        }
        return total;
    }

    /**
     * Column sums of the row-major {@code rows x cols} matrix {@code a}, accumulated in double per
     * chunk and combined in chunk order.
     */
    static double[] columnSums(float[] a, int rows, int cols) {
        return addInOrder(reduce(rows, cols, 1, (from, to, acc) -> {
            double[] s = acc[0];
            for (int i = from; i < to; i++) {
                int o = i * cols;
                for (int j = 0; j < cols; j++) {
                    s[j] += a[o + j];
                }
            }
        })[0]);
    }

    /** Column sums of a float64 matrix, in row order. */
    static double[] columnSums(double[] a, int rows, int cols) {
        double[] s = new double[cols];
        for (int i = 0; i < rows; i++) {
            int o = i * cols;
            for (int j = 0; j < cols; j++) {
                s[j] += a[o + j];
            }
        }
        return s;
    }
}
