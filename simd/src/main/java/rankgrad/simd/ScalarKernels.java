package rankgrad.simd;

import rankgrad.simd.Parallel;

/**
 * Plain-Java kernels: the reference every SIMD kernel is tested against, and the fallback when
 * {@code jdk.incubator.vector} is not available. Loops are written for clarity first; GEMM still
 * runs in parallel over row blocks so the fallback stays usable for training.
 */
public final class ScalarKernels implements Kernels {
    /** The shared instance (the class is stateless). */
    public static final ScalarKernels INSTANCE = new ScalarKernels();

    /** Rows of C per GEMM task; fixed so the partition never depends on the thread count. */
    private static final int GEMM_ROWS_PER_TASK = 64;

    private ScalarKernels() {
    }

    @Override
    public String name() {
        return "scalar";
    }

    @Override
    public float dotF32(float[] a, int aOff, float[] b, int bOff, int n) {
        float s = 0f;
        for (int i = 0; i < n; i++) {
            s += a[aOff + i] * b[bOff + i];
        }
        return s;
    }

    @Override
    public float sumF32(float[] a, int off, int n) {
        float s = 0f;
        for (int i = 0; i < n; i++) {
            s += a[off + i];
        }
        return s;
    }

    @Override
    public void addF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = a[aOff + i] + b[bOff + i];
        }
    }

    @Override
    public void mulF32(float[] a, int aOff, float[] b, int bOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = a[aOff + i] * b[bOff + i];
        }
    }

    @Override
    public void addScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = a[aOff + i] + s;
        }
    }

    @Override
    public void mulScalarF32(float[] a, int aOff, float s, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = a[aOff + i] * s;
        }
    }

    @Override
    public void axpyF32(float alpha, float[] x, int xOff, float[] y, int yOff, int n) {
        for (int i = 0; i < n; i++) {
            y[yOff + i] += alpha * x[xOff + i];
        }
    }

    @Override
    public void expF32(float[] a, int aOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = (float) Math.exp(a[aOff + i]);
        }
    }

    @Override
    public void sigmoidF32(float[] a, int aOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = (float) sigmoid(a[aOff + i]);
        }
    }

    @Override
    public void tanhF32(float[] a, int aOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = (float) Math.tanh(a[aOff + i]);
        }
    }

    @Override
    public void reluF32(float[] a, int aOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            float v = a[aOff + i];
            out[outOff + i] = v > 0f ? v : 0f;
        }
    }

    @Override
    public void reluBackwardF32(float[] a, int aOff, float[] g, int gOff, float[] out, int outOff, int n) {
        for (int i = 0; i < n; i++) {
            out[outOff + i] = a[aOff + i] > 0f ? g[gOff + i] : 0f;
        }
    }

    @Override
    public int firstNonFiniteF32(float[] a, int off, int n) {
        for (int i = 0; i < n; i++) {
            if (!Float.isFinite(a[off + i])) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void gemmF32(boolean transA, boolean transB, int m, int n, int k, float[] a, float[] b, float[] c) {
        Parallel.forEach(Parallel.tasksFor(m, GEMM_ROWS_PER_TASK), t -> {
            int r0 = t * GEMM_ROWS_PER_TASK;
            int r1 = Math.min(m, r0 + GEMM_ROWS_PER_TASK);
            float[] row = new float[n];
            for (int i = r0; i < r1; i++) {
                java.util.Arrays.fill(row, 0f);
                for (int p = 0; p < k; p++) {
                    float av = transA ? a[p * m + i] : a[i * k + p];
                    if (transB) {
                        for (int j = 0; j < n; j++) {
                            row[j] += av * b[j * k + p];
                        }
                    } else {
                        int bo = p * n;
                        for (int j = 0; j < n; j++) {
                            row[j] += av * b[bo + j];
                        }
                    }
                }
                System.arraycopy(row, 0, c, i * n, n);
            }
        });
    }

    @Override
    public void gemmF64(boolean transA, boolean transB, int m, int n, int k, double[] a, double[] b, double[] c) {
        Parallel.forEach(Parallel.tasksFor(m, GEMM_ROWS_PER_TASK), t -> {
            int r0 = t * GEMM_ROWS_PER_TASK;
            int r1 = Math.min(m, r0 + GEMM_ROWS_PER_TASK);
            double[] row = new double[n];
            for (int i = r0; i < r1; i++) {
                java.util.Arrays.fill(row, 0.0);
                for (int p = 0; p < k; p++) {
                    double av = transA ? a[p * m + i] : a[i * k + p];
                    for (int j = 0; j < n; j++) {
                        row[j] += av * (transB ? b[j * k + p] : b[p * n + j]);
                    }
                }
                System.arraycopy(row, 0, c, i * n, n);
            }
        });
    }

    /** The logistic function, computed without overflow for large |x|. */
    public static double sigmoid(double x) {
        if (x >= 0) {
            return 1.0 / (1.0 + Math.exp(-x));
        }
        double e = Math.exp(x);
        return e / (1.0 + e);
    }
}
