package rankgrad.ltr.model;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.nn.Activation;
import rankgrad.autodiff.nn.BatchNorm1d;
import rankgrad.autodiff.nn.Layer;
import rankgrad.autodiff.nn.Linear;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;

/**
 * Exports a model as an Apache Solr LTR {@code NeuralNetworkModel}: Solr scores a document by
 * {@code out = act(M x + b)} layer by layer, M stored as {@code [units][inputs]}, with the
 * activations identity, relu, leakyrelu (slope 0.01), sigmoid and tanh.
 *
 * <p>What is translated: every Linear layer becomes a Solr layer (W transposed, as rankgrad stores
 * W as inputs x units); batch normalization in evaluation mode is an affine map
 * a z + c (a = gamma / sqrt(running_var + eps), c = beta - a running_mean) and is folded into the
 * Linear layer before it (or, over the input, into the first one); global standardization becomes
 * Solr {@code StandardNormalizer}s on the features, and a feature that was constant in training
 * (std 0, normalized to 0) gets its first-layer column zeroed instead, since Solr needs std > 0.
 *
 * <p>What is refused, with the reason: query-level z-score normalization (Solr normalizes each
 * document's features alone and never sees the rest of the query), and activations Solr lacks
 * (CELU; leaky ReLU with a slope other than 0.01).
 */
public final class SolrExport {
    private static final String MODEL_CLASS = "org.apache.solr.ltr.model.NeuralNetworkModel";
    private static final String STANDARD_NORMALIZER = "org.apache.solr.ltr.norm.StandardNormalizer";

    private SolrExport() {
    }

    /** Writes the Solr model JSON for {@code model} atomically. */
    public static void write(RankingModel model, String name, List<String> featureNames, Path file) throws IOException {
        AtomicWrite.writeString(file, Json.write(toMap(model, name, featureNames)));
    }

    /** The Solr model as JSON values; {@code featureNames} are the Solr feature-store names, in feature order. */
    public static Map<String, Object> toMap(RankingModel model, String name, List<String> featureNames) {
        int d = model.features();
        if (featureNames.size() != d) {
            throw new IllegalArgumentException("the model has " + d + " features but " + featureNames.size() + " names were given");
        }
        Normalization norm = model.normalization();
        if (norm instanceof Normalization.QueryZScore) {
            throw new IllegalArgumentException("cannot export to Solr: the model uses query-level z-score normalization, which"
                    + " Solr cannot serve (it normalizes each document's features alone, never seeing the rest of the query);"
                    + " train with global standardization or no normalization to export");
        }
        List<Map<String, Object>> layers = layers(model.network().layers().modules());
        List<Object> features = new ArrayList<>();
        for (int f = 0; f < d; f++) {
            Map<String, Object> feat = new LinkedHashMap<>();
            feat.put("name", featureNames.get(f));
            if (norm instanceof Normalization.Standardization s) {
                Map<String, Object> params = new LinkedHashMap<>();
                boolean constant = s.std()[f] == 0f;
                params.put("avg", Float.toString(s.mean()[f]));
                params.put("std", Float.toString(constant ? 1f : s.std()[f]));
                Map<String, Object> n = new LinkedHashMap<>();
                n.put("class", STANDARD_NORMALIZER);
                n.put("params", params);
                feat.put("norm", n);
                if (constant) {
                    zeroInputColumn(layers.get(0), f);
                }
            }
            features.add(feat);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("class", MODEL_CLASS);
        root.put("name", name);
        root.put("features", features);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("layers", new ArrayList<Object>(layers));
        root.put("params", params);
        return root;
    }

    /** Builds Solr layers, each {"matrix": float[units][inputs] as a list of rows, "bias", "activation"}. */
    private static List<Map<String, Object>> layers(List<Layer> modules) {
        List<Map<String, Object>> out = new ArrayList<>();
        double[] inScale = null;
        double[] inShift = null;
        double[][] matrix = null;
        double[] bias = null;
        String activation = null;
        for (Layer m : modules) {
            if (m instanceof Linear lin) {
                if (matrix != null) {
                    out.add(layer(matrix, bias, activation == null ? "identity" : activation));
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
                    // W (a x + c) + b = (W diag(a)) x + (W c + b): the input batch norm disappears.
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
                        throw new IllegalArgumentException("cannot export to Solr: a batch normalization after an activation"
                                + " cannot be folded into a linear layer");
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
                    throw new IllegalArgumentException("cannot export to Solr: an activation that does not follow a linear layer");
                }
                activation = solrActivation(f);
            } else {
                throw new IllegalArgumentException("cannot export to Solr: unsupported layer " + m);
            }
        }
        if (matrix == null) {
            throw new IllegalArgumentException("cannot export to Solr: the network has no linear layer");
        }
        out.add(layer(matrix, bias, activation == null ? "identity" : activation));
        return out;
    }

    private static Map<String, Object> layer(double[][] matrix, double[] bias, String activation) {
        List<Object> rows = new ArrayList<>();
        for (double[] row : matrix) {
            rows.add(toFloats(row));
        }
        Map<String, Object> l = new LinkedHashMap<>();
        l.put("matrix", rows);
        l.put("bias", toFloats(bias));
        l.put("activation", activation);
        return l;
    }

    private static void zeroInputColumn(Map<String, Object> firstLayer, int feature) {
        for (Object row : (List<?>) firstLayer.get("matrix")) {
            ((float[]) row)[feature] = 0f;
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

    private static String solrActivation(Activation f) {
        if (f instanceof Activation.LeakyRelu l && l.slope() != 0.01) {
            throw new IllegalArgumentException("cannot export to Solr: its leakyrelu has slope 0.01, the model's is " + l.slope());
        }
        return switch (f.kind()) {
            case "identity", "relu", "sigmoid", "tanh" -> f.kind();
            case "leaky_relu" -> "leakyrelu";
            default -> throw new IllegalArgumentException("cannot export to Solr: it has no " + f.kind()
                    + " activation (Solr has identity, relu, leakyrelu, sigmoid, tanh)");
        };
    }

    private static float[] toFloats(double[] v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return f;
    }
}
