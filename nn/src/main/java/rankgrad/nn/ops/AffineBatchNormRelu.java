package rankgrad.nn.ops;

import rankgrad.simd.RowChunks;
import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;
import rankgrad.simd.Workspace;
import rankgrad.nn.kernels.NnKernelProvider;
import rankgrad.nn.kernels.NnKernels;
import rankgrad.simd.KernelProvider;

/**
 * A hidden layer of Yu et al.'s networks in one node: Linear, then BatchNorm in training mode, then
 * ReLU (Ioffe and Szegedy 2015, Algorithm 1), for X (n x k), W (k x c) and vectors b, gamma, beta of
 * length c:
 *
 * <pre>
 *   Z = X W + b                                        (the affine layer)
 *   mu_j = (1/n) sum_i Z_ij    var_j = (1/n) sum_i (Z_ij - mu_j)^2    invstd_j = 1 / sqrt(var_j + eps)
 *   U_ij = gamma_j (Z_ij - mu_j) invstd_j + beta_j    Y = max(U, 0)
 * </pre>
 *
 * With G = dL/dY: dU = G where U &gt; 0 (else 0), and with {@link BatchNorm}'s formulas
 * dbeta = sum_i dU, dgamma = sum_i dU xhat, dZ = (1/n) gamma invstd (n dU - dbeta - xhat dgamma);
 * then db = sum_i dZ, dW = X^T dZ, dX = dZ W^T.
 *
 * <p>It computes the same bits as {@code relu(batchNorm(affine(X, W, b)))} with {@code Affine},
 * {@link BatchNorm#training(double, BatchNorm.StatisticsSink)} and {@code Relu}: every float32
 * operation, every float64 accumulation and the row partition of each column reduction are
 * theirs. What it saves is passes and memory: the bias is added inside the statistics and
 * normalization passes (Z + b is never stored), normalization and ReLU are one pass, the ReLU mask
 * is read from Y (U &gt; 0 exactly where Y &gt; 0), the backward sums and dZ with its column sums are
 * one pass each, and Z, Y, dZ and dX may live in a {@link Workspace}: 4 parallel passes per layer
 * instead of 8, and no n x c tensor allocated per step once the workspace is warm.
 *
 * <p>Inputs {@code (X, W, b, gamma, beta)}; each batch's mean and biased variance go to a
 * {@link BatchNorm.StatisticsSink}. float64 runs the textbook loops, for gradient checks.
 *
 * <p>Workspace use (see {@link Workspace} for the rule): Z and dZ are always private to this node;
 * Y is taken from the workspace only when the caller says that its single consumer is another node
 * of the same network whose backward runs first, and dX only when the caller says that X is the
 * output of such a node (which then gives dX back). Backward gives back Z, dZ, its own Y, and the
 * gradient it received. A node can be differentiated once.
 */
public final class AffineBatchNormRelu implements Op<AffineBatchNormRelu.Saved> {

    /** What backward needs: the inputs read, Z (without b), the output and the statistics used. */
    public record Saved(Tensor x, Tensor w, Tensor b, Tensor z, Tensor y, double[] mean, double[] invStd,
            double[] gamma) {
    }

    private final double eps;
    private final BatchNorm.StatisticsSink sink;
    private final Workspace workspace;
    private final boolean outputInWorkspace;
    private final boolean inputGradientInWorkspace;

    private AffineBatchNormRelu(double eps, BatchNorm.StatisticsSink sink, Workspace workspace,
            boolean outputInWorkspace, boolean inputGradientInWorkspace) {
        BatchNormColumns.checkEps(eps);
        this.eps = eps;
        this.sink = Objects.requireNonNull(sink, "sink");
        this.workspace = workspace;
        this.outputInWorkspace = outputInWorkspace;
        this.inputGradientInWorkspace = inputGradientInWorkspace;
    }

    /** The node with fresh tensors for every output and gradient (no workspace). */
    public static AffineBatchNormRelu of(double eps, BatchNorm.StatisticsSink sink) {
        return new AffineBatchNormRelu(eps, sink, null, false, false);
    }

    /**
     * The node with its private tensors in {@code workspace}, and Y and dX there too when the caller
     * guarantees what the class comment says.
     */
    public static AffineBatchNormRelu inWorkspace(double eps, BatchNorm.StatisticsSink sink, Workspace workspace,
            boolean outputInWorkspace, boolean inputGradientInWorkspace) {
        return new AffineBatchNormRelu(eps, sink, Objects.requireNonNull(workspace, "workspace"), outputInWorkspace,
                inputGradientInWorkspace);
    }

    @Override
    public String name() {
        return "AffineBatchNormRelu";
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        if (in.length != 5) {
            throw new IllegalArgumentException(name() + " takes 5 inputs (x, w, b, gamma, beta), got " + in.length);
        }
        Tensor x = in[0];
        Tensor w = in[1];
        if (x.rank() != 2 || w.rank() != 2 || w.dim(0) != x.dim(1)) {
            throw new IllegalArgumentException(name() + " needs x (n x k) and w (k x c), got shapes "
                    + Arrays.toString(x.shape()) + " and " + Arrays.toString(w.shape()));
        }
        int n = x.dim(0);
        int k = x.dim(1);
        int c = w.dim(1);
        for (int i = 1; i < 5; i++) {
            if (in[i].dtype() != x.dtype()) {
                throw new IllegalArgumentException(name() + ": input " + i + " is " + in[i].dtype() + ", x is " + x.dtype());
            }
            if (i >= 2 && (in[i].rank() != 1 || in[i].size() != c)) {
                throw new IllegalArgumentException(name() + " input " + i + " must be a vector of length " + c
                        + ", got shape " + Arrays.toString(in[i].shape()));
            }
        }
        BatchNormColumns.checkTrainingRows(n);
        Tensor b = in[2];
        double[] gamma = in[3].toDoubleArray();
        double[] beta = in[4].toDoubleArray();
        Tensor z = matrix(x.dtype(), n, c, workspace != null);
        Tensor y = matrix(x.dtype(), n, c, outputInWorkspace);
        double[][] stats;
        if (x.dtype() == DType.F32) {
            KernelProvider.kernels().gemmF32(false, false, n, c, k, x.f32(), w.f32(), z.f32());
            stats = statisticsF32(z.f32(), b.f32(), n, c);
        } else {
            KernelProvider.kernels().gemmF64(false, false, n, c, k, x.f64(), w.f64(), z.f64());
            stats = statisticsF64(z.f64(), b.f64(), n, c);
        }
        double[] mean = stats[0];
        double[] variance = stats[1];
        sink.accept(mean.clone(), variance.clone(), n);
        double[] invStd = BatchNormColumns.invStd(variance, eps);
        if (x.dtype() == DType.F32) {
            normalizeF32(z.f32(), b.f32(), y.f32(), n, c, mean, invStd, gamma, beta);
        } else {
            double[] zs = z.f64();
            double[] bs = b.f64();
            double[] ys = y.f64();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < c; j++) {
                    double u = ((zs[i * c + j] + bs[j]) - mean[j]) * invStd[j] * gamma[j] + beta[j];
                    ys[i * c + j] = u > 0 ? u : 0.0;
                }
            }
        }
        return Op.result(y, new Saved(x, w, b, z, y, mean, invStd, gamma));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        if (s == null) {
            throw new IllegalStateException(name() + " has already been differentiated; build the graph again");
        }
        Tensor x = s.x();
        int n = x.dim(0);
        int k = x.dim(1);
        int c = s.w().dim(1);
        boolean f32 = x.dtype() == DType.F32;
        double[] mean = s.mean();
        double[] invStd = s.invStd();
        float[] mu = f32 ? BatchNormColumns.floatMeans(mean) : null;
        double[][] sums = f32 ? gradientSumsF32(s.y().f32(), g.f32(), s.z().f32(), s.b().f32(), mu, mean, n, c)
                : gradientSumsF64(s.y().f64(), g.f64(), s.z().f64(), s.b().f64(), mean, n, c);
        double[] sumDy = sums[0];
        double[] sumDyXc = sums[1];
        Tensor[] grads = new Tensor[5];
        if (needs[3]) {
            grads[3] = BatchNormColumns.gammaGradient(x.dtype(), sumDyXc, invStd);
        }
        if (needs[4]) {
            grads[4] = BatchNormColumns.vector(x.dtype(), sumDy);
        }
        if (needs[0] || needs[1] || needs[2]) {
            // dZ = kk dU + bb (Z + b - mu) + c0, as BatchNorm expands it.
            double[][] coefficients = BatchNormColumns.inputGradientCoefficients(s.gamma(), invStd, sumDy, sumDyXc, n);
            Tensor dz = matrix(x.dtype(), n, c, workspace != null);
            double[] db = f32 ? inputGradientF32(s, g.f32(), dz.f32(), mu, coefficients, n, c)
                    : inputGradientF64(s, g.f64(), dz.f64(), coefficients, n, c);
            if (needs[2]) {
                grads[2] = BatchNormColumns.vector(x.dtype(), db);
            }
            if (needs[1]) {
                // A parameter's gradient is kept by the engine: always a fresh tensor. dW = X^T dZ on
                // the GEMM kernel, as Affine computes it.
                Tensor dw = Tensor.zeros(x.dtype(), k, c);
                if (f32) {
                    KernelProvider.kernels().gemmF32(true, false, k, c, n, x.f32(), dz.f32(), dw.f32());
                } else {
                    KernelProvider.kernels().gemmF64(true, false, k, c, n, x.f64(), dz.f64(), dw.f64());
                }
                grads[1] = dw;
            }
            if (needs[0]) {
                Tensor dx = matrix(x.dtype(), n, k, inputGradientInWorkspace);
                if (f32) {
                    KernelProvider.kernels().gemmF32(false, true, n, k, c, dz.f32(), s.w().f32(), dx.f32());
                } else {
                    KernelProvider.kernels().gemmF64(false, true, n, k, c, dz.f64(), s.w().f64(), dx.f64());
                }
                grads[0] = dx;
            }
            giveBack(dz);
        }
        giveBack(s.z());
        if (outputInWorkspace) {
            giveBack(s.y());
        }
        giveBack(g);
        return grads;
    }

    private Tensor matrix(DType dtype, int rows, int cols, boolean fromWorkspace) {
        if (fromWorkspace && dtype == DType.F32) {
            return Tensor.of(workspace.take(rows * cols), rows, cols);
        }
        return Tensor.zeros(dtype, rows, cols);
    }

    private void giveBack(Tensor t) {
        if (workspace != null && t.dtype() == DType.F32) {
            workspace.give(t.f32());
        }
    }

    /** {mean, biased variance} of Z + b per column, as {@link BatchNorm} chunks and combines them. */
    private static double[][] statisticsF32(float[] zs, float[] bs, int n, int c) {
        NnKernels kern = NnKernelProvider.kernels();
        double[][][] partial = RowChunks.reduce(n, c, 2, (from, to, acc) -> {
            double[] s = acc[0];
            kern.biasedColumnSumsF32(zs, bs, s, from, to, c);
            double[] mu = new double[c];
            for (int j = 0; j < c; j++) {
                mu[j] = s[j] / (to - from);
            }
            kern.biasedSquaredDeviationsF32(zs, bs, mu, acc[1], from, to, c);
        });
        return BatchNormColumns.combine(partial[0], partial[1], n, c);
    }

    private static double[][] statisticsF64(double[] zs, double[] bs, int n, int c) {
        double[] mean = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                mean[j] += zs[i * c + j] + bs[j];
            }
        }
        for (int j = 0; j < c; j++) {
            mean[j] /= n;
        }
        double[] variance = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                double d = (zs[i * c + j] + bs[j]) - mean[j];
                variance[j] += d * d;
            }
        }
        for (int j = 0; j < c; j++) {
            variance[j] /= n;
        }
        return new double[][] {mean, variance};
    }

    private static void normalizeF32(float[] zs, float[] bs, float[] ys, int n, int c, double[] mean,
            double[] invStd, double[] gamma, double[] beta) {
        // As BatchNorm: x - mu[j] is exact near the mean, the rest of the mean goes into the shift.
        float[] mu = BatchNormColumns.floatMeans(mean);
        float[][] affine = BatchNormColumns.normalizationF32(mean, mu, invStd, gamma, beta);
        float[] scale = affine[0];
        float[] shift = affine[1];
        NnKernels kern = NnKernelProvider.kernels();
        RowChunks.forEach(n, c, (from, to) -> kern.batchNormReluF32(zs, bs, mu, scale, shift, ys, from, to, c));
    }

    /** {sum_i dU_ij, sum_i dU_ij (Z_ij + b_j - mean_j)} per column. */
    private static double[][] gradientSumsF32(float[] ys, float[] gs, float[] zs, float[] bs, float[] mu,
            double[] mean, int n, int c) {
        NnKernels kern = NnKernelProvider.kernels();
        double[][][] partial = RowChunks.reduce(n, c, 2,
                (from, to, acc) -> kern.batchNormReluSumsF32(ys, gs, zs, bs, mu, acc[0], acc[1], from, to, c));
        // The chunks summed dU (Z + b - mu[j]), corrected to dU (Z + b - mean) there.
        return BatchNormColumns.mergeGradientSums(partial[0], partial[1], mean, mu);
    }

    private static double[][] gradientSumsF64(double[] ys, double[] gs, double[] zs, double[] bs, double[] mean,
            int n, int c) {
        double[] a = new double[c];
        double[] b = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                int e = i * c + j;
                double dy = ys[e] > 0 ? gs[e] : 0.0;
                a[j] += dy;
                b[j] += dy * ((zs[e] + bs[j]) - mean[j]);
            }
        }
        return new double[][] {a, b};
    }

    /** Writes dZ and returns its column sums (db), chunked as {@code RowChunks.columnSums}. */
    private static double[] inputGradientF32(Saved s, float[] gs, float[] ds, float[] mu, double[][] coefficients,
            int n, int c) {
        float[][] f = BatchNormColumns.inputGradientF32(coefficients, s.mean(), mu);
        float[] kf = f[0];
        float[] bf = f[1];
        float[] cf = f[2];
        float[] ys = s.y().f32();
        float[] zs = s.z().f32();
        float[] bs = s.b().f32();
        NnKernels kern = NnKernelProvider.kernels();
        return RowChunks.addInOrder(RowChunks.reduce(n, c, 1,
                (from, to, acc) -> kern.batchNormReluInputGradF32(ys, gs, zs, bs, mu, kf, bf, cf, ds, acc[0], from, to, c))[0]);
    }

    private static double[] inputGradientF64(Saved s, double[] gs, double[] ds, double[][] coefficients, int n,
            int c) {
        double[] kk = coefficients[0];
        double[] bb = coefficients[1];
        double[] c0 = coefficients[2];
        double[] ys = s.y().f64();
        double[] zs = s.z().f64();
        double[] bs = s.b().f64();
        double[] mean = s.mean();
        double[] col = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                int e = i * c + j;
                double dy = ys[e] > 0 ? gs[e] : 0.0;
                double d = kk[j] * dy + bb[j] * ((zs[e] + bs[j]) - mean[j]) + c0[j];
                ds[e] = d;
                col[j] += d;
            }
        }
        return col;
    }
}
