package rankgrad.onnx;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.nn.Activation;
import rankgrad.ltr.LibraryVersion;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.model.DenseLayer;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.RankingModel;

/**
 * Exports a model as ONNX (IR version {@value #IR_VERSION}, default operator set
 * {@value #OPSET_VERSION}), for ONNX Runtime and the servers built on it. The graph computes what
 * the model's {@link RankingModel#scorer() scorer} computes, in float32:
 *
 * <pre>
 *   input  "features"  float32 [documents, d]   raw feature values, LETOR feature j in column j - 1
 *   x = Gather(features, ids - 1, axis 1)         only for a model trained on a feature subset
 *   z = normalize(x)                              the model's stored normalization, see below
 *   h_l = f_l(h_{l-1} W_l^T + b_l)                one Gemm (transB = 1) per layer, then its activation
 *   output "scores"    float32 [documents]       Squeeze of the last layer's single column
 * </pre>
 *
 * <p>A model trained on a feature subset ({@link RankingModel#inputs()}) takes full-width rows, d
 * its highest feature id, and a Gather on the feature axis picks its columns, as its scorer does.
 *
 * <p>Batch normalization (evaluation mode) is folded into the linear layers ({@link DenseLayer#fold}),
 * so the graph has only Gemm and activation nodes (Relu, LeakyRelu, Celu, Tanh, Sigmoid) after the
 * normalization. The normalization is inside the graph:
 * <ul>
 *   <li>none: the features go straight to the first Gemm;
 *   <li>global standardization z = (x - mean) / std: Sub and Div by the stored statistics (float32,
 *       the same operations as {@link Normalization.Standardization}); a feature constant in
 *       training (std 0, normalized to 0) is divided by 1 and then set to 0 by a Where;
 *   <li>query-level z-score (Yu et al. Sec. 6.2), z = (x - mean_q) / std_q over the documents of the
 *       query: ReduceMean, Sub, Mul, ReduceMean, Sqrt over the documents axis in float64 as
 *       {@link Normalization.QueryZScore} computes, Where for features constant within the query
 *       (normalized to 0), and a Cast back to float32. The statistics come from the rows of the
 *       run, so each run must hold the documents of exactly one query (the model's metadata says
 *       so under {@code rankgrad.batch}).
 * </ul>
 *
 * <p>A {@link FeatureTransform} (signed log1p) is computed before the normalization. An
 * {@link Ensemble} becomes one graph: the shared features feed every member's layers (named
 * {@code member<k>.layer<l>}), and a {@code Mean} node averages their score columns in float32
 * (rankgrad averages in float64: the two differ by float32 rounding).
 *
 * <p>Scores equal rankgrad's up to float32 rounding: folding batch normalization and ONNX
 * Runtime's GEMM order the float32 operations differently.
 */
public final class OnnxExport {
    /** The ONNX IR version written (with opset 17: ONNX 1.12 and ONNX Runtime 1.12 and later). */
    public static final long IR_VERSION = 8;
    /** The version of the default ONNX operator set the graph uses. */
    public static final long OPSET_VERSION = 17;
    /** The name of the graph's input, float32 [documents, features]. */
    public static final String INPUT = "features";
    /** The name of the graph's output, float32 [documents]. */
    public static final String OUTPUT = "scores";

    private static final String DOCUMENTS = "documents";
    private static final long CAST_TO_FLOAT = 1;
    private static final long CAST_TO_DOUBLE = 11;

    private OnnxExport() {
    }

    /** Writes the ONNX model of {@code model}, its graph named {@code name}, to {@code file} atomically. */
    public static void write(RankingModel model, String name, Path file) throws IOException {
        byte[] bytes = toBytes(model, name);
        AtomicWrite.write(file, out -> out.write(bytes));
    }

    /** The ONNX file's bytes; the same model gives the same bytes. */
    public static byte[] toBytes(RankingModel model, String name) {
        return ProtoEncoder.encode(toModel(model, name));
    }

    /**
     * Writes the ONNX model of {@code ensemble} to {@code file} atomically: the members' graphs side
     * by side on the shared prepared features, their score columns averaged by a {@code Mean} node.
     */
    public static void write(Ensemble ensemble, String name, Path file) throws IOException {
        byte[] bytes = toBytes(ensemble, name);
        AtomicWrite.write(file, out -> out.write(bytes));
    }

    /** The ONNX file's bytes of an ensemble; an ensemble of one gives its member's bytes. */
    public static byte[] toBytes(Ensemble ensemble, String name) {
        return ProtoEncoder.encode(toModel(ensemble.members(), name));
    }

    static OnnxModel toModel(RankingModel model, String name) {
        return toModel(List.of(model), name);
    }

    /**
     * The graph of the mean of {@code members}' scores; they share inputs, transform and
     * normalization ({@link Ensemble#of}). One member: exactly the single model's graph.
     */
    static OnnxModel toModel(List<RankingModel> members, String name) {
        RankingModel model = members.get(0);
        int d = model.features();
        List<List<DenseLayer>> networks = new ArrayList<>();
        for (RankingModel m : members) {
            if (m.isListwise()) {
                throw new IllegalArgumentException("cannot export to ONNX: " + m.architecture() + " scores each document"
                        + " against the other documents of its query (self-attention within each query), and this exporter"
                        + " writes per-document networks of dense layers only; score it with rankgrad (predict, eval, the"
                        + " Java Scorer)");
            }
            if (m.network().spec().outputWidth() != 1) {
                throw new IllegalArgumentException("cannot export to ONNX: the network has " + m.network().spec().outputWidth()
                        + " outputs, a scoring function has one");
            }
            try {
                List<DenseLayer> layers = DenseLayer.fold(m.network().layers().modules());
                if (m.normalization() instanceof Normalization.Standardization s) {
                    layers.get(0).requireRepresentableOver(s.std());
                }
                networks.add(layers);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot export to ONNX: " + e.getMessage(), e);
            }
        }
        boolean perQuery = model.normalization() instanceof Normalization.QueryZScore;
        GraphBuilder g = new GraphBuilder();
        String h = g.input(new ValueInfo(INPUT, ElementType.FLOAT, List.of(Dimension.named(DOCUMENTS), Dimension.fixed(d)),
                "raw feature values, one row per document" + (perQuery ? " of one query" : "")
                        + ", LETOR feature j in column j - 1"));
        if (!model.inputs().isAll()) {
            int[] ids = model.inputs().ids();
            long[] columns = new long[ids.length];
            for (int j = 0; j < ids.length; j++) {
                columns[j] = ids[j] - 1L;
            }
            String indices = g.constant(Initializer.int64s("select.columns", columns, columns.length));
            h = g.node("Gather", "select.features", List.of(h, indices), new Attribute.IntValue("axis", 1));
        }
        h = transform(g, model.transform(), h);
        String z = normalize(g, model.normalization(), h, model.inputs().size());
        List<String> columns = new ArrayList<>();
        for (int k = 0; k < networks.size(); k++) {
            String out = z;
            List<DenseLayer> layers = networks.get(k);
            for (int l = 0; l < layers.size(); l++) {
                DenseLayer layer = layers.get(l);
                String prefix = (networks.size() == 1 ? "" : "member" + (k + 1) + ".") + "layer" + (l + 1);
                String w = g.constant(Initializer.floats(prefix + ".weight", rowMajor(layer.weight()), layer.units(),
                        layer.inputs()));
                String b = g.constant(Initializer.floats(prefix + ".bias", toFloats(layer.bias()), layer.units()));
                out = g.node("Gemm", prefix + ".linear", List.of(out, w, b), new Attribute.IntValue("transB", 1));
                out = activate(g, layer.activation(), out, prefix);
            }
            columns.add(out);
        }
        String score = columns.size() == 1 ? columns.get(0) : g.node("Mean", "ensemble.mean", columns);
        String axes = g.constant(Initializer.int64s("score.axes", new long[] {1}, 1));
        g.node("Squeeze", OUTPUT, List.of(score, axes));
        g.output(new ValueInfo(OUTPUT, ElementType.FLOAT, List.of(Dimension.named(DOCUMENTS)), "one score per document;"
                + " a higher score ranks higher"));
        String doc = "rankgrad " + (members.size() == 1 ? "" : "ensemble (mean of " + members.size() + ") of ")
                + model.architecture() + " scoring network" + (members.size() == 1 ? "" : "s") + " with "
                + (model.transform() == FeatureTransform.NONE ? "" : model.transform().kind() + " transform and ")
                + model.normalization().kind()
                + " normalization inside the graph and batch normalization folded into the linear layers: input "
                + INPUT + " [documents, " + d + "] raw features, output " + OUTPUT + " [documents]"
                + (perQuery ? "; feed the documents of exactly one query per run (the normalization is per query)" : "");
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put("rankgrad.architecture", model.architecture());
        if (members.size() > 1) {
            metadata.put("rankgrad.ensemble", Integer.toString(members.size()));
        }
        metadata.put("rankgrad.features", Integer.toString(d));
        if (!model.inputs().isAll()) {
            metadata.put("rankgrad.featureSubset", model.inputs().toString());
        }
        if (model.transform() != FeatureTransform.NONE) {
            metadata.put("rankgrad.transform", model.transform().kind());
        }
        metadata.put("rankgrad.normalization", model.normalization().kind());
        metadata.put("rankgrad.batch", perQuery ? "one query's documents per run" : "any documents per run");
        return new OnnxModel(IR_VERSION, OPSET_VERSION, "rankgrad", LibraryVersion.get(), doc, g.build(name, doc), metadata);
    }

    /**
     * Adds the feature transform's nodes (none for the identity) and returns the name of the
     * transformed features. Signed log1p is sign(x) log(1 + |x|) in float64, rounded once to
     * float32 (ONNX has no Log1p: for |x| below about 1e-8 the float64 sum 1 + |x| loses digits
     * that rankgrad's log1p keeps, so such tiny values may differ beyond float32 rounding).
     */
    private static String transform(GraphBuilder g, FeatureTransform t, String x) {
        return switch (t) {
            case NONE -> x;
            case SIGNED_LOG1P -> {
                String xd = g.node("Cast", "log1p.x64", List.of(x), new Attribute.IntValue("to", CAST_TO_DOUBLE));
                String abs = g.node("Abs", "log1p.abs", List.of(xd));
                String one = g.constant(Initializer.doubles("log1p.one", new double[] {1}));
                String shifted = g.node("Add", "log1p.shifted", List.of(abs, one));
                String log = g.node("Log", "log1p.log", List.of(shifted));
                String sign = g.node("Sign", "log1p.sign", List.of(xd));
                String signed = g.node("Mul", "log1p.signed", List.of(sign, log));
                yield g.node("Cast", "log1p.x", List.of(signed), new Attribute.IntValue("to", CAST_TO_FLOAT));
            }
        };
    }

    /** Adds the normalization nodes and returns the name of the normalized features. */
    private static String normalize(GraphBuilder g, Normalization norm, String x, int d) {
        return switch (norm) {
            case Normalization.None n -> x;
            case Normalization.Standardization s -> standardize(g, s, x, d);
            case Normalization.QueryZScore q -> queryZScore(g, x, d);
        };
    }

    private static String standardize(GraphBuilder g, Normalization.Standardization s, String x, int d) {
        float[] std = s.std().clone();
        boolean[] varies = new boolean[d];
        boolean constant = false;
        for (int f = 0; f < d; f++) {
            varies[f] = std[f] > 0;
            if (!varies[f]) {
                std[f] = 1f;
                constant = true;
            }
        }
        String mean = g.constant(Initializer.floats("standardize.mean", s.mean(), d));
        String sd = g.constant(Initializer.floats("standardize.std", std, d));
        String centered = g.node("Sub", "standardize.centered", List.of(x, mean));
        String z = g.node("Div", constant ? "standardize.scaled" : "standardize.z", List.of(centered, sd));
        if (!constant) {
            return z;
        }
        String keep = g.constant(Initializer.bools("standardize.varies", varies, d));
        String zero = g.constant(Initializer.floats("standardize.zero", new float[] {0f}));
        return g.node("Where", "standardize.z", List.of(keep, z, zero));
    }

    private static String queryZScore(GraphBuilder g, String x, int d) {
        Attribute axes = new Attribute.IntsValue("axes", new long[] {0});
        Attribute keepDims = new Attribute.IntValue("keepdims", 1);
        String xd = g.node("Cast", "query.x64", List.of(x), new Attribute.IntValue("to", CAST_TO_DOUBLE));
        String mean = g.node("ReduceMean", "query.mean", List.of(xd), axes, keepDims);
        String centered = g.node("Sub", "query.centered", List.of(xd, mean));
        String squares = g.node("Mul", "query.squares", List.of(centered, centered));
        String variance = g.node("ReduceMean", "query.variance", List.of(squares), axes, keepDims);
        String std = g.node("Sqrt", "query.std", List.of(variance));
        String zero = g.constant(Initializer.doubles("query.zero", new double[] {0}));
        String one = g.constant(Initializer.doubles("query.one", new double[] {1}));
        String varies = g.node("Greater", "query.varies", List.of(std, zero));
        String divisor = g.node("Where", "query.divisor", List.of(varies, std, one));
        String z = g.node("Div", "query.scaled", List.of(centered, divisor));
        String z0 = g.node("Where", "query.z64", List.of(varies, z, zero));
        return g.node("Cast", "query.z", List.of(z0), new Attribute.IntValue("to", CAST_TO_FLOAT));
    }

    /** Adds the activation's node (none for identity) and returns its output's name. */
    private static String activate(GraphBuilder g, Activation f, String h, String prefix) {
        return switch (f) {
            case Activation.Identity i -> h;
            case Activation.Relu r -> g.node("Relu", prefix + ".relu", List.of(h));
            case Activation.LeakyRelu l -> g.node("LeakyRelu", prefix + ".leaky_relu", List.of(h),
                    new Attribute.FloatValue("alpha", (float) l.slope()));
            case Activation.Celu c -> g.node("Celu", prefix + ".celu", List.of(h), new Attribute.FloatValue("alpha", (float) c.alpha()));
            case Activation.Tanh t -> g.node("Tanh", prefix + ".tanh", List.of(h));
            case Activation.Sigmoid s -> g.node("Sigmoid", prefix + ".sigmoid", List.of(h));
        };
    }

    private static float[] rowMajor(double[][] m) {
        int cols = m[0].length;
        float[] out = new float[m.length * cols];
        for (int r = 0; r < m.length; r++) {
            for (int c = 0; c < cols; c++) {
                out[r * cols + c] = (float) m[r][c];
            }
        }
        return out;
    }

    private static float[] toFloats(double[] v) {
        float[] f = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            f[i] = (float) v[i];
        }
        return f;
    }
}
