package rankgrad.nn;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.BatchNorm;

/**
 * Batch normalization of each feature (column) over the rows of a batch (Ioffe and Szegedy 2015),
 * with PyTorch's {@code BatchNorm1d} semantics: y = gamma (x - mu) / sqrt(var + eps) + beta.
 *
 * <ul>
 *   <li>Training mode: mu and var are the batch's mean and biased variance (divisor n), and the
 *       running statistics move towards the batch's:
 *       running_mean = (1 - momentum) running_mean + momentum mu,
 *       running_var = (1 - momentum) running_var + momentum var n / (n - 1) (unbiased).
 *       Momentum follows PyTorch (default 0.1); TensorFlow's "momentum" (Bruch et al. Sec. 3.5
 *       use 0.8 and 0.99) is 1 minus this value.
 *   <li>Evaluation mode: mu and var are the running statistics (a fixed affine map per feature).
 * </ul>
 *
 * <p>Names: parameters {@code weight} (gamma, init 1) and {@code bias} (beta, init 0); buffers
 * {@code running_mean} (init 0) and {@code running_var} (init 1), as in PyTorch. Forward and backward
 * are one fused node ({@link BatchNorm}). In ranking, the rows of a batch are the documents of all
 * its queries, so the statistics are over documents.
 *
 * <p>The running buffers are updated in place by training-mode forward passes (they belong to this
 * module, never to a graph).
 */
public final class BatchNorm1d implements Layer {
    /** PyTorch's default eps. */
    public static final double DEFAULT_EPS = 1e-5;
    /** PyTorch's default momentum. */
    public static final double DEFAULT_MOMENTUM = 0.1;

    private final int features;
    private final double eps;
    private final double momentum;
    private final Var weight;
    private final Var bias;
    private final Tensor runningMean;
    private final Tensor runningVar;
    private final Map<String, Var> parameters;
    private final Map<String, Tensor> buffers;
    private boolean training = true;

    private BatchNorm1d(int features, DType dtype, double eps, double momentum) {
        this.features = features;
        this.eps = eps;
        this.momentum = momentum;
        this.weight = Var.param(Tensor.full(dtype, 1.0, features)).label("weight");
        this.bias = Var.param(Tensor.zeros(dtype, features)).label("bias");
        this.runningMean = Tensor.zeros(dtype, features);
        this.runningVar = Tensor.full(dtype, 1.0, features);
        Map<String, Var> p = new LinkedHashMap<>();
        p.put("weight", weight);
        p.put("bias", bias);
        this.parameters = Collections.unmodifiableMap(p);
        Map<String, Tensor> b = new LinkedHashMap<>();
        b.put("running_mean", runningMean);
        b.put("running_var", runningVar);
        this.buffers = Collections.unmodifiableMap(b);
    }

    /** Batch norm over {@code features} columns with eps 1e-5 and momentum 0.1. */
    public static BatchNorm1d create(int features, DType dtype) {
        return create(features, dtype, DEFAULT_EPS, DEFAULT_MOMENTUM);
    }

    /** Batch norm with explicit eps &gt; 0 and momentum in [0, 1]. */
    public static BatchNorm1d create(int features, DType dtype, double eps, double momentum) {
        if (features < 1) {
            throw new IllegalArgumentException("batch norm needs at least one feature, got " + features);
        }
        if (!(eps > 0) || !Double.isFinite(eps)) {
            throw new IllegalArgumentException("batch norm eps must be positive and finite, got " + eps);
        }
        if (!(momentum >= 0 && momentum <= 1)) {
            throw new IllegalArgumentException("batch norm momentum must be in [0, 1] (PyTorch convention), got "
                    + momentum);
        }
        return new BatchNorm1d(features, dtype, eps, momentum);
    }

    public int features() {
        return features;
    }

    public double eps() {
        return eps;
    }

    public double momentum() {
        return momentum;
    }

    /** gamma, the per-feature scale. */
    public Var weight() {
        return weight;
    }

    /** beta, the per-feature shift. */
    public Var bias() {
        return bias;
    }

    /** The running mean (live buffer; read only). */
    public Tensor runningMean() {
        return runningMean;
    }

    /** The running unbiased variance (live buffer; read only). */
    public Tensor runningVar() {
        return runningVar;
    }

    public boolean isTraining() {
        return training;
    }

    @Override
    public void setTraining(boolean training) {
        this.training = training;
    }

    @Override
    public Var forward(Var x) {
        Tensor v = x.value();
        if (v.rank() != 2 || v.cols() != features) {
            throw new IllegalArgumentException("batch norm over " + features + " features needs a matrix with "
                    + features + " columns, got shape " + Arrays.toString(v.shape()));
        }
        if (training) {
            return Var.apply(BatchNorm.training(eps, this::updateRunningStatistics), x, weight, bias);
        }
        return Var.apply(BatchNorm.inference(eps), x, weight, bias, Var.constant(runningMean),
                Var.constant(runningVar));
    }

    /** The {@link BatchNorm.StatisticsSink} of this module (package-private: the fused MLP layer uses it). */
    void updateRunningStatistics(double[] mean, double[] biasedVariance, int rows) {
        double unbias = rows / (rows - 1.0);
        for (int j = 0; j < features; j++) {
            runningMean.set(j, (1 - momentum) * runningMean.get(j) + momentum * mean[j]);
            runningVar.set(j, (1 - momentum) * runningVar.get(j) + momentum * biasedVariance[j] * unbias);
        }
    }

    @Override
    public Map<String, Var> namedParameters() {
        return parameters;
    }

    @Override
    public Map<String, Tensor> namedBuffers() {
        return buffers;
    }

    @Override
    public String toString() {
        return "BatchNorm1d(" + features + ", eps=" + eps + ", momentum=" + momentum + ")";
    }
}
