package rankgrad.nn.ops;

import java.util.function.IntConsumer;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Parallel;

/**
 * The loops of listwise self-attention on float64 arrays, separate from the graph logic of
 * {@link AttentionScores}, {@link AttentionMix}, {@link RaggedSoftmax} and {@link LayerNorm}.
 * Matrices are row-major N x w; head h reads columns h d .. h d + d - 1, d = w / heads; scores
 * follow {@link AttentionLayout}.
 *
 * <p>These are the scalar reference and the only implementation: per list the work is
 * heads m^2 d multiply-adds on m &lt;= a few hundred documents, below the sizes where the
 * project's Vector API kernels pay for their set-up, and the float64 accumulation keeps the
 * float32 path as accurate as the float64 one.
 *
 * <p>Determinism: work is split over lists with a partition that depends on the list count alone,
 * every list writes only its own rows and score block, and the sums inside a list run in a fixed
 * order, so results are bit-identical for any thread count.
 */
final class AttentionKernels {
    /** Lists per parallel task: enough work to outweigh scheduling a task. */
    private static final int LISTS_PER_TASK = 8;

    private AttentionKernels() {
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

    /** s(q, h, i, j) = scale sum_c qm[i, hd + c] km[j, hd + c] for documents i, j of list q. */
    static void scores(double[] qm, double[] km, int w, AttentionLayout layout, double scale, double[] s) {
        int heads = layout.heads();
        int d = w / heads;
        int[] blocks = layout.blockStarts();
        forEachList(layout, q -> {
            int o = layout.start(q);
            int m = layout.size(q);
            for (int h = 0; h < heads; h++) {
                int col = h * d;
                for (int i = 0; i < m; i++) {
                    int qi = (o + i) * w + col;
                    int row = blocks[q] + (h * m + i) * m;
                    for (int j = 0; j < m; j++) {
                        int kj = (o + j) * w + col;
                        double dot = 0;
                        for (int c = 0; c < d; c++) {
                            dot += qm[qi + c] * km[kj + c];
                        }
                        s[row + j] = scale * dot;
                    }
                }
            }
        });
    }

    /**
     * The gradients of {@link #scores}: dq[i] = scale sum_j ds(i, j) k[j] and
     * dk[j] = scale sum_i ds(i, j) q[i], per head's columns (either output may be null).
     */
    static void scoresBackward(double[] qm, double[] km, int w, AttentionLayout layout, double scale, double[] ds,
            double[] dq, double[] dk) {
        int heads = layout.heads();
        int d = w / heads;
        int[] blocks = layout.blockStarts();
        forEachList(layout, q -> {
            int o = layout.start(q);
            int m = layout.size(q);
            for (int h = 0; h < heads; h++) {
                int col = h * d;
                for (int i = 0; i < m; i++) {
                    int row = blocks[q] + (h * m + i) * m;
                    int qi = (o + i) * w + col;
                    for (int j = 0; j < m; j++) {
                        double g = scale * ds[row + j];
                        int kj = (o + j) * w + col;
                        if (dq != null) {
                            for (int c = 0; c < d; c++) {
                                dq[qi + c] += g * km[kj + c];
                            }
                        }
                        if (dk != null) {
                            for (int c = 0; c < d; c++) {
                                dk[kj + c] += g * qm[qi + c];
                            }
                        }
                    }
                }
            }
        });
    }

    /** out[i, hd + c] = sum_j p(q, h, i, j) v[j, hd + c] for documents i, j of list q. */
    static void mix(double[] p, double[] v, int w, AttentionLayout layout, double[] out) {
        int heads = layout.heads();
        int d = w / heads;
        int[] blocks = layout.blockStarts();
        forEachList(layout, q -> {
            int o = layout.start(q);
            int m = layout.size(q);
            for (int h = 0; h < heads; h++) {
                int col = h * d;
                for (int i = 0; i < m; i++) {
                    int row = blocks[q] + (h * m + i) * m;
                    int oi = (o + i) * w + col;
                    for (int j = 0; j < m; j++) {
                        double a = p[row + j];
                        int vj = (o + j) * w + col;
                        for (int c = 0; c < d; c++) {
                            out[oi + c] += a * v[vj + c];
                        }
                    }
                }
            }
        });
    }

    /**
     * The gradients of {@link #mix}: dp(i, j) = sum_c g[i, hd + c] v[j, hd + c] and
     * dv[j, hd + c] = sum_i p(i, j) g[i, hd + c] (either output may be null).
     */
    static void mixBackward(double[] p, double[] v, int w, AttentionLayout layout, double[] g, double[] dp,
            double[] dv) {
        int heads = layout.heads();
        int d = w / heads;
        int[] blocks = layout.blockStarts();
        forEachList(layout, q -> {
            int o = layout.start(q);
            int m = layout.size(q);
            for (int h = 0; h < heads; h++) {
                int col = h * d;
                for (int i = 0; i < m; i++) {
                    int row = blocks[q] + (h * m + i) * m;
                    int gi = (o + i) * w + col;
                    for (int j = 0; j < m; j++) {
                        int vj = (o + j) * w + col;
                        if (dp != null) {
                            double dot = 0;
                            for (int c = 0; c < d; c++) {
                                dot += g[gi + c] * v[vj + c];
                            }
                            dp[row + j] = dot;
                        }
                        if (dv != null) {
                            double a = p[row + j];
                            for (int c = 0; c < d; c++) {
                                dv[vj + c] += a * g[gi + c];
                            }
                        }
                    }
                }
            }
        });
    }

    /**
     * y = softmax of each row x[rows[r] .. rows[r+1]-1], exponentials of x - max(row) so nothing
     * overflows; an empty row writes nothing.
     */
    static void softmaxRows(double[] x, int[] rows, double[] y) {
        for (int r = 0; r + 1 < rows.length; r++) {
            int from = rows[r];
            int to = rows[r + 1];
            double max = Double.NEGATIVE_INFINITY;
            for (int i = from; i < to; i++) {
                max = Math.max(max, x[i]);
            }
            double sum = 0;
            for (int i = from; i < to; i++) {
                y[i] = Math.exp(x[i] - max);
                sum += y[i];
            }
            for (int i = from; i < to; i++) {
                y[i] /= sum;
            }
        }
    }

    /** dx_i = y_i (g_i - sum_k g_k y_k) within each row. */
    static void softmaxRowsBackward(double[] y, double[] g, int[] rows, double[] dx) {
        for (int r = 0; r + 1 < rows.length; r++) {
            double s = 0;
            for (int i = rows[r]; i < rows[r + 1]; i++) {
                s += g[i] * y[i];
            }
            for (int i = rows[r]; i < rows[r + 1]; i++) {
                dx[i] = y[i] * (g[i] - s);
            }
        }
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
