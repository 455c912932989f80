package rankgrad.nn.ops;

import java.util.Arrays;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Tensor;

/**
 * Layer normalization of each row of an n x w matrix (Ba et al. 2016, Eq. 4), with a learned gain
 * and bias per column:
 *
 * <pre>
 *   mu = mean_c x[c],  var = mean_c (x[c] - mu)^2,  xhat = (x - mu) / sqrt(var + eps),
 *   y = gamma xhat + beta
 * </pre>
 *
 * Unlike batch normalization it uses no statistics of other rows, so a document's output does not
 * depend on the rest of the batch. Backward with gh = dL/dy gamma:
 * dL/dx = (gh - mean(gh) - xhat mean(gh xhat)) / sqrt(var + eps), dL/dgamma = sum_rows dL/dy xhat,
 * dL/dbeta = sum_rows dL/dy. Inputs: x (n x w), gamma (w), beta (w), one dtype.
 */
public final class LayerNorm implements Op<LayerNorm.Saved> {
    private final double eps;

    /**
     * Residuals: x (read, never written), each row's mean and 1 / sqrt(var + eps), and gamma, in
     * float64; backward recomputes xhat from them rather than keeping an n x w array.
     */
    record Saved(Tensor x, double[] mean, double[] inv, double[] gamma) {
    }

    /** Layer normalization with {@code eps} added to the variance (PyTorch's default is 1e-5). */
    public LayerNorm(double eps) {
        if (!(eps >= 0) || !Double.isFinite(eps)) {
            throw new IllegalArgumentException("layer-norm eps must be finite and >= 0, got " + eps);
        }
        this.eps = eps;
    }

    @Override
    public Result<Saved> forward(Tensor... in) {
        Tensor x = in[0];
        if (x.rank() != 2 || in[1].rank() != 1 || in[2].rank() != 1 || in[1].size() != x.cols()
                || in[2].size() != x.cols() || in[1].dtype() != x.dtype() || in[2].dtype() != x.dtype()) {
            throw new IllegalArgumentException("layer norm needs x (n x w) and gamma, beta of length w in one dtype, got "
                    + x.dtype() + Arrays.toString(x.shape()) + ", " + in[1].dtype() + Arrays.toString(in[1].shape())
                    + ", " + in[2].dtype() + Arrays.toString(in[2].shape()));
        }
        int n = x.rows();
        double[] gamma = in[1].toDoubleArray();
        double[] mean = new double[n];
        double[] inv = new double[n];
        Tensor y = Tensor.zeros(x.dtype(), n, x.cols());
        LayerNormLoops.forward(x, gamma, in[2].toDoubleArray(), eps, mean, inv, y);
        return Op.result(y, new Saved(x, mean, inv, gamma));
    }

    @Override
    public Tensor[] backward(Saved s, Tensor g, boolean[] needs) {
        int w = s.x().cols();
        Tensor dx = needs[0] ? Tensor.zeros(g.dtype(), s.x().rows(), w) : null;
        double[] dgamma = needs[1] ? new double[w] : null;
        double[] dbeta = needs[2] ? new double[w] : null;
        LayerNormLoops.backward(s.x(), s.mean(), s.inv(), s.gamma(), g, dx, dgamma, dbeta);
        return new Tensor[] {
            dx,
            dgamma == null ? null : AttentionLoops.tensor(dgamma, g.dtype(), w),
            dbeta == null ? null : AttentionLoops.tensor(dbeta, g.dtype(), w)};
    }
}
