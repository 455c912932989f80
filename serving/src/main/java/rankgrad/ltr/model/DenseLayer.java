package rankgrad.ltr.model;

import java.util.ArrayList;
import java.util.List;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.Activation;
import rankgrad.nn.BatchNorm1d;
import rankgrad.nn.Layer;
import rankgrad.nn.Linear;

/**
 * One fully connected layer of a network in evaluation mode with its batch normalization folded
 * in: out = f(W x + b), the form serving systems take (Solr's NeuralNetworkModel, an ONNX Gemm and
 * activation).
 *
 * <p>Folding: batch normalization in evaluation mode is the affine map a z + c per feature, with
 * a = gamma / sqrt(running_var + eps) and c = beta - a running_mean (Ioffe and Szegedy 2015,
 * Alg. 2). After a linear layer it becomes W' = diag(a) W, b' = a b + c; over the input (Bruch et
 * al.'s input batch norm) it folds into the next linear layer: W (a x + c) + b = (W diag(a)) x +
 * (W c + b). Folding runs in float64; exporters round the result to float32 once.
 *
 * @param weight units x inputs: row u holds unit u's weights (the transpose of rankgrad's
 *     {@link Linear} storage, PyTorch's layout)
 * @param bias one per unit
 * @param activation f, {@link Activation.Identity} for a linear output
 */
public record DenseLayer(double[][] weight, double[] bias, Activation activation) {

    /** Input width. */
    public int inputs() {
        return weight[0].length;
    }

    /** Output width. */
    public int units() {
        return weight.length;
    }

    /**
     * The layers of a network (an {@code Mlp}'s modules, in order) with every batch normalization
     * folded into a linear layer. Refused with the reason: a batch normalization after an
     * activation, an activation that does not follow a linear layer, any other module, no linear
     * layer at all.
     */
    public static List<DenseLayer> fold(List<Layer> modules) {
        List<DenseLayer> out = new ArrayList<>();
        double[] inScale = null;
        double[] inShift = null;
        double[][] matrix = null;
        double[] bias = null;
        Activation activation = null;
        for (Layer m : modules) {
            if (m instanceof Linear lin) {
                if (matrix != null) {
                    out.add(new DenseLayer(matrix, bias, activation == null ? Activation.identity() : activation));
                }
                Tensor w = lin.weight().value();
                int in = lin.in();
                int units = lin.out();
                matrix = new double[units][in];
                bias = new double[units];
                for (int u = 0; u < units; u++) {
                    bias[u] = lin.bias().value().get(u);
                    for (int i = 0; i < in; i++) {
                        matrix[u][i] = w.get(i * units + u);
                    }
                }
                if (inScale != null) {
                    for (int u = 0; u < units; u++) {
                        for (int i = 0; i < in; i++) {
                            bias[u] += matrix[u][i] * inShift[i];
                            matrix[u][i] *= inScale[i];
                        }
                    }
                    inScale = null;
                    inShift = null;
                }
                activation = null;
            } else if (m instanceof BatchNorm1d bn) {
                double[][] ac = affine(bn);
                if (matrix == null) {
                    inScale = ac[0];
                    inShift = ac[1];
                } else {
                    if (activation != null) {
                        throw new IllegalArgumentException("a batch normalization after an activation cannot be folded"
                                + " into a linear layer");
                    }
                    for (int u = 0; u < matrix.length; u++) {
                        for (int i = 0; i < matrix[u].length; i++) {
                            matrix[u][i] *= ac[0][u];
                        }
                        bias[u] = ac[0][u] * bias[u] + ac[1][u];
                    }
                }
            } else if (m instanceof Activation f) {
                if (matrix == null || activation != null) {
                    throw new IllegalArgumentException("an activation that does not follow a linear layer");
                }
                activation = f;
            } else {
                throw new IllegalArgumentException("unsupported layer " + m);
            }
        }
        if (matrix == null) {
            throw new IllegalArgumentException("the network has no linear layer");
        }
        out.add(new DenseLayer(matrix, bias, activation == null ? Activation.identity() : activation));
        for (int k = 0; k < out.size(); k++) {
            out.get(k).requireRepresentable(k + 1);
        }
        return out;
    }

    /**
     * Refuses a folded layer that float32 cannot serve: a weight or bias that is NaN or infinite, or
     * beyond float32's range once rounded (a batch-norm variance near -eps makes gamma / sqrt(var +
     * eps) huge), or a unit whose absolute weights and bias sum past float32's largest value, so
     * that inputs of magnitude 1 (a standardized feature's typical size) already overflow it.
     */
    private void requireRepresentable(int index) {
        for (int u = 0; u < units(); u++) {
            double sum = Math.abs(bias[u]);
            requireFloat(bias[u], index, "the bias of unit " + (u + 1));
            for (int i = 0; i < inputs(); i++) {
                requireFloat(weight[u][i], index, "unit " + (u + 1) + "'s weight " + (i + 1));
                sum += Math.abs(weight[u][i]);
            }
            if (sum > Float.MAX_VALUE) {
                throw new IllegalArgumentException("folded layer " + index + ": unit " + (u + 1) + "'s absolute weights and"
                        + " bias sum to " + sum + ", past float32's largest value " + Float.MAX_VALUE + ", so"
                        + " inputs of magnitude 1 overflow it; no trained model holds such weights");
            }
        }
    }

    private static void requireFloat(double v, int index, String what) {
        if (!Double.isFinite(v) || Math.abs(v) > Float.MAX_VALUE) {
            throw new IllegalArgumentException("folded layer " + index + ": " + what + " is " + v
                    + (Double.isNaN(v) ? "" : ", beyond float32's range") + " (a weight or batch-norm statistic of the model"
                    + " makes it so); no trained model holds such weights");
        }
    }

    /**
     * Refuses a first layer whose weights overflow once the standardization's division by
     * {@code std} is applied to them (a std near 0, such as 1.4E-45, that no training data gives):
     * the served network computes W (x - mean) / std, which then overflows for any feature change.
     * A std of 0 marks a constant feature, whose column exporters zero.
     */
    public void requireRepresentableOver(float[] std) {
        for (int i = 0; i < inputs(); i++) {
            if (std[i] == 0f) {
                continue;
            }
            for (int u = 0; u < units(); u++) {
                double w = weight[u][i] / std[i];
                if (!Double.isFinite(w) || Math.abs(w) > Float.MAX_VALUE) {
                    throw new IllegalArgumentException("input feature " + (i + 1) + " has standard deviation " + std[i]
                            + ", and unit " + (u + 1) + "'s weight " + (float) weight[u][i] + " over it is " + w
                            + ", beyond float32's range; no training data gives such a deviation");
                }
            }
        }
    }

    /** Batch norm in evaluation mode as per-feature scale a and shift c. */
    private static double[][] affine(BatchNorm1d bn) {
        int n = bn.features();
        double[] a = new double[n];
        double[] c = new double[n];
        for (int j = 0; j < n; j++) {
            a[j] = bn.weight().value().get(j) / Math.sqrt(bn.runningVar().get(j) + bn.eps());
            c[j] = bn.bias().value().get(j) - a[j] * bn.runningMean().get(j);
        }
        return new double[][] {a, c};
    }
}
