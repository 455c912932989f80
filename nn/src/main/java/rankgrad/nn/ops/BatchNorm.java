package rankgrad.nn.ops;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * Batch normalization of the columns of an n x c matrix (Ioffe and Szegedy 2015, Algorithm 1), as
 * one fused node with a hand-written backward:
 *
 * <pre>
 *   mu_j = (1/n) sum_i x_ij          var_j = (1/n) sum_i (x_ij - mu_j)^2      (biased)
 *   invstd_j = 1 / sqrt(var_j + eps)  xhat_ij = (x_ij - mu_j) invstd_j
 *   y_ij = gamma_j xhat_ij + beta_j
 * </pre>
 *
 * With dy = dL/dy, in training mode (statistics of the batch, which depend on x):
 *
 * <pre>
 *   dbeta_j = sum_i dy_ij        dgamma_j = sum_i dy_ij xhat_ij
 *   dx_ij = (1/n) gamma_j invstd_j (n dy_ij - dbeta_j - xhat_ij dgamma_j)
 * </pre>
 *
 * In inference mode mu and var are given (running statistics, constants), so dx = gamma invstd dy.
 *
 * <p>Inputs: training mode {@code (x, gamma, beta)}; inference mode
 * {@code (x, gamma, beta, mean, variance)}, gamma to variance vectors of length c. Training mode
 * reports each batch's mean and biased variance to a {@link StatisticsSink} (the module updates its
 * running statistics there).
 *
 * <p>Implementation notes: float32 statistics are accumulated in double over a fixed partition of
 * the rows: each chunk (about 128 KiB) takes its sum and, in a second pass that runs from cache, its
 * sum of squared deviations from its own mean; chunks are combined in order with Chan et al.'s
 * pairwise update, so memory is read once, no cancellation occurs, and the result does not depend on
 * the thread count. Forward is then one more pass; backward is two (column sums of dy and
 * dy (x - mu), then dx). xhat is recomputed, not stored. float64 runs the textbook two-pass loops.
 */
public final class BatchNorm implements Op<BatchNorm.Saved> {

    /** Receives the statistics of each training batch. */
    @FunctionalInterface
    public interface StatisticsSink {
        /**
         * @param mean per-column batch mean
         * @param biasedVariance per-column batch variance with divisor n
         * @param rows n, the number of rows of the batch
         */
        void accept(double[] mean, double[] biasedVariance, int rows);
    }

    /** What backward needs: the input, the statistics used, gamma, and which mode ran. */
    public record Saved(Tensor x, double[] mean, double[] invStd, double[] gamma, boolean batchStatistics) {
    }

    private final double eps;
    private final boolean batchStatistics;
    private final StatisticsSink sink;

    private BatchNorm(double eps, boolean batchStatistics, StatisticsSink sink) {
        BatchNormColumns.checkEps(eps);
        this.eps = eps;
        this.batchStatistics = batchStatistics;
        this.sink = sink;
    }

    /**
     * Training mode: normalizes with the batch's statistics, inputs (x, gamma, beta), and reports
     * them to {@code sink}.
     */
    public static BatchNorm training(double eps, StatisticsSink sink) {
        return new BatchNorm(eps, true, Objects.requireNonNull(sink, "sink"));
    }

    /** Training mode without reporting the statistics (a pure function of its inputs). */
    public static BatchNorm training(double eps) {
        return new BatchNorm(eps, true, null);
    }

    /** Inference mode: normalizes with given statistics, inputs (x, gamma, beta, mean, variance). */
    public static BatchNorm inference(double eps) {
        return new BatchNorm(eps, false, null);
    }

    @Override
    public String name() {
        return batchStatistics ? "BatchNorm(train)" : "BatchNorm(eval)";
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        int arity = batchStatistics ? 3 : 5;
        if (in.length != arity) {
            throw new IllegalArgumentException(name() + " takes " + arity + " inputs, got " + in.length);
        }
        Tensor x = in[0];
        if (x.rank() != 2) {
            throw new IllegalArgumentException(name() + " needs a matrix (rows x features), got shape "
                    + Arrays.toString(x.shape()));
        }
        int n = x.dim(0);
        int c = x.dim(1);
        for (int i = 1; i < in.length; i++) {
            if (in[i].rank() != 1 || in[i].size() != c || in[i].dtype() != x.dtype()) {
                throw new IllegalArgumentException(name() + " input " + i + " must be a " + x.dtype()
                        + " vector of length " + c + ", got " + in[i].dtype() + Arrays.toString(in[i].shape()));
            }
        }
        double[] mean;
        double[] variance;
        if (batchStatistics) {
            BatchNormColumns.checkTrainingRows(n);
            double[][] stats = x.dtype() == DType.F32 ? statisticsF32(x.f32(), n, c) : statisticsF64(x.f64(), n, c);
            mean = stats[0];
            variance = stats[1];
            if (sink != null) {
                sink.accept(mean.clone(), variance.clone(), n);
            }
        } else {
            mean = in[3].toDoubleArray();
            variance = in[4].toDoubleArray();
        }
        double[] invStd = BatchNormColumns.invStd(variance, eps);
        double[] gamma = in[1].toDoubleArray();
        double[] beta = in[2].toDoubleArray();
        Tensor y = Tensor.zerosLike(x);
        if (x.dtype() == DType.F32) {
            normalizeF32(x.f32(), y.f32(), n, c, mean, invStd, gamma, beta);
        } else {
            double[] xs = x.f64();
            double[] ys = y.f64();
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < c; j++) {
                    ys[i * c + j] = (xs[i * c + j] - mean[j]) * invStd[j] * gamma[j] + beta[j];
                }
            }
        }
        return Op.result(y, new Saved(x, mean, invStd, gamma, batchStatistics));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        Tensor x = s.x();
        int n = x.dim(0);
        int c = x.dim(1);
        Tensor[] grads = new Tensor[needs.length];
        boolean dxDependsOnSums = needs[0] && s.batchStatistics();
        double[] sumDy = null;
        double[] sumDyXc = null;
        if (needs[1] || needs[2] || dxDependsOnSums) {
            double[][] sums = x.dtype() == DType.F32 ? gradientSumsF32(x.f32(), g.f32(), n, c, s.mean())
                    : gradientSumsF64(x.f64(), g.f64(), n, c, s.mean());
            sumDy = sums[0];
            sumDyXc = sums[1];
        }
        double[] invStd = s.invStd();
        if (needs[1]) {
            grads[1] = BatchNormColumns.gammaGradient(x.dtype(), sumDyXc, invStd);
        }
        if (needs[2]) {
            grads[2] = BatchNormColumns.vector(x.dtype(), sumDy);
        }
        if (needs[0]) {
            // dx = k dy + b (x - mu) + c0, expanding the formula above; b = c0 = 0 in inference.
            double[][] coefficients = BatchNormColumns.inputGradientCoefficients(s.gamma(), invStd,
                    s.batchStatistics() ? sumDy : null, sumDyXc, n);
            grads[0] = Tensor.zerosLike(x);
            if (x.dtype() == DType.F32) {
                inputGradientF32(x.f32(), g.f32(), grads[0].f32(), n, c, s.mean(), coefficients);
            } else {
                double[] k = coefficients[0];
                double[] b = coefficients[1];
                double[] c0 = coefficients[2];
                double[] xs = x.f64();
                double[] gs = g.f64();
                double[] ds = grads[0].f64();
                for (int i = 0; i < n; i++) {
                    for (int j = 0; j < c; j++) {
                        int e = i * c + j;
                        ds[e] = k[j] * gs[e] + b[j] * (xs[e] - s.mean()[j]) + c0[j];
                    }
                }
            }
        }
        return grads;
    }

    /** {mean, biased variance} per column, chunked and combined as the class notes say. */
    private static double[][] statisticsF32(float[] xs, int n, int c) {
        double[][][] partial = RowChunks.reduce(n, c, 2, (from, to, acc) -> {
            double[] s = acc[0];
            for (int i = from; i < to; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    s[j] += xs[o + j];
                }
            }
            double[] mu = new double[c];
            for (int j = 0; j < c; j++) {
                mu[j] = s[j] / (to - from);
            }
            double[] q = acc[1];
            for (int i = from; i < to; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    double d = xs[o + j] - mu[j];
                    q[j] += d * d;
                }
            }
        });
        return BatchNormColumns.combine(partial[0], partial[1], n, c);
    }

    private static double[][] statisticsF64(double[] xs, int n, int c) {
        double[] mean = RowChunks.columnSums(xs, n, c);
        for (int j = 0; j < c; j++) {
            mean[j] /= n;
        }
        double[] variance = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                double d = xs[i * c + j] - mean[j];
                variance[j] += d * d;
            }
        }
        for (int j = 0; j < c; j++) {
            variance[j] /= n;
        }
        return new double[][] {mean, variance};
    }

    private static void normalizeF32(float[] xs, float[] ys, int n, int c, double[] mean, double[] invStd,
            double[] gamma, double[] beta) {
        // x - mu[j] is exact for x near the mean (Sterbenz); the part of the mean that float32
        // cannot hold goes into the shift, so a large mean does not cost the small deviations.
        float[] mu = BatchNormColumns.floatMeans(mean);
        float[][] affine = BatchNormColumns.normalizationF32(mean, mu, invStd, gamma, beta);
        float[] scale = affine[0];
        float[] shift = affine[1];
        RowChunks.forEach(n, c, (from, to) -> {
            for (int i = from; i < to; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    ys[o + j] = (xs[o + j] - mu[j]) * scale[j] + shift[j];
                }
            }
        });
    }

    /** {sum_i dy_ij, sum_i dy_ij (x_ij - mu_j)} per column. */
    private static double[][] gradientSumsF32(float[] xs, float[] gs, int n, int c, double[] mean) {
        float[] mu = BatchNormColumns.floatMeans(mean);
        double[][][] partial = RowChunks.reduce(n, c, 2, (from, to, acc) -> {
            double[] a = acc[0];
            double[] b = acc[1];
            for (int i = from; i < to; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    float dy = gs[o + j];
                    a[j] += dy;
                    b[j] += dy * (double) (xs[o + j] - mu[j]);
                }
            }
        });
        return BatchNormColumns.mergeGradientSums(partial[0], partial[1], mean, mu);
    }

    private static double[][] gradientSumsF64(double[] xs, double[] gs, int n, int c, double[] mean) {
        double[] a = new double[c];
        double[] b = new double[c];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < c; j++) {
                double dy = gs[i * c + j];
                a[j] += dy;
                b[j] += dy * (xs[i * c + j] - mean[j]);
            }
        }
        return new double[][] {a, b};
    }

    private static void inputGradientF32(float[] xs, float[] gs, float[] ds, int n, int c, double[] mean,
            double[][] coefficients) {
        float[] mu = BatchNormColumns.floatMeans(mean);
        float[][] f = BatchNormColumns.inputGradientF32(coefficients, mean, mu);
        float[] kf = f[0];
        float[] bf = f[1];
        float[] cf = f[2];
        RowChunks.forEach(n, c, (from, to) -> {
            for (int i = from; i < to; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    ds[o + j] = kf[j] * gs[o + j] + bf[j] * (xs[o + j] - mu[j]) + cf[j];
                }
            }
        });
    }
}
