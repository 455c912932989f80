package rankgrad.nn.ops;

import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.kernels.AttentionKernels;
import rankgrad.nn.kernels.NnKernelProvider;
import rankgrad.simd.Parallel;

/**
 * The loops of listwise self-attention on float64 arrays, separate from the graph logic of
 * {@link AttentionScores}, {@link AttentionMix}, {@link RaggedSoftmax} and {@link LayerNorm}: they
 * walk the lists and heads and hand each list's block to the attention kernels ({@link
 * AttentionKernels}, a scalar reference and a Vector API implementation with the same bits, chosen
 * by {@link NnKernelProvider#attention()}). Matrices are row-major N x w; head h reads columns
 * h d .. h d + d - 1, d = w / heads; scores follow {@link AttentionLayout}. The layer norm's loops
 * (O(N w), a small share of an epoch) are plain Java here.
 *
 * <p>Determinism: work is split over lists (softmax rows) with a partition that depends on the
 * list (row) count alone, every list writes only its own rows and score block, and each kernel
 * sums every element in a fixed order, so results are bit-identical for any thread count.
 */
final class AttentionLoops {
    /** Lists per parallel task: enough work to outweigh scheduling a task. */
    private static final int LISTS_PER_TASK = 8;
    /** Softmax rows per parallel task (a row of a 50-document list is about 50 exponentials). */
    private static final int ROWS_PER_TASK = 256;

    private AttentionLoops() {
    }

    /** {@code values} as a tensor of {@code dtype} (wrapped for float64, rounded once for float32). */
    static Tensor tensor(double[] values, DType dtype, int... shape) {
        Tensor t = Tensor.of(values, shape);
        return dtype == DType.F64 ? t : t.to(dtype);
    }

    /** Runs {@code body} for every list q, split into tasks by the list count alone. */
    static void forEachList(AttentionLayout layout, IntConsumer body) {
        int lists = layout.lists();
        int tasks = Parallel.tasksFor(lists, LISTS_PER_TASK);
        Parallel.forEach(tasks, t -> {
            int from = (int) ((long) lists * t / tasks);
            int to = (int) ((long) lists * (t + 1) / tasks);
            for (int q = from; q < to; q++) {
                body.accept(q);
            }
        });
    }

    /** Runs {@code body} for every (list q, head h) with the list's first row and its first score of head h. */
    private static void forEachBlock(AttentionLayout layout, BlockBody body) {
        int heads = layout.heads();
        int[] blocks = layout.blockStarts();
        forEachList(layout, q -> {
            int m = layout.size(q);
            for (int h = 0; h < heads; h++) {
                body.run(layout.start(q), m, h, blocks[q] + h * m * m);
            }
        });
    }

    /** The work on one list's head: its first row, its m documents, the head, its first score. */
    @FunctionalInterface
    private interface BlockBody {
        void run(int firstRow, int m, int head, int scoreStart);
    }

    /** s(q, h, i, j) = scale sum_c qm[i, hd + c] km[j, hd + c] for documents i, j of list q. */
    static void scores(double[] qm, double[] km, int w, AttentionLayout layout, double scale, double[] s) {
        AttentionKernels k = NnKernelProvider.attention();
        int d = w / layout.heads();
        forEachBlock(layout, (o, m, h, sb) -> k.scoresF64(qm, o * w + h * d, km, o * w + h * d, w, m, d, scale, s, sb));
    }

    /**
     * The gradients of {@link #scores}: dq[i] = scale sum_j ds(i, j) k[j] and
     * dk[j] = scale sum_i ds(i, j) q[i], per head's columns (either output may be null).
     */
    static void scoresBackward(double[] qm, double[] km, int w, AttentionLayout layout, double scale, double[] ds,
            double[] dq, double[] dk) {
        AttentionKernels k = NnKernelProvider.attention();
        int d = w / layout.heads();
        forEachBlock(layout, (o, m, h, sb) -> {
            int at = o * w + h * d;
            if (dq != null) {
                k.mixF64(ds, sb, km, at, w, m, d, scale, dq, at);
            }
            if (dk != null) {
                k.mixTransposedF64(ds, sb, qm, at, w, m, d, scale, dk, at);
            }
        });
    }

    /** out[i, hd + c] = sum_j p(q, h, i, j) v[j, hd + c] for documents i, j of list q. */
    static void mix(double[] p, double[] v, int w, AttentionLayout layout, double[] out) {
        AttentionKernels k = NnKernelProvider.attention();
        int d = w / layout.heads();
        forEachBlock(layout, (o, m, h, sb) -> k.mixF64(p, sb, v, o * w + h * d, w, m, d, 1, out, o * w + h * d));
    }

    /**
     * The gradients of {@link #mix}: dp(i, j) = sum_c g[i, hd + c] v[j, hd + c] and
     * dv[j, hd + c] = sum_i p(i, j) g[i, hd + c] (either output may be null).
     */
    static void mixBackward(double[] p, double[] v, int w, AttentionLayout layout, double[] g, double[] dp,
            double[] dv) {
        AttentionKernels k = NnKernelProvider.attention();
        int d = w / layout.heads();
        forEachBlock(layout, (o, m, h, sb) -> {
            int at = o * w + h * d;
            if (dp != null) {
                k.scoresF64(g, at, v, at, w, m, d, 1, dp, sb);
            }
            if (dv != null) {
                k.mixTransposedF64(p, sb, g, at, w, m, d, 1, dv, at);
            }
        });
    }

    /**
     * y = softmax of each row x[rows[r] .. rows[r+1]-1] (exponentials of x - max(row), so nothing
     * overflows; an empty row writes nothing), rows split into tasks by their count alone.
     */
    static void softmaxRows(double[] x, int[] rows, double[] y) {
        AttentionKernels k = NnKernelProvider.attention();
        forEachRow(rows, (from, to) -> k.softmaxF64(x, y, from, to - from));
    }

    /** dx_i = y_i (g_i - sum_k g_k y_k) within each row. */
    static void softmaxRowsBackward(double[] y, double[] g, int[] rows, double[] dx) {
        AttentionKernels k = NnKernelProvider.attention();
        forEachRow(rows, (from, to) -> k.softmaxBackwardF64(y, g, dx, from, to - from));
    }

    /** Runs {@code body} on each row [rows[r], rows[r+1]), rows split into tasks by the row count alone. */
    private static void forEachRow(int[] rows, RowBody body) {
        int count = rows.length - 1;
        int tasks = Parallel.tasksFor(count, ROWS_PER_TASK);
        Parallel.forEach(tasks, t -> {
            int to = (int) ((long) count * (t + 1) / tasks);
            for (int r = (int) ((long) count * t / tasks); r < to; r++) {
                body.run(rows[r], rows[r + 1]);
            }
        });
    }

    /** The work on one softmax row, elements from .. to - 1. */
    @FunctionalInterface
    private interface RowBody {
        void run(int from, int to);
    }

    /**
     * Per row of the n x w matrix x: xhat = (x - mean) / sqrt(var + eps) (biased variance) into
     * {@code xhat}, 1 / sqrt(var + eps) into {@code inv}, y = gamma xhat + beta into {@code y}.
     */
    static void layerNorm(double[] x, int n, int w, double[] gamma, double[] beta, double eps, double[] xhat,
            double[] inv, double[] y) {
        for (int r = 0; r < n; r++) {
            int at = r * w;
            double mean = 0;
            for (int c = 0; c < w; c++) {
                mean += x[at + c];
            }
            mean /= w;
            double var = 0;
            for (int c = 0; c < w; c++) {
                double dev = x[at + c] - mean;
                var += dev * dev;
            }
            var /= w;
            double is = 1 / Math.sqrt(var + eps);
            inv[r] = is;
            for (int c = 0; c < w; c++) {
                double xh = (x[at + c] - mean) * is;
                xhat[at + c] = xh;
                y[at + c] = gamma[c] * xh + beta[c];
            }
        }
    }

    /**
     * The gradients of {@link #layerNorm}: with gh = g gamma,
     * dx = inv (gh - mean(gh) - xhat mean(gh xhat)) per row, dgamma = sum_rows g xhat,
     * dbeta = sum_rows g (any output may be null).
     */
    static void layerNormBackward(double[] xhat, double[] inv, int n, int w, double[] gamma, double[] g, double[] dx,
            double[] dgamma, double[] dbeta) {
        for (int r = 0; r < n; r++) {
            int at = r * w;
            if (dx != null) {
                double meanG = 0;
                double meanGx = 0;
                for (int c = 0; c < w; c++) {
                    double gh = g[at + c] * gamma[c];
                    meanG += gh;
                    meanGx += gh * xhat[at + c];
                }
                meanG /= w;
                meanGx /= w;
                for (int c = 0; c < w; c++) {
                    dx[at + c] = inv[r] * (g[at + c] * gamma[c] - meanG - xhat[at + c] * meanGx);
                }
            }
            for (int c = 0; c < w; c++) {
                if (dgamma != null) {
                    dgamma[c] += g[at + c] * xhat[at + c];
                }
                if (dbeta != null) {
                    dbeta[c] += g[at + c];
                }
            }
        }
    }
}
