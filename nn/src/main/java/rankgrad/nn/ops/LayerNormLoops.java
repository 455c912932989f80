package rankgrad.nn.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Parallel;
import rankgrad.simd.RowChunks;

/**
 * The loops of {@link LayerNorm} on float64 values, apart from its graph logic: parallel over rows
 * ({@link RowChunks}), each row by one task in one order, so the bits do not depend on the thread
 * count; the float32/float64 conversions run in the tasks, on rows in cache.
 *
 * <p>A row's mean, variance and the backward's two means are each one sum over the row's columns,
 * added column after column: a chain of dependent adds, which alone runs at the add's latency.
 * The rows are therefore taken {@value #GROUP} at a time and their sums advanced side by side
 * (four independent chains per pass); each row is still summed in column order, so every value
 * has the bits of the one-row loop. A last group of fewer rows computes its empty slots on stale
 * scratch and stores nothing of them.
 */
final class LayerNormLoops {
    /** Rows whose sums advance together: enough independent adds to cover the add's latency. */
    private static final int GROUP = 4;
    /** Columns per task of the gain and bias gradients (a 64-wide block splits into 4). */
    private static final int COLUMNS_PER_TASK = 16;

    private LayerNormLoops() {
    }

    /**
     * Per row r of the n x w matrix x, widened to float64: mean[r], inv[r] = 1 / sqrt(var + eps)
     * (biased variance), xhat = (x - mean) inv and y = gamma xhat + beta, rounded once into
     * {@code y}'s dtype.
     */
    static void forward(Tensor x, double[] gamma, double[] beta, double eps, double[] mean, double[] inv, Tensor y) {
        int n = x.rows();
        int w = x.cols();
        RowChunks.forEach(n, w, (from, to) -> {
            double[] xr = new double[GROUP * w];
            double[] mu = new double[GROUP];
            double[] is = new double[GROUP];
            for (int r = from; r < to; r += GROUP) {
                int rows = Math.min(GROUP, to - r);
                widen(x, r, rows, xr);
                statistics(xr, w, eps, mu, is);
                for (int i = 0; i < rows; i++) {
                    mean[r + i] = mu[i];
                    inv[r + i] = is[i];
                    int o = i * w;
                    for (int c = 0; c < w; c++) {
                        xr[o + c] = gamma[c] * ((xr[o + c] - mu[i]) * is[i]) + beta[c];
                    }
                }
                narrow(xr, r, rows, y);
            }
        });
    }

    /** mu[i] and is[i] = 1 / sqrt(var + eps) of the {@value #GROUP} rows of x (w columns each). */
    private static void statistics(double[] x, int w, double eps, double[] mu, double[] is) {
        int b = w;
        int c2 = 2 * w;
        int c3 = 3 * w;
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int c = 0; c < w; c++) {
            s0 += x[c];
            s1 += x[b + c];
            s2 += x[c2 + c];
            s3 += x[c3 + c];
        }
        double m0 = s0 / w;
        double m1 = s1 / w;
        double m2 = s2 / w;
        double m3 = s3 / w;
        double v0 = 0;
        double v1 = 0;
        double v2 = 0;
        double v3 = 0;
        for (int c = 0; c < w; c++) {
            double d0 = x[c] - m0;
            double d1 = x[b + c] - m1;
            double d2 = x[c2 + c] - m2;
            double d3 = x[c3 + c] - m3;
            v0 += d0 * d0;
            v1 += d1 * d1;
            v2 += d2 * d2;
            v3 += d3 * d3;
        }
        mu[0] = m0;
        mu[1] = m1;
        mu[2] = m2;
        mu[3] = m3;
        is[0] = 1 / Math.sqrt(v0 / w + eps);
        is[1] = 1 / Math.sqrt(v1 / w + eps);
        is[2] = 1 / Math.sqrt(v2 / w + eps);
        is[3] = 1 / Math.sqrt(v3 / w + eps);
    }

    /**
     * The gradients of {@link #forward} with g = dL/dy and xhat recomputed from x, mean and inv
     * (the forward pass's expression, so its bits): with gh = g gamma,
     * dx = inv (gh - mean(gh) - xhat mean(gh xhat)) per row (rounded once into {@code dx}),
     * dgamma = sum_rows g xhat, dbeta = sum_rows g (any output may be null). dx in parallel over
     * rows; dgamma and dbeta in parallel over blocks of columns, each column summed over the rows
     * from the first to the last (the order of a sequential loop, whatever the thread count).
     */
    static void backward(Tensor x, double[] mean, double[] inv, double[] gamma, Tensor g, Tensor dx, double[] dgamma,
            double[] dbeta) {
        int n = x.rows();
        int w = x.cols();
        if (dx != null) {
            RowChunks.forEach(n, w, (from, to) -> {
                double[] xr = new double[GROUP * w];
                double[] gr = new double[GROUP * w];
                double[] mu = new double[GROUP];
                double[] is = new double[GROUP];
                double[] means = new double[2 * GROUP];
                for (int r = from; r < to; r += GROUP) {
                    int rows = Math.min(GROUP, to - r);
                    widen(x, r, rows, xr);
                    widen(g, r, rows, gr);
                    System.arraycopy(mean, r, mu, 0, rows);
                    System.arraycopy(inv, r, is, 0, rows);
                    gradientMeans(xr, gr, gamma, w, mu, is, means);
                    for (int i = 0; i < rows; i++) {
                        int o = i * w;
                        for (int c = 0; c < w; c++) {
                            // dx overwrites x's scratch, which holds xhat by now.
                            xr[o + c] = is[i] * (gr[o + c] * gamma[c] - means[i] - xr[o + c] * means[GROUP + i]);
                        }
                    }
                    narrow(xr, r, rows, dx);
                }
            });
        }
        if (dgamma == null && dbeta == null) {
            return;
        }
        int blocks = (w + COLUMNS_PER_TASK - 1) / COLUMNS_PER_TASK;
        Parallel.forEach(blocks, b -> {
            int from = b * COLUMNS_PER_TASK;
            int to = Math.min(w, from + COLUMNS_PER_TASK);
            int cols = to - from;
            double[] xr = new double[cols];
            double[] gr = new double[cols];
            for (int r = 0; r < n; r++) {
                widenFlat(x, r * w + from, cols, xr);
                widenFlat(g, r * w + from, cols, gr);
                for (int c = 0; c < cols; c++) {
                    if (dgamma != null) {
                        dgamma[from + c] += gr[c] * ((xr[c] - mean[r]) * inv[r]);
                    }
                    if (dbeta != null) {
                        dbeta[from + c] += gr[c];
                    }
                }
            }
        });
    }

    /**
     * For the {@value #GROUP} rows of x and g: replaces x by xhat = (x - mu) is, and writes
     * means[i] = mean(gh) and means[GROUP + i] = mean(gh xhat) of row i, gh = g gamma.
     */
    private static void gradientMeans(double[] x, double[] g, double[] gamma, int w, double[] mu, double[] is,
            double[] means) {
        int b = w;
        int c2 = 2 * w;
        int c3 = 3 * w;
        double g0 = 0;
        double g1 = 0;
        double g2 = 0;
        double g3 = 0;
        double h0 = 0;
        double h1 = 0;
        double h2 = 0;
        double h3 = 0;
        for (int c = 0; c < w; c++) {
            double x0 = (x[c] - mu[0]) * is[0];
            double x1 = (x[b + c] - mu[1]) * is[1];
            double x2 = (x[c2 + c] - mu[2]) * is[2];
            double x3 = (x[c3 + c] - mu[3]) * is[3];
            x[c] = x0;
            x[b + c] = x1;
            x[c2 + c] = x2;
            x[c3 + c] = x3;
            double e0 = g[c] * gamma[c];
            double e1 = g[b + c] * gamma[c];
            double e2 = g[c2 + c] * gamma[c];
            double e3 = g[c3 + c] * gamma[c];
            g0 += e0;
            g1 += e1;
            g2 += e2;
            g3 += e3;
            h0 += e0 * x0;
            h1 += e1 * x1;
            h2 += e2 * x2;
            h3 += e3 * x3;
        }
        means[0] = g0 / w;
        means[1] = g1 / w;
        means[2] = g2 / w;
        means[3] = g3 / w;
        means[GROUP] = h0 / w;
        means[GROUP + 1] = h1 / w;
        means[GROUP + 2] = h2 / w;
        means[GROUP + 3] = h3 / w;
    }

    /** Rows first .. first + m - 1 of the matrix t as float64 into to[0 .. m cols). */
    private static void widen(Tensor t, int first, int m, double[] to) {
        int w = t.cols();
        widenFlat(t, first * w, m * w, to);
    }

    /** Elements from .. from + n - 1 of t (flat, row-major) as float64 into to[0 .. n). */
    private static void widenFlat(Tensor t, int from, int n, double[] to) {
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
    private static void narrow(double[] from, int first, int m, Tensor t) {
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
}
