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
        return out;
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
