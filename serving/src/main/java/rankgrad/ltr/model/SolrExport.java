package rankgrad.ltr.model;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.nn.Activation;
import rankgrad.nn.Layer;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;

/**
 * Exports a model as an Apache Solr LTR {@code NeuralNetworkModel}: Solr scores a document by
 * {@code out = act(M x + b)} layer by layer, M stored as {@code [units][inputs]}, with the
 * activations identity, relu, leakyrelu (slope 0.01), sigmoid and tanh.
 *
 * <p>What is translated: every Linear layer becomes a Solr layer (W transposed, as rankgrad stores
 * W as inputs x units), with batch normalization folded in ({@link DenseLayer#fold}); global
 * standardization becomes Solr {@code StandardNormalizer}s on the features, and a feature that was
 * constant in training (std 0, normalized to 0) gets its first-layer column zeroed instead, since
 * Solr needs std > 0.
 *
 * <p>What is refused, with the reason: query-level z-score normalization (Solr normalizes each
 * document's features alone and never sees the rest of the query), a feature transform such as
 * signed log1p (Solr's normalizers are affine: standard and min-max), and activations Solr lacks
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

    /**
     * The Solr model as JSON values; {@code featureNames} are the Solr feature-store names of the
     * raw features 1..{@link RankingModel#features()}, in feature order. A model trained on a
     * feature subset lists only its features (Solr feeds a model the features it names, so the
     * subset needs no other step).
     */
    public static Map<String, Object> toMap(RankingModel model, String name, List<String> featureNames) {
        if (featureNames.size() != model.features()) {
            throw new IllegalArgumentException("the model reads " + model.features() + " features but " + featureNames.size()
                    + " names were given");
        }
        int[] ids = model.inputs().ids();
        int d = ids.length;
        Normalization norm = model.normalization();
        if (model.isListwise()) {
            throw new IllegalArgumentException("cannot export to Solr: " + model.architecture() + " scores each document"
                    + " against the other documents of its query (self-attention), but a Solr LTR model scores each"
                    + " document alone; export a per-document architecture (R4.L, B64, linear, ...)");
        }
        if (norm instanceof Normalization.QueryZScore) {
            throw new IllegalArgumentException("cannot export to Solr: the model uses query-level z-score normalization, which"
                    + " Solr cannot serve (it normalizes each document's features alone, never seeing the rest of the query);"
                    + " train with global standardization or no normalization to export");
        }
        if (model.transform() != FeatureTransform.NONE) {
            throw new IllegalArgumentException("cannot export to Solr: the model applies the " + model.transform().kind()
                    + " feature transform, which Solr's normalizers (standard, min-max: affine maps) cannot express;"
                    + " train without --transform to export, or compute the transformed values as Solr features");
        }
        List<Map<String, Object>> layers = layers(model.network().layers().modules(), norm);
        List<Object> features = new ArrayList<>();
        for (int f = 0; f < d; f++) {
            Map<String, Object> feat = new LinkedHashMap<>();
            feat.put("name", featureNames.get(ids[f] - 1));
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
    private static List<Map<String, Object>> layers(List<Layer> modules, Normalization norm) {
        List<DenseLayer> folded;
        try {
            folded = DenseLayer.fold(modules);
            if (norm instanceof Normalization.Standardization s) {
                folded.get(0).requireRepresentableOver(s.std());
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("cannot export to Solr: " + e.getMessage(), e);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (DenseLayer l : folded) {
            out.add(layer(l.weight(), l.bias(), solrActivation(l.activation())));
        }
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
