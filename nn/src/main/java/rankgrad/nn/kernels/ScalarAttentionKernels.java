package rankgrad.nn.kernels;

import rankgrad.simd.internal.LaneMath;

/**
 * Plain-Java {@link AttentionKernels}: the reference the vector kernels are tested against (bit for
 * bit), and the fallback when {@code jdk.incubator.vector} is not available. The loops are the
 * formulas of the interface, term by term in the order they state.
 */
final class ScalarAttentionKernels implements AttentionKernels {
    /** The shared instance (the class is stateless). */
    static final ScalarAttentionKernels INSTANCE = new ScalarAttentionKernels();

    private ScalarAttentionKernels() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public void scoresF64(double[] a, int aOff, double[] b, int bOff, int stride, int m, int d, double scale,
            double[] s, int sOff) {
        for (int i = 0; i < m; i++) {
            int ai = aOff + i * stride;
            for (int j = 0; j < m; j++) {
                int bj = bOff + j * stride;
                double dot = 0;
                for (int c = 0; c < d; c++) {
                    dot += a[ai + c] * b[bj + c];
                }
                s[sOff + i * m + j] = scale * dot;
            }
        }
    }

    @Override
    public void mixF64(double[] p, int pOff, double[] b, int bOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        for (int i = 0; i < m; i++) {
            int oi = outOff + i * stride;
            for (int j = 0; j < m; j++) {
                double w = scale * p[pOff + i * m + j];
                int bj = bOff + j * stride;
                for (int c = 0; c < d; c++) {
                    out[oi + c] += w * b[bj + c];
                }
            }
        }
    }

    @Override
    public void mixTransposedF64(double[] p, int pOff, double[] a, int aOff, int stride, int m, int d, double scale,
            double[] out, int outOff) {
        for (int i = 0; i < m; i++) {
            int ai = aOff + i * stride;
            for (int j = 0; j < m; j++) {
                double w = scale * p[pOff + i * m + j];
                int oj = outOff + j * stride;
                for (int c = 0; c < d; c++) {
                    out[oj + c] += w * a[ai + c];
                }
            }
        }
    }

    @Override
    public void scoresF32(float[] a, int aOff, float[] b, int bOff, int stride, int m, int d, float scale,
            float[] s, int sOff) {
        for (int i = 0; i < m; i++) {
            int ai = aOff + i * stride;
            for (int j = 0; j < m; j++) {
                int bj = bOff + j * stride;
                float dot = 0;
                for (int c = 0; c < d; c++) {
                    dot += a[ai + c] * b[bj + c];
                }
                s[sOff + i * m + j] = scale * dot;
            }
        }
    }

    @Override
    public void mixF32(float[] p, int pOff, float[] b, int bOff, int stride, int m, int d, float scale,
            float[] out, int outOff) {
        for (int i = 0; i < m; i++) {
            int oi = outOff + i * stride;
            for (int j = 0; j < m; j++) {
                float w = scale * p[pOff + i * m + j];
                int bj = bOff + j * stride;
                for (int c = 0; c < d; c++) {
                    out[oi + c] += w * b[bj + c];
                }
            }
        }
    }

    @Override
    public void mixTransposedF32(float[] p, int pOff, float[] a, int aOff, int stride, int m, int d, float scale,
            float[] out, int outOff) {
        for (int i = 0; i < m; i++) {
            int ai = aOff + i * stride;
            for (int j = 0; j < m; j++) {
                float w = scale * p[pOff + i * m + j];
                int oj = outOff + j * stride;
                for (int c = 0; c < d; c++) {
                    out[oj + c] += w * a[ai + c];
                }
            }
        }
    }

    @Override
    public void softmaxF64(double[] x, double[] y, int off, int n) {
        if (n == 0) {
            return;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int k = off; k < off + n; k++) {
            max = Math.max(max, x[k]);
        }
        double[] part = new double[SUM_LANES];
        for (int k = 0; k < n; k++) {
            double e = LaneMath.exp(x[off + k] - max);
            y[off + k] = e;
            part[k % SUM_LANES] += e;
        }
        double sum = combine(part);
        for (int k = off; k < off + n; k++) {
            y[k] /= sum;
        }
    }

    @Override
    public void softmaxBackwardF64(double[] y, double[] g, double[] dx, int off, int n) {
        double[] part = new double[SUM_LANES];
        for (int k = 0; k < n; k++) {
            part[k % SUM_LANES] += g[off + k] * y[off + k];
        }
        double t = combine(part);
        for (int k = off; k < off + n; k++) {
            dx[k] = y[k] * (g[k] - t);
        }
    }

    /**
     * The {@value #SUM_LANES} partial sums added pairwise as a vector folds its halves:
     * ((p0 + p4) + (p2 + p6)) + ((p1 + p5) + (p3 + p7)).
     */
    static double combine(double[] part) {
        return ((part[0] + part[4]) + (part[2] + part[6])) + ((part[1] + part[5]) + (part[3] + part[7]));
    }
}
