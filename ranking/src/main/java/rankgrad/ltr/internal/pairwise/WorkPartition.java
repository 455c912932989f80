package rankgrad.ltr.internal.pairwise;

import java.util.Arrays;

/**
 * Splits the work of a ragged batch into tasks for {@link rankgrad.simd.Parallel#forEach}.
 * The split depends only on the query offsets, never on the thread count, and every task writes
 * only the outputs of its own documents, so results are bit-identical for any number of threads.
 */
public final class WorkPartition {
    private WorkPartition() {
    }

    /** Rows of a split query come in multiples of this, so SIMD row blocks stay full. */
    public static final int ROW_ALIGN = 64;
    /**
     * At most this many tasks per query: a row task may allocate O(m) per-query buffers, so the
     * total allocated for a query stays O(m), and 32 tasks still feed many cores.
     */
    public static final int MAX_TASKS_PER_QUERY = 32;

    /**
     * Boundaries {@code b} of row tasks: task t computes rows (documents) {@code [b[t], b[t+1])},
     * each row costing its query's size m in pair terms. Queries with m^2 &lt;= {@code pairsPerTask}
     * stay whole and are grouped until a task holds about {@code pairsPerTask} pairs; a larger
     * query gets tasks of its own, of max(pairsPerTask / m, m / {@value #MAX_TASKS_PER_QUERY}) rows
     * rounded up to a multiple of {@value #ROW_ALIGN}, counted from the query's first row.
     */
    public static int[] rowBlocks(int[] offsets, long pairsPerTask) {
        int queries = offsets.length - 1;
        int[] bounds = new int[16];
        int count = 1;
        long filled = 0;
        for (int q = 0; q < queries; q++) {
            long m = offsets[q + 1] - offsets[q];
            if (m * m <= pairsPerTask) {
                filled += m * m;
                if (filled >= pairsPerTask) {
                    bounds = append(bounds, count++, offsets[q + 1]);
                    filled = 0;
                }
                continue;
            }
            if (filled > 0) {
                bounds = append(bounds, count++, offsets[q]);
                filled = 0;
            }
            long rows = Math.max(Math.max(1, pairsPerTask / m), (m + MAX_TASKS_PER_QUERY - 1) / MAX_TASKS_PER_QUERY);
            rows = (rows + ROW_ALIGN - 1) / ROW_ALIGN * ROW_ALIGN;
            for (long row = offsets[q] + rows; row < offsets[q + 1]; row += rows) {
                bounds = append(bounds, count++, (int) row);
            }
            bounds = append(bounds, count++, offsets[q + 1]);
        }
        int documents = offsets[queries];
        if (bounds[count - 1] != documents) {
            bounds = append(bounds, count++, documents);
        }
        return Arrays.copyOf(bounds, count);
    }

    private static int[] append(int[] bounds, int count, int value) {
        int[] out = count == bounds.length ? Arrays.copyOf(bounds, 2 * count) : bounds;
        out[count] = value;
        return out;
    }

    /**
     * Boundaries {@code b} of query tasks: task t handles queries {@code [b[t], b[t+1])}, about
     * {@code docsPerTask} documents a task (a query is never split).
     */
    public static int[] queryBlocks(int[] offsets, int docsPerTask) {
        int queries = offsets.length - 1;
        int[] bounds = new int[16];
        int count = 1;
        int filled = 0;
        for (int q = 0; q < queries; q++) {
            filled += offsets[q + 1] - offsets[q];
            if (filled >= docsPerTask && q + 1 < queries) {
                bounds = append(bounds, count++, q + 1);
                filled = 0;
            }
        }
        bounds = append(bounds, count++, queries);
        return Arrays.copyOf(bounds, count);
    }

    /** The query that owns document {@code row}: the largest q with offsets[q] &lt;= row (skips empty queries). */
    public static int queryOf(int[] offsets, int row) {
        int lo = 0;
        int hi = offsets.length - 2;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (offsets[mid] <= row) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
