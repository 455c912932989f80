package rankgrad.ltr.pairwise;

import java.util.Arrays;

/**
 * Splits the work of a ragged batch into tasks for {@link rankgrad.autodiff.Parallel#forEach}.
 * The split depends only on the query offsets, never on the thread count, and every task writes
 * only the outputs of its own documents, so results are bit-identical for any number of threads.
 */
public final class WorkPartition {
    private WorkPartition() {
    }

    /**
     * Boundaries {@code b} of row tasks: task t computes rows (documents) {@code [b[t], b[t+1])},
     * each row costing its query's size m in pair terms, about {@code pairsPerTask} pairs a task.
     * A large query is split over several tasks (one row is never split), many small queries share
     * one.
     */
    public static int[] rowBlocks(int[] offsets, long pairsPerTask) {
        int queries = offsets.length - 1;
        int[] bounds = new int[16];
        int count = 0;
        bounds[count++] = 0;
        long filled = 0;
        for (int q = 0; q < queries; q++) {
            int m = offsets[q + 1] - offsets[q];
            int row = offsets[q];
            while (row < offsets[q + 1]) {
                long rowsThatFit = Math.max(1, (pairsPerTask - filled + m - 1) / m);
                int take = (int) Math.min(offsets[q + 1] - row, rowsThatFit);
                row += take;
                filled += (long) take * m;
                if (filled >= pairsPerTask) {
                    if (count == bounds.length) {
                        bounds = Arrays.copyOf(bounds, 2 * count);
                    }
                    bounds[count++] = row;
                    filled = 0;
                }
            }
        }
        int documents = offsets[queries];
        if (bounds[count - 1] != documents) {
            if (count == bounds.length) {
                bounds = Arrays.copyOf(bounds, count + 1);
            }
            bounds[count++] = documents;
        }
        return Arrays.copyOf(bounds, count);
    }

    /**
     * Boundaries {@code b} of query tasks: task t handles queries {@code [b[t], b[t+1])}, about
     * {@code docsPerTask} documents a task (a query is never split).
     */
    public static int[] queryBlocks(int[] offsets, int docsPerTask) {
        int queries = offsets.length - 1;
        int[] bounds = new int[16];
        int count = 0;
        bounds[count++] = 0;
        int filled = 0;
        for (int q = 0; q < queries; q++) {
            filled += offsets[q + 1] - offsets[q];
            if (filled >= docsPerTask && q + 1 < queries) {
                if (count == bounds.length) {
                    bounds = Arrays.copyOf(bounds, 2 * count);
                }
                bounds[count++] = q + 1;
                filled = 0;
            }
        }
        if (count == bounds.length) {
            bounds = Arrays.copyOf(bounds, count + 1);
        }
        bounds[count++] = queries;
        return Arrays.copyOf(bounds, count);
    }

    /** The query that owns document {@code row}: the largest q with offsets[q] <= row (skips empty queries). */
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
