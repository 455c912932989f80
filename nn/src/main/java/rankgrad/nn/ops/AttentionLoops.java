package rankgrad.nn.ops;

import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.kernels.AttentionKernels;
import rankgrad.nn.kernels.NnKernelProvider;
import rankgrad.simd.Parallel;

/**
 * The loops of listwise self-attention, separate from the graph logic of {@link AttentionScores},
 * {@link AttentionMix}, {@link RaggedSoftmax} and {@link ScaledDotProductAttention}: they walk the
 * lists and heads and hand each list's block to the attention kernels ({@link AttentionKernels}, a
 * scalar reference and a Vector API implementation with the same bits, chosen by {@link
 * NnKernelProvider#attention()}). Matrices are row-major N x w; head h reads columns
 * h d .. h d + d - 1, d = w / heads; scores follow {@link AttentionLayout}.
 *
 * <p>Float32 to train, float64 to check: the products run in the tensors' dtype, reading the
 * inputs where they lie (a head's block at first row * w + h d, row stride w) and adding into
 * zeroed outputs, so float32 tensors take float32 kernels (twice the lanes, nothing widened or
 * narrowed) and float64 tensors, the gradient checks', keep float64 sums. The softmax is float64
 * in both: a float32 block of logits is widened exactly, and the weights rounded once to float32,
 * as the ops' float32 tensors hold them.
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
    /**
     * Spare floats after a float32 block of scratch: the scores' masked stores of a block's last row
     * (two vectors of at most 16 float lanes from the row's last pair) then stay inside the array.
     */
    private static final int FLOAT_BLOCK_PAD = 4 * AttentionKernels.SUM_LANES;

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

    /**
     * s(q, h, i, j) = scale sum_c qt[i, hd + c] kt[j, hd + c] for documents i, j of list q, into
     * the score vector s, in the tensors' dtype (float32 arithmetic with the scale rounded to float
     * for float32 tensors).
     */
    static void scores(Tensor qt, Tensor kt, AttentionLayout layout, double scale, Tensor s) {
        AttentionKernels k = NnKernelProvider.attention();
        int w = qt.cols();
        int d = w / layout.heads();
        if (s.dtype() == DType.F64) {
            double[] qm = qt.f64();
            double[] km = kt.f64();
            double[] sm = s.f64();
            forEachBlock(layout, (o, m, h, sb) -> k.scoresF64(qm, o * w + h * d, km, o * w + h * d, w, m, d, scale, sm,
                    sb));
        } else {
            float[] qm = qt.f32();
            float[] km = kt.f32();
            float[] sm = s.f32();
            float sc = (float) scale;
            forEachBlock(layout, (o, m, h, sb) -> k.scoresF32(qm, o * w + h * d, km, o * w + h * d, w, m, d, sc, sm, sb));
        }
    }

    /**
     * The gradients of {@link #scores}, added onto dq and dk (zero, of the inputs' dtype; either may
     * be null, not needed): dq[i] += scale sum_j ds(i, j) k[j] and dk[j] += scale sum_i ds(i, j) q[i],
     * per head's columns.
     */
    static void scoresBackward(Tensor qt, Tensor kt, AttentionLayout layout, double scale, Tensor ds, Tensor dq,
            Tensor dk) {
        AttentionKernels k = NnKernelProvider.attention();
        int w = qt.cols();
        int d = w / layout.heads();
        if (ds.dtype() == DType.F64) {
            double[] qm = qt.f64();
            double[] km = kt.f64();
            double[] g = ds.f64();
            double[] dqm = dq == null ? null : dq.f64();
            double[] dkm = dk == null ? null : dk.f64();
            forEachBlock(layout, (o, m, h, sb) -> {
                int at = o * w + h * d;
                if (dqm != null) {
                    k.mixF64(g, sb, km, at, w, m, d, scale, dqm, at);
                }
                if (dkm != null) {
                    k.mixTransposedF64(g, sb, qm, at, w, m, d, scale, dkm, at);
                }
            });
        } else {
            float[] qm = qt.f32();
            float[] km = kt.f32();
            float[] g = ds.f32();
            float[] dqm = dq == null ? null : dq.f32();
            float[] dkm = dk == null ? null : dk.f32();
            float sc = (float) scale;
            forEachBlock(layout, (o, m, h, sb) -> {
                int at = o * w + h * d;
                if (dqm != null) {
                    k.mixF32(g, sb, km, at, w, m, d, sc, dqm, at);
                }
                if (dkm != null) {
                    k.mixTransposedF32(g, sb, qm, at, w, m, d, sc, dkm, at);
                }
            });
        }
    }

    /**
     * out[i, hd + c] += sum_j p(q, h, i, j) v[j, hd + c] for documents i, j of list q (out zero, in
     * the inputs' dtype).
     */
    static void mix(Tensor p, Tensor vt, AttentionLayout layout, Tensor out) {
        AttentionKernels k = NnKernelProvider.attention();
        int w = vt.cols();
        int d = w / layout.heads();
        if (out.dtype() == DType.F64) {
            double[] pm = p.f64();
            double[] v = vt.f64();
            double[] o = out.f64();
            forEachBlock(layout, (r, m, h, sb) -> k.mixF64(pm, sb, v, r * w + h * d, w, m, d, 1, o, r * w + h * d));
        } else {
            float[] pm = p.f32();
            float[] v = vt.f32();
            float[] o = out.f32();
            forEachBlock(layout, (r, m, h, sb) -> k.mixF32(pm, sb, v, r * w + h * d, w, m, d, 1, o, r * w + h * d));
        }
    }

    /**
     * The gradients of {@link #mix}: dp(i, j) = sum_c g[i, hd + c] v[j, hd + c] and
     * dv[j, hd + c] += sum_i p(i, j) g[i, hd + c] (zero, in the inputs' dtype; either may be null).
     */
    static void mixBackward(Tensor p, Tensor vt, AttentionLayout layout, Tensor g, Tensor dp, Tensor dv) {
        AttentionKernels k = NnKernelProvider.attention();
        int w = vt.cols();
        int d = w / layout.heads();
        if (g.dtype() == DType.F64) {
            double[] pm = p.f64();
            double[] v = vt.f64();
            double[] gm = g.f64();
            double[] dpm = dp == null ? null : dp.f64();
            double[] dvm = dv == null ? null : dv.f64();
            forEachBlock(layout, (o, m, h, sb) -> {
                int at = o * w + h * d;
                if (dpm != null) {
                    k.scoresF64(gm, at, v, at, w, m, d, 1, dpm, sb);
                }
                if (dvm != null) {
                    k.mixTransposedF64(pm, sb, gm, at, w, m, d, 1, dvm, at);
                }
            });
        } else {
            float[] pm = p.f32();
            float[] v = vt.f32();
            float[] gm = g.f32();
            float[] dpm = dp == null ? null : dp.f32();
            float[] dvm = dv == null ? null : dv.f32();
            forEachBlock(layout, (o, m, h, sb) -> {
                int at = o * w + h * d;
                if (dpm != null) {
                    k.scoresF32(gm, at, v, at, w, m, d, 1, dpm, sb);
                }
                if (dvm != null) {
                    k.mixTransposedF32(pm, sb, gm, at, w, m, d, 1, dvm, at);
                }
            });
        }
    }

    /**
     * The forward pass of {@link ScaledDotProductAttention} into {@code out} (zero, the inputs'
     * dtype), one list at a time and within it head by head, each score block worked on while it is
     * in cache: the logits, the softmax of each row into {@code y[q]} (the list's blocks of m rows
     * head after head, float64, allocated by the task), then O += P V. The same kernel calls on the
     * same values as {@link AttentionScores}, {@link RaggedSoftmax} and {@link AttentionMix}, so the
     * same bits: float64 tensors are read and summed in place in float64, {@code y[q]} holding m x m
     * blocks; float32 tensors likewise in float32, the softmax on the float32 logits widened exactly
     * into rows of {@link #paddedRow} doubles and its weights rounded to float32 as the ops' tensors
     * round them.
     */
    static void attention(Tensor qt, Tensor kt, Tensor vt, AttentionLayout layout, double scale, double[][] y,
            Tensor out) {
        if (out.dtype() == DType.F32) {
            attentionF32(qt, kt, vt, layout, (float) scale, y, out);
            return;
        }
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        double[] qm = qt.f64();
        double[] km = kt.f64();
        double[] vm = vt.f64();
        double[] om = out.f64();
        forEachList(layout, q -> {
            int m = layout.size(q);
            // Allocated (and zeroed) here, in parallel and in cache, not as one array before the pass.
            double[] yq = new double[heads * m * m + BLOCK_PAD];
            y[q] = yq;
            for (int h = 0; h < heads; h++) {
                int sb = h * m * m;
                int at = layout.start(q) * w + h * d;
                k.scoresF64(qm, at, km, at, w, m, d, scale, yq, sb);
                for (int i = 0; i < m; i++) {
                    k.softmaxF64(yq, yq, sb + i * m, m);
                }
                k.mixF64(yq, sb, vm, at, w, m, d, 1, om, at);
            }
        });
    }

    /** {@link #attention} of float32 tensors, with {@code scale} rounded to float as {@link AttentionScores} rounds it. */
    private static void attentionF32(Tensor qt, Tensor kt, Tensor vt, AttentionLayout layout, float scale,
            double[][] y, Tensor out) {
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        float[] qm = qt.f32();
        float[] km = kt.f32();
        float[] vm = vt.f32();
        float[] om = out.f32();
        forEachListRange(layout, (from, to) -> {
            int mMax = longest(layout, from, to);
            // One block's float32 logits, then its weights.
            float[] sp = new float[mMax * mMax + FLOAT_BLOCK_PAD];
            for (int q = from; q < to; q++) {
                int m = layout.size(q);
                int mp = paddedRow(m);
                double[] yq = new double[heads * m * mp];
                y[q] = yq;
                for (int h = 0; h < heads; h++) {
                    int sb = h * m * mp;
                    int at = layout.start(q) * w + h * d;
                    k.scoresF32(qm, at, km, at, w, m, d, scale, sp, 0);
                    widenRows(sp, m, yq, sb, mp, Double.NEGATIVE_INFINITY);
                    for (int i = 0; i < m; i++) {
                        k.softmaxF64(yq, yq, sb + i * mp, mp);
                    }
                    roundRows(yq, sb, mp, sp, m);
                    k.mixF32(sp, 0, vm, at, w, m, d, 1, om, at);
                }
            }
        });
    }

    /**
     * The backward pass of {@link #attention} with g = dL/dO, block by block as the three ops'
     * backward passes compute it: dP = g V^T, dV = P^T g, dS = the softmax's backward of dP, dQ =
     * scale dS K, dK = scale dS^T Q, added onto the outputs (zero, g's dtype; any may be null, not
     * needed), float32 ones in float32 with P, dP and dS rounded to float32 as the ops' tensors
     * round them. dP and dS share one m x m block of scratch, never a score-sized array.
     */
    static void attentionBackward(Tensor qt, Tensor kt, Tensor vt, double[][] y, AttentionLayout layout,
            double scale, Tensor g, Tensor dq, Tensor dk, Tensor dv) {
        if (g.dtype() == DType.F32) {
            attentionBackwardF32(qt, kt, vt, y, layout, (float) scale, g, dq, dk, dv);
            return;
        }
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        boolean scores = dq != null || dk != null;
        double[] qm = qt.f64();
        double[] km = kt.f64();
        double[] vm = vt.f64();
        double[] gm = g.f64();
        double[] dqm = dq == null ? null : dq.f64();
        double[] dkm = dk == null ? null : dk.f64();
        double[] dvm = dv == null ? null : dv.f64();
        forEachListRange(layout, (from, to) -> {
            int mMax = longest(layout, from, to);
            // The softmax kernels read y, g and write dx at one offset: y's block is copied beside dS.
            double[] yb = new double[mMax * mMax + BLOCK_PAD];
            double[] ds = new double[mMax * mMax + BLOCK_PAD];
            for (int q = from; q < to; q++) {
                int m = layout.size(q);
                double[] yq = y[q];
                for (int h = 0; h < heads; h++) {
                    int sb = h * m * m;
                    int at = layout.start(q) * w + h * d;
                    if (dvm != null) {
                        k.mixTransposedF64(yq, sb, gm, at, w, m, d, 1, dvm, at);
                    }
                    if (!scores) {
                        continue;
                    }
                    k.scoresF64(gm, at, vm, at, w, m, d, 1, ds, 0);
                    System.arraycopy(yq, sb, yb, 0, m * m);
                    for (int i = 0; i < m; i++) {
                        k.softmaxBackwardF64(yb, ds, ds, i * m, m);
                    }
                    if (dqm != null) {
                        k.mixF64(ds, 0, km, at, w, m, d, scale, dqm, at);
                    }
                    if (dkm != null) {
                        k.mixTransposedF64(ds, 0, qm, at, w, m, d, scale, dkm, at);
                    }
                }
            }
        });
    }

    /** {@link #attentionBackward} of float32 tensors, {@code scale} rounded to float as in {@link #attentionF32}. */
    private static void attentionBackwardF32(Tensor qt, Tensor kt, Tensor vt, double[][] y, AttentionLayout layout,
            float scale, Tensor g, Tensor dq, Tensor dk, Tensor dv) {
        AttentionKernels k = NnKernelProvider.attention();
        int heads = layout.heads();
        int w = qt.cols();
        int d = w / heads;
        boolean scores = dq != null || dk != null;
        float[] qm = qt.f32();
        float[] km = kt.f32();
        float[] vm = vt.f32();
        float[] gm = g.f32();
        float[] dqm = dq == null ? null : dq.f32();
        float[] dkm = dk == null ? null : dk.f32();
        float[] dvm = dv == null ? null : dv.f32();
        forEachListRange(layout, (from, to) -> {
            int mMax = longest(layout, from, to);
            int block = mMax * paddedRow(mMax);
            // The softmax kernels read y, g and write dx at one offset: y's block is copied beside dS.
            double[] yb = new double[block];
            double[] ds = new double[block];
            // One block of float32 P, then dP, then dS.
            float[] pf = new float[mMax * mMax + FLOAT_BLOCK_PAD];
            for (int q = from; q < to; q++) {
                int m = layout.size(q);
                int mp = paddedRow(m);
                double[] yq = y[q];
                for (int h = 0; h < heads; h++) {
                    int sb = h * m * mp;
                    int at = layout.start(q) * w + h * d;
                    if (dvm != null) {
                        roundRows(yq, sb, mp, pf, m);
                        k.mixTransposedF32(pf, 0, gm, at, w, m, d, 1, dvm, at);
                    }
                    if (!scores) {
                        continue;
                    }
                    k.scoresF32(gm, at, vm, at, w, m, d, 1, pf, 0);
                    // g = 0 past a row: the terms g y there are 0 * (+0.0) = +0.0, which leave the sum's bits alone.
                    widenRows(pf, m, ds, 0, mp, 0);
                    System.arraycopy(yq, sb, yb, 0, m * mp);
                    for (int i = 0; i < m; i++) {
                        k.softmaxBackwardF64(yb, ds, ds, i * mp, mp);
                    }
                    roundRows(ds, 0, mp, pf, m);
                    if (dqm != null) {
                        k.mixF32(pf, 0, km, at, w, m, d, scale, dqm, at);
                    }
                    if (dkm != null) {
                        k.mixTransposedF32(pf, 0, qm, at, w, m, d, scale, dkm, at);
                    }
                }
            }
        });
    }

    /**
     * The length of a float32 block's softmax rows in float64 scratch: m rounded up to a multiple of
     * {@link AttentionKernels#SUM_LANES}, so that every row is whole vectors (the kernels' last,
     * partial vector of a row costs as much as several whole ones). The columns past m hold
     * -infinity in the forward pass, whose exponentials are +0.0, and 0 in the gradient, whose terms
     * are +0.0: they land in the softmax's partial sums k mod {@value AttentionKernels#SUM_LANES} as
     * +0.0, and a partial sum (+0.0 plus terms, never -0.0) plus +0.0 is itself, bit for bit; the max
     * over a row ignores -infinity. So the m values of a row have the bits of a softmax over m.
     */
    private static int paddedRow(int m) {
        return (m + AttentionKernels.SUM_LANES - 1) / AttentionKernels.SUM_LANES * AttentionKernels.SUM_LANES;
    }

    /**
     * The m x m float block {@code from} (dense) as float64 rows of mp values at to[toOff ..], exactly
     * (every float is a double), the mp - m values after each row set to {@code pad}.
     */
    private static void widenRows(float[] from, int m, double[] to, int toOff, int mp, double pad) {
        for (int i = 0; i < m; i++) {
            int r = toOff + i * mp;
            for (int j = 0; j < m; j++) {
                to[r + j] = from[i * m + j];
            }
            for (int j = m; j < mp; j++) {
                to[r + j] = pad;
            }
        }
    }

    /**
     * The first m values of m rows of mp at from[fromOff ..] into the dense m x m block {@code to},
     * each rounded once to float: what a float32 tensor between two ops would hold.
     */
    private static void roundRows(double[] from, int fromOff, int mp, float[] to, int m) {
        for (int i = 0; i < m; i++) {
            int r = fromOff + i * mp;
            for (int j = 0; j < m; j++) {
                to[i * m + j] = (float) from[r + j];
            }
        }
    }

    /** The most documents of one list among lists from .. to - 1. */
    private static int longest(AttentionLayout layout, int from, int to) {
        int m = 0;
        for (int q = from; q < to; q++) {
            m = Math.max(m, layout.size(q));
        }
        return m;
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
