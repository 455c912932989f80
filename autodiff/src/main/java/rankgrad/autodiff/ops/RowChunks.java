package rankgrad.autodiff.ops;

import rankgrad.autodiff.internal.Parallel;

/**
 * A fixed partition of the rows of an n x c matrix for column reductions (sums per column over
 * the rows). Each chunk reduces its rows on its own and the partial results are combined in chunk
 * order, so the sums do not depend on the thread count. The chunk height depends only on c: a
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

    /**
     * Column sums of the row-major {@code rows x cols} matrix {@code a}, accumulated in double per
     * chunk and combined in chunk order.
     */
    static double[] columnSums(float[] a, int rows, int cols) {
        int h = height(cols);
        int chunks = count(rows, cols);
        double[][] partial = new double[chunks][];
        Parallel.forEach(chunks, t -> {
            double[] s = new double[cols];
            int end = Math.min(rows, (t + 1) * h);
            for (int i = t * h; i < end; i++) {
                int o = i * cols;
                for (int j = 0; j < cols; j++) {
                    s[j] += a[o + j];
                }
            }
            partial[t] = s;
        });
        double[] total = partial[0];
        for (int t = 1; t < chunks; t++) {
            for (int j = 0; j < cols; j++) {
                total[j] += partial[t][j];
            }
        }
        return total;
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
