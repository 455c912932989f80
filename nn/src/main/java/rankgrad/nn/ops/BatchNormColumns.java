package rankgrad.nn.ops;

import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;

/**
 * The per-column arithmetic of batch normalization that {@link BatchNorm} and
 * {@link AffineBatchNormRelu} share, in one place so that the fused node computes the same bits as
 * the unfused one (Ioffe and Szegedy 2015, Algorithm 1):
 *
 * <pre>
 *   mean_j = (1/n) sum_t S_tj     M2_j = sum_t [M2_tj + n_t (S_tj / n_t - mean_j)^2]    var_j = M2_j / n
 *   invstd_j = 1 / sqrt(var_j + eps)
 *   dx_ij = k_j dy_ij + b_j (x_ij - mean_j) + c0_j,   k_j = gamma_j invstd_j,
 *   b_j = -k_j invstd_j^2 sum_i dy_ij (x_ij - mean_j) / n,   c0_j = -k_j sum_i dy_ij / n
 * </pre>
 *
 * the statistics combined from per-chunk sums S_t and squared deviations M2_t over the rows of
 * {@link RowChunks} (Chan et al.'s pairwise update), and the float32 passes shifted by the float32
 * mean mu_j = (float) mean_j, so that x - mu_j is exact near the mean (Sterbenz) and the part of the
 * mean that float32 cannot hold goes into a per-column constant.
 */
final class BatchNormColumns {
    private BatchNormColumns() {
    }

    /** Refuses an eps that is not positive and finite. */
    static void checkEps(double eps) {
        if (!(eps > 0) || !Double.isFinite(eps)) {
            throw new IllegalArgumentException("batch norm eps must be positive and finite, got " + eps);
        }
    }

    /** Refuses a training batch of fewer than 2 rows (its variance would be 0). */
    static void checkTrainingRows(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("batch norm in training mode needs at least 2 rows per batch, got " + n
                    + "; switch the model to eval mode to score single rows");
        }
    }

    /**
     * {mean, biased variance} per column of n rows from each {@link RowChunks} chunk's column sums
     * {@code sums[t]} and squared deviations from its own mean {@code m2[t]}, combined in chunk order.
     */
    static double[][] combine(double[][] sums, double[][] m2, int n, int c) {
        int h = RowChunks.height(c);
        int chunks = sums.length;
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

    /** 1 / sqrt(variance_j + eps) per column. */
    static double[] invStd(double[] variance, double eps) {
        double[] invStd = new double[variance.length];
        for (int j = 0; j < invStd.length; j++) {
            invStd[j] = 1.0 / Math.sqrt(variance[j] + eps);
        }
        return invStd;
    }

    /** The float32 means mu_j = (float) mean_j the float32 passes subtract. */
    static float[] floatMeans(double[] mean) {
        float[] mu = new float[mean.length];
        for (int j = 0; j < mu.length; j++) {
            mu[j] = (float) mean[j];
        }
        return mu;
    }

    /**
     * {scale, shift} of the float32 forward pass y = (x - mu_j) scale_j + shift_j: scale = gamma
     * invstd and shift = beta - (mean - mu) gamma invstd, the rest of the mean folded into the shift.
     */
    static float[][] normalizationF32(double[] mean, float[] mu, double[] invStd, double[] gamma, double[] beta) {
        int c = mean.length;
        float[] scale = new float[c];
        float[] shift = new float[c];
        for (int j = 0; j < c; j++) {
            scale[j] = (float) (gamma[j] * invStd[j]);
            shift[j] = (float) (beta[j] - (mean[j] - mu[j]) * gamma[j] * invStd[j]);
        }
        return new float[][] {scale, shift};
    }

    /**
     * {sum_i dy_ij, sum_i dy_ij (x_ij - mean_j)} from the chunks' sums of dy and of dy (x - mu_j),
     * added in chunk order into the first chunk's arrays (which are returned).
     */
    static double[][] mergeGradientSums(double[][] sumDy, double[][] sumDyXc, double[] mean, float[] mu) {
        int c = mean.length;
        for (int t = 1; t < sumDy.length; t++) {
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

    /** dgamma_j = invstd_j sum_i dy_ij (x_ij - mean_j), as a vector of {@code dtype}. */
    static Tensor gammaGradient(DType dtype, double[] sumDyXc, double[] invStd) {
        Tensor t = Tensor.zeros(dtype, invStd.length);
        for (int j = 0; j < invStd.length; j++) {
            t.set(j, sumDyXc[j] * invStd[j]);
        }
        return t;
    }

    /** The column values {@code v} as a vector of {@code dtype} (dbeta = sum_i dy, db = sum_i dZ). */
    static Tensor vector(DType dtype, double[] v) {
        Tensor t = Tensor.zeros(dtype, v.length);
        for (int j = 0; j < v.length; j++) {
            t.set(j, v[j]);
        }
        return t;
    }

    /**
     * {k, b, c0} of dx = k dy + b (x - mean) + c0 (the class formula); b = c0 = 0 when
     * {@code sumDy} is null (inference: the statistics are constants).
     */
    static double[][] inputGradientCoefficients(double[] gamma, double[] invStd, double[] sumDy, double[] sumDyXc,
            int n) {
        int c = invStd.length;
        double[] k = new double[c];
        double[] b = new double[c];
        double[] c0 = new double[c];
        for (int j = 0; j < c; j++) {
            k[j] = gamma[j] * invStd[j];
            if (sumDy != null) {
                b[j] = -k[j] * invStd[j] * invStd[j] * sumDyXc[j] / n;
                c0[j] = -k[j] * sumDy[j] / n;
            }
        }
        return new double[][] {k, b, c0};
    }

    /**
     * {k, b, c0'} in float32 for the pass dx = k dy + b (x - mu_j) + c0': as in
     * {@link #normalizationF32}, b (x - mean) = b (x - mu_j) - b (mean - mu_j), so c0' = c0 - b (mean - mu_j).
     */
    static float[][] inputGradientF32(double[][] coefficients, double[] mean, float[] mu) {
        double[] k = coefficients[0];
        double[] b = coefficients[1];
        double[] c0 = coefficients[2];
        int c = mean.length;
        float[] kf = new float[c];
        float[] bf = new float[c];
        float[] cf = new float[c];
        for (int j = 0; j < c; j++) {
            kf[j] = (float) k[j];
            bf[j] = (float) b[j];
            cf[j] = (float) (c0[j] - b[j] * (mean[j] - mu[j]));
        }
        return new float[][] {kf, bf, cf};
    }
}
