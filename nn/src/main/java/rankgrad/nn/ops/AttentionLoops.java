package rankgrad.nn.ops;

import java.util.Arrays;
import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.kernels.AttentionKernels;
import rankgrad.nn.kernels.NnKernelProvider;
import rankgrad.simd.Parallel;

/**
 * The loops of listwise self-attention on float64 arrays, separate from the graph logic of
 * {@link AttentionScores}, {@link AttentionMix} and {@link RaggedSoftmax}: they
 * walk the lists and heads and hand each list's block to the attention kernels ({@link
 * AttentionKernels}, a scalar reference and a Vector API implementation with the same bits, chosen
 * by {@link NnKernelProvider#attention()}). Matrices are row-major N x w; head h reads columns
 * h d .. h d + d - 1, d = w / heads; scores follow {@link AttentionLayout}. The row conversions
 * ({@link #widen}, {@link #narrow}) are shared with {@link LayerNormLoops}.
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
    /**
     * Spare doubles after a score block in scratch: the masked vectors of a block's last row (two
     * of at most 8 lanes from the last full one) then stay inside the array, where the Vector API
     * takes its fast path instead of checking the mask lane by lane (or deoptimizing).
     */
    static final int BLOCK_PAD = 2 * AttentionKernels.SUM_LANES;

    private AttentionLoops() {
    }

    /** {@code values} as a tensor of {@code dtype} (wrapped for float64, rounded once for float32). */
    static Tensor tensor(double[] values, DType dtype, int... shape) {
        Tensor t = Tensor.of(values, shape);
        return dtype == DType.F64 ? t : t.to(dtype);
    }

    /** Runs {@code body} for every list q, split into tasks by the list count alone. */
    static void forEachList(AttentionLayout layout, IntConsumer body) {
        forEachListRange(layout, (from, to) -> {
            for (int q = from; q < to; q++) {
                body.accept(q);
            }
        });
    }

    /** Runs {@code body} on the lists [from, to) of each task, split by the list count alone. */
    private static void forEachListRange(AttentionLayout layout, Range body) {
        int lists = layout.lists();
        int tasks = Parallel.tasksFor(lists, LISTS_PER_TASK);
        Parallel.forEach(tasks, t -> body.run((int) ((long) lists * t / tasks), (int) ((long) lists * (t + 1) / tasks)));
    }

    /** The lists [from, to) of one task. */
    @FunctionalInterface
    private interface Range {
        void run(int from, int to);
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
     * The forward pass of {@link ScaledDotProductAttention}, one list at a time and within it head
     * by head, each score block worked on while it is in cache: the list's rows of Q, K and V
     * widened to float64 into the task's scratch, the logits into {@code y[q]} (the list's m x m
     * blocks head after head, allocated by the task), rounded to float32 for a float32 output as
     * {@link AttentionScores} rounds its output, the softmax of each row in place ({@link
     * RaggedSoftmax}), then O += P V with P the softmax rounded again ({@link
     * AttentionMix} reads the rounded tensor), and the list's rows of O rounded once into {@code
     * out}. The same kernel calls on the same values as the three ops, so the same bits; the
     * conversions run in parallel on rows in cache instead of whole matrices on one thread.
     */
    static void attention(Tensor qt, Tensor kt, Tensor vt, AttentionLayout layout, double scale, double[][] y,
            Tensor out) {
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        boolean round = out.dtype() == DType.F32;
        forEachListRange(layout, (from, to) -> {
            int mMax = longest(layout, from, to);
            double[] qb = new double[mMax * w];
            double[] kb = new double[mMax * w];
            double[] vb = new double[mMax * w];
            double[] ob = new double[mMax * w];
            double[] p = round ? new double[mMax * mMax] : null;
            for (int q = from; q < to; q++) {
                int m = layout.size(q);
                int first = layout.start(q);
                widen(qt, first, m, qb);
                widen(kt, first, m, kb);
                widen(vt, first, m, vb);
                Arrays.fill(ob, 0, m * w, 0);
                // Allocated (and zeroed) here, in parallel and in cache, not as one array before the pass.
                double[] yq = new double[heads * m * m + BLOCK_PAD];
                y[q] = yq;
                for (int h = 0; h < heads; h++) {
                    int sb = h * m * m;
                    int at = h * d;
                    k.scoresF64(qb, at, kb, at, w, m, d, scale, yq, sb);
                    if (round) {
                        roundToFloat(yq, sb, yq, sb, m * m);
                    }
                    for (int i = 0; i < m; i++) {
                        k.softmaxF64(yq, yq, sb + i * m, m);
                    }
                    if (round) {
                        roundToFloat(yq, sb, p, 0, m * m);
                        k.mixF64(p, 0, vb, at, w, m, d, 1, ob, at);
                    } else {
                        k.mixF64(yq, sb, vb, at, w, m, d, 1, ob, at);
                    }
                }
                narrow(ob, first, m, out);
            }
        });
    }

    /**
     * The backward pass of {@link #attention} with g = dL/dO, block by block as the three ops'
     * backward passes compute it: dP = g V^T (rounded when the gradient is float32), dV = P^T g,
     * dS = the softmax's backward of dP (rounded), dQ = scale dS K, dK = scale dS^T Q. dP and dS
     * share one m x m block of scratch, never a score-sized array; each list's rows of dQ, dK, dV
     * are summed in scratch and rounded once into the outputs. Any output may be null (not needed).
     */
    static void attentionBackward(Tensor qt, Tensor kt, Tensor vt, double[][] y, AttentionLayout layout,
            double scale, Tensor g, Tensor dq, Tensor dk, Tensor dv) {
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        boolean round = g.dtype() == DType.F32;
        boolean scores = dq != null || dk != null;
        forEachListRange(layout, (from, to) -> {
            int mMax = longest(layout, from, to);
            int block = mMax * w;
            double[] qb = new double[block];
            double[] kb = new double[block];
            double[] vb = new double[block];
            double[] gb = new double[block];
            double[] dqb = new double[block];
            double[] dkb = new double[block];
            double[] dvb = new double[block];
            // The softmax kernels read y, g and write dx at one offset: y's block is copied beside dS.
            double[] yb = new double[mMax * mMax + BLOCK_PAD];
            double[] ds = new double[mMax * mMax + BLOCK_PAD];
            double[] p = new double[mMax * mMax];
            for (int q = from; q < to; q++) {
                int m = layout.size(q);
                int first = layout.start(q);
                int rows = m * w;
                widen(g, first, m, gb);
                if (scores) {
                    widen(qt, first, m, qb);
                    widen(kt, first, m, kb);
                    widen(vt, first, m, vb);
                    Arrays.fill(dqb, 0, rows, 0);
                    Arrays.fill(dkb, 0, rows, 0);
                }
                Arrays.fill(dvb, 0, rows, 0);
                double[] yq = y[q];
                for (int h = 0; h < heads; h++) {
                    int sb = h * m * m;
                    int at = h * d;
                    if (dv != null) {
                        if (round) {
                            roundToFloat(yq, sb, p, 0, m * m);
                            k.mixTransposedF64(p, 0, gb, at, w, m, d, 1, dvb, at);
                        } else {
                            k.mixTransposedF64(yq, sb, gb, at, w, m, d, 1, dvb, at);
                        }
                    }
                    if (!scores) {
                        continue;
                    }
                    k.scoresF64(gb, at, vb, at, w, m, d, 1, ds, 0);
                    if (round) {
                        roundToFloat(ds, 0, ds, 0, m * m);
                    }
                    System.arraycopy(yq, sb, yb, 0, m * m);
                    for (int i = 0; i < m; i++) {
                        k.softmaxBackwardF64(yb, ds, ds, i * m, m);
                    }
                    if (round) {
                        roundToFloat(ds, 0, ds, 0, m * m);
                    }
                    if (dq != null) {
                        k.mixF64(ds, 0, kb, at, w, m, d, scale, dqb, at);
                    }
                    if (dk != null) {
                        k.mixTransposedF64(ds, 0, qb, at, w, m, d, scale, dkb, at);
                    }
                }
                if (dq != null) {
                    narrow(dqb, first, m, dq);
                }
                if (dk != null) {
                    narrow(dkb, first, m, dk);
                }
                if (dv != null) {
                    narrow(dvb, first, m, dv);
                }
            }
        });
    }

    /** The most documents of one list among lists from .. to - 1. */
    private static int longest(AttentionLayout layout, int from, int to) {
        int m = 0;
        for (int q = from; q < to; q++) {
            m = Math.max(m, layout.size(q));
        }
        return m;
    }

    /** Rows first .. first + m - 1 of the matrix t as float64 into to[0 .. m cols). */
    static void widen(Tensor t, int first, int m, double[] to) {
        int w = t.cols();
        widenFlat(t, first * w, m * w, to);
    }

    /** Elements from .. from + n - 1 of t (flat, row-major) as float64 into to[0 .. n). */
    static void widenFlat(Tensor t, int from, int n, double[] to) {
        if (t.dtype() == DType.F64) {
            System.arraycopy(t.f64(), from, to, 0, n);
            return;
        }
        float[] a = t.f32();
        for (int i = 0; i < n; i++) {
            to[i] = a[from + i];
        }
    }

    /** from[0 .. m cols) into rows first .. first + m - 1 of t, rounded once to t's dtype. */
    static void narrow(double[] from, int first, int m, Tensor t) {
        int w = t.cols();
        if (t.dtype() == DType.F64) {
            System.arraycopy(from, 0, t.f64(), first * w, m * w);
            return;
        }
        float[] a = t.f32();
        int at = first * w;
        for (int i = 0; i < m * w; i++) {
            a[at + i] = (float) from[i];
        }
    }

    /** to[toOff + i] = (float) from[fromOff + i] for i &lt; n: what a float32 tensor between two ops would hold. */
    private static void roundToFloat(double[] from, int fromOff, double[] to, int toOff, int n) {
        for (int i = 0; i < n; i++) {
            to[toOff + i] = (float) from[fromOff + i];
        }
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
}
