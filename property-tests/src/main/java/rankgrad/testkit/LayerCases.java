package rankgrad.testkit;

import static rankgrad.testkit.Shapes.m;
import static rankgrad.testkit.Shapes.s;
import static rankgrad.testkit.Shapes.shapes;
import static rankgrad.testkit.Shapes.v;

import java.util.Arrays;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.ops.AffineBatchNormRelu;
import rankgrad.nn.ops.BatchNorm;
import rankgrad.simd.Workspace;

/**
 * The catalogue's cases for the fused training layers, which are reached through their own public
 * factories rather than through {@link Ops}: {@link BatchNorm} in training and inference mode, and
 * {@link AffineBatchNormRelu}, with and without a {@link Workspace}. Input values in [-2, 2].
 *
 * <p>Modes. Training mode normalizes with the batch's own mean and variance, which depend on x,
 * so its backward carries the statistics' terms; it needs at least 2 rows, hence d0 + 1. Inference
 * mode normalizes with given running statistics, which the op treats as constants (no gradient):
 * here they are side inputs, read from the example rather than from the perturbed inputs, so the
 * gradient check does not see a dependence the op rightly does not differentiate. Both modes are
 * then deterministic functions of the differentiated inputs, and the gradient law is exact. A
 * statistics sink does not change the numbers; the cases that take one check what it receives.
 *
 * <p>eps is drawn in [0.01, 0.1] (side input u in [-2, 2], eps = 0.01 + 0.09 (u + 2) / 4). At
 * least 0.01, as for layerNorm: a generated column of nearly equal values has a variance near 0,
 * where 1 / sqrt(var + eps) reaches 1 / sqrt(eps). With PyTorch's 1e-5 that is 316: float32's
 * error on (x - mu) / sqrt(var + eps), about 6e-8 |x| 316 = 4e-5, and the central difference's
 * rounding error, eps_machine |L| / h with L scaled by 316, come within a factor of a few of the
 * tolerances. At 0.01 the scale is at most 10 and both stay two orders below.
 */
final class LayerCases {
    /**
     * Distance kept between the fused layer's pre-activation U and ReLU's kink at 0. A gradient
     * check moves its inputs by h = 1e-6 along a unit direction, which moves U_ij by at most
     * h |grad U_ij|; with |x|, |W|, |gamma| &lt;= 2, at most 7 x 7 weights and 1 / sqrt(var + eps)
     * &lt;= 10, |grad U_ij| is below about 700 (the W part: 2 gamma, 10 for the scale, |X|_F &lt;= 15),
     * so U moves by at most 7e-4; float32 rounding of the inputs moves it by less. 1e-2 leaves more
     * than a factor 10.
     */
    private static final double RELU_MARGIN = 1e-2;

    private LayerCases() {
    }

    /** Adds the fused layers' cases to {@code r}. */
    static void addTo(CaseRegistry r) {
        r.add("BatchNorm.training(double)", new OpCase("batchNorm training (d0 + 1) x d1",
                d -> shapes(m(d[0] + 1, d[1]), v(d[1]), v(d[1]), s()), -2, 2,
                (e, x) -> Var.apply(BatchNorm.training(eps(e, 3)), x[0], x[1], x[2])));
        r.add("BatchNorm.training(double,StatisticsSink)", new OpCase("batchNorm training with sink",
                d -> shapes(m(d[0] + 1, d[1]), v(d[1]), v(d[1]), s()), -2, 2,
                (e, x) -> Var.apply(BatchNorm.training(eps(e, 3), expectStatistics(rows(x[0]), cols(x[0]))),
                        x[0], x[1], x[2])));
        r.add("BatchNorm.inference(double)", new OpCase("batchNorm inference d0 x d1",
                d -> shapes(m(d[0], d[1]), v(d[1]), v(d[1]), v(d[1]), v(d[1]), s()), -2, 2,
                (e, x) -> Var.apply(BatchNorm.inference(eps(e, 5)), x[0], x[1], x[2],
                        Var.constant(OpCases.side(e, 3, x[0].dtype())),
                        Var.constant(absolute(OpCases.side(e, 4, x[0].dtype()))))));
        r.add("AffineBatchNormRelu.of(double,StatisticsSink)", new OpCase("affineBatchNormRelu (d0 + 1) x d1 to d2",
                d -> shapes(m(d[0] + 1, d[1]), m(d[1], d[2]), v(d[2]), v(d[2]), v(d[2]), s()), -2, 2,
                (e, x) -> affineBatchNormRelu(
                        AffineBatchNormRelu.of(eps(e, 5), expectStatistics(rows(x[0]), cols(x[1]))), e, x)));
        // Z and dZ in a workspace of the node's own (Y and dX stay private: only a network can give
        // the guarantees those two flags ask for), a fresh one each time the case is applied.
        r.add("AffineBatchNormRelu.inWorkspace(double,StatisticsSink,Workspace,boolean,boolean)",
                new OpCase("affineBatchNormRelu in a workspace (d0 + 1) x d1 to d2",
                d -> shapes(m(d[0] + 1, d[1]), m(d[1], d[2]), v(d[2]), v(d[2]), v(d[2]), s()), -2, 2,
                (e, x) -> affineBatchNormRelu(AffineBatchNormRelu.inWorkspace(eps(e, 5),
                        expectStatistics(rows(x[0]), cols(x[1])), new Workspace(), false, false), e, x)));
    }

    /**
     * The fused layer on (X, W, b, gamma, beta + s): s, a constant from the example's unperturbed
     * values, moves beta_j just enough that U_ij = gamma_j xhat_ij + beta_j is at least
     * {@link #RELU_MARGIN} from 0 for every row i (the nearest such beta_j, so rows on both sides
     * of the kink stay as they were drawn wherever the margin allows).
     */
    private static Var affineBatchNormRelu(AffineBatchNormRelu op, OpExample e, Var[] x) {
        double[][] t = scaledDeviations(e, eps(e, 5));
        double[] beta = e.inputs()[4].toDoubleArray();
        double[] shift = new double[beta.length];
        for (int j = 0; j < beta.length; j++) {
            double[] centres = Arrays.stream(t[j]).map(u -> -u).toArray();
            shift[j] = KinkMargins.nearestOutside(beta[j], centres, RELU_MARGIN) - beta[j];
        }
        Var betaAway = Ops.add(x[4], Var.constant(Tensor.of(shift, shift.length).to(x[4].dtype())));
        return Var.apply(op, x[0], x[1], x[2], x[3], betaAway);
    }

    /** gamma_j (Z_ij - mu_j) / sqrt(var_j + eps) for Z = X W + b, in float64, as [column][row]. */
    private static double[][] scaledDeviations(OpExample e, double eps) {
        Tensor xs = e.inputs()[0];
        Tensor ws = e.inputs()[1];
        int n = xs.rows();
        int k = xs.cols();
        int c = ws.cols();
        double[][] t = new double[c][n];
        for (int j = 0; j < c; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                double z = e.inputs()[2].get(j);
                for (int p = 0; p < k; p++) {
                    z += xs.get(i, p) * ws.get(p, j);
                }
                t[j][i] = z;
                mean += z / n;
            }
            double variance = 0;
            for (int i = 0; i < n; i++) {
                variance += (t[j][i] - mean) * (t[j][i] - mean) / n;
            }
            double scale = e.inputs()[3].get(j) / Math.sqrt(variance + eps);
            for (int i = 0; i < n; i++) {
                t[j][i] = (t[j][i] - mean) * scale;
            }
        }
        return t;
    }

    /** eps in [0.01, 0.1] from the scalar side input {@code k} (see the class comment). */
    private static double eps(OpExample e, int k) {
        return 0.01 + 0.09 * (OpCases.sideScalar(e, k) + 2) / 4;
    }

    /** A sink that fails unless it receives one mean and one variance per column of a rows x cols batch. */
    private static BatchNorm.StatisticsSink expectStatistics(int rows, int cols) {
        return (mean, variance, n) -> {
            if (n != rows || mean.length != cols || variance.length != cols) {
                throw new AssertionError("statistics sink received " + mean.length + " means and " + variance.length
                        + " variances of " + n + " rows for a batch of " + rows + " x " + cols);
            }
        };
    }

    private static int rows(Var x) {
        return x.value().rows();
    }

    private static int cols(Var x) {
        return x.value().cols();
    }

    private static Tensor absolute(Tensor t) {
        Tensor out = Tensor.zerosLike(t);
        for (int i = 0; i < t.size(); i++) {
            out.set(i, Math.abs(t.get(i)));
        }
        return out;
    }
}
