package rankgrad.autodiff.ops;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.internal.Parallel;
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
        if (!(eps > 0) || !Double.isFinite(eps)) {
            throw new IllegalArgumentException("batch norm eps must be positive and finite, got " + eps);
        }
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
            if (n < 2) {
                throw new IllegalArgumentException("batch norm in training mode needs at least 2 rows per batch, got "
                        + n + "; switch the model to eval mode to score single rows");
            }
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
        double[] invStd = new double[c];
        for (int j = 0; j < c; j++) {
            invStd[j] = 1.0 / Math.sqrt(variance[j] + eps);
        }
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
            grads[1] = Tensor.zeros(x.dtype(), c);
            for (int j = 0; j < c; j++) {
                grads[1].set(j, sumDyXc[j] * invStd[j]);
            }
        }
        if (needs[2]) {
            grads[2] = Tensor.zeros(x.dtype(), c);
            for (int j = 0; j < c; j++) {
                grads[2].set(j, sumDy[j]);
            }
        }
        if (needs[0]) {
            // dx = k dy + b (x - mu) + c0 with k = gamma invstd, expanding the formula above:
            // b = -k invstd^2 sum(dy (x - mu)) / n, c0 = -k sum(dy) / n; b = c0 = 0 in inference.
            double[] k = new double[c];
            double[] b = new double[c];
            double[] c0 = new double[c];
            for (int j = 0; j < c; j++) {
                k[j] = s.gamma()[j] * invStd[j];
                if (s.batchStatistics()) {
                    b[j] = -k[j] * invStd[j] * invStd[j] * sumDyXc[j] / n;
                    c0[j] = -k[j] * sumDy[j] / n;
                }
            }
            grads[0] = Tensor.zerosLike(x);
            if (x.dtype() == DType.F32) {
                inputGradientF32(x.f32(), g.f32(), grads[0].f32(), n, c, s.mean(), k, b, c0);
            } else {
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
        int h = RowChunks.height(c);
        int chunks = RowChunks.count(n, c);
        double[][] sums = new double[chunks][];
        double[][] m2 = new double[chunks][];
        Parallel.forEach(chunks, t -> {
            int r0 = t * h;
            int r1 = Math.min(n, r0 + h);
            double[] s = new double[c];
            for (int i = r0; i < r1; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    s[j] += xs[o + j];
                }
            }
            double[] mu = new double[c];
            for (int j = 0; j < c; j++) {
                mu[j] = s[j] / (r1 - r0);
            }
            double[] q = new double[c];
            for (int i = r0; i < r1; i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    double d = xs[o + j] - mu[j];
                    q[j] += d * d;
                }
            }
            sums[t] = s;
            m2[t] = q;
        });
        double[] mean = new double[c];
        for (int t = 0; t < chunks; t++) {
            for (int j = 0; j < c; j++) {
                mean[j] += sums[t][j];
            }
        }
        for (int j = 0; j < c; j++) {
            mean[j] /= n;
        }
        // Chan et al.: M2 = sum_t [M2_t + n_t (mean_t - mean)^2].
        double[] variance = new double[c];
        for (int t = 0; t < chunks; t++) {
            int nt = Math.min(n, (t + 1) * h) - t * h;
            for (int j = 0; j < c; j++) {
                double d = sums[t][j] / nt - mean[j];
                variance[j] += m2[t][j] + nt * d * d;
            }
        }
        for (int j = 0; j < c; j++) {
            variance[j] /= n;
        }
        return new double[][] {mean, variance};
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
        float[] mu = new float[c];
        float[] scale = new float[c];
        float[] shift = new float[c];
        for (int j = 0; j < c; j++) {
            // x - mu[j] is exact for x near the mean (Sterbenz); the part of the mean that float32
            // cannot hold goes into the shift, so a large mean does not cost the small deviations.
            mu[j] = (float) mean[j];
            scale[j] = (float) (gamma[j] * invStd[j]);
            shift[j] = (float) (beta[j] - (mean[j] - mu[j]) * gamma[j] * invStd[j]);
        }
        int h = RowChunks.height(c);
        Parallel.forEach(RowChunks.count(n, c), t -> {
            for (int i = t * h; i < Math.min(n, (t + 1) * h); i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    ys[o + j] = (xs[o + j] - mu[j]) * scale[j] + shift[j];
                }
            }
        });
    }

    /** {sum_i dy_ij, sum_i dy_ij (x_ij - mu_j)} per column. */
    private static double[][] gradientSumsF32(float[] xs, float[] gs, int n, int c, double[] mean) {
        float[] mu = new float[c];
        for (int j = 0; j < c; j++) {
            mu[j] = (float) mean[j];
        }
        int h = RowChunks.height(c);
        int chunks = RowChunks.count(n, c);
        double[][] sumDy = new double[chunks][];
        double[][] sumDyXc = new double[chunks][];
        Parallel.forEach(chunks, t -> {
            double[] a = new double[c];
            double[] b = new double[c];
            for (int i = t * h; i < Math.min(n, (t + 1) * h); i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    float dy = gs[o + j];
                    a[j] += dy;
                    b[j] += dy * (double) (xs[o + j] - mu[j]);
                }
            }
            sumDy[t] = a;
            sumDyXc[t] = b;
        });
        for (int t = 1; t < chunks; t++) {
            for (int j = 0; j < c; j++) {
                sumDy[0][j] += sumDy[t][j];
                sumDyXc[0][j] += sumDyXc[t][j];
            }
        }
        // The chunks summed dy (x - mu[j]); sum dy (x - mean) = that - (mean - mu[j]) sum dy.
        for (int j = 0; j < c; j++) {
            sumDyXc[0][j] -= (mean[j] - mu[j]) * sumDy[0][j];
        }
        return new double[][] {sumDy[0], sumDyXc[0]};
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
            double[] k, double[] b, double[] c0) {
        float[] mu = new float[c];
        float[] kf = new float[c];
        float[] bf = new float[c];
        float[] cf = new float[c];
        for (int j = 0; j < c; j++) {
            // As in normalizeF32: b (x - mean) = b (x - mu[j]) - b (mean - mu[j]).
            mu[j] = (float) mean[j];
            kf[j] = (float) k[j];
            bf[j] = (float) b[j];
            cf[j] = (float) (c0[j] - b[j] * (mean[j] - mu[j]));
        }
        int h = RowChunks.height(c);
        Parallel.forEach(RowChunks.count(n, c), t -> {
            for (int i = t * h; i < Math.min(n, (t + 1) * h); i++) {
                int o = i * c;
                for (int j = 0; j < c; j++) {
                    ds[o + j] = kf[j] * gs[o + j] + bf[j] * (xs[o + j] - mu[j]) + cf[j];
                }
            }
        });
    }
}
