package rankgrad.ltr.model;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.nn.Activation;
import rankgrad.nn.Init;
import rankgrad.nn.ListwiseContext;
import rankgrad.nn.Mlp;
import rankgrad.ltr.LibraryVersion;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;

/**
 * The model file: one versioned JSON document holding everything needed to score with a model and
 * to know where it came from.
 *
 * <pre>
 * { "format": "rankgrad-model", "version": 1, "library": "0.2.0",
 *   "architecture": { "name": "R4.L", "inputWidth": 136, "hiddenWidths": [100, ...],
 *                     "activation": {"kind": "relu"}, "batchNorm": true, "inputBatchNorm": false,
 *                     "batchNormMomentum": 0.1, "lastActivated": false, "outputWidth": 1,
 *                     "init": "UNIFORM_FAN_IN", "seed": 42,
 *                     "inputFeatures": [1, 2, 3, 7],               (only for a feature subset)
 *                     "inputTransform": "signed-log1p",            (only with a feature transform)
 *                     "dropout": 0.1,                              (only when trained with dropout)
 *                     "context": { "width": 64, "heads": 2, "combine": "LATENT_CROSS", "seed": 7 } },
 *                                                                  (only for a listwise-context model)
 *   "normalization": { "kind": "query-zscore" }          (or "none", or "standardize" + mean, std)
 *   "parameters": { "layers.0.weight": {"shape": [136, 100], "values": [...]}, ... },
 *   "buffers":    { "layers.1.running_mean": {...}, ... },
 *   "info": { "loss": "ndcg-type3", "training": {...}, "validation": {"ndcg@5": 0.71} } }
 * </pre>
 *
 * <p>Weights are float32 written in the shortest form that reads back to the same float, so a
 * model survives a write/read round trip exactly, and writing is deterministic: the same model
 * gives the same bytes. Files are written atomically. Reading validates everything and says what
 * is wrong (a missing or misshapen tensor, a non-finite weight, an unknown format or version, an
 * unknown architecture).
 *
 * <p>Architectures: a model of a named architecture ({@link Architectures}) stores the name and
 * its settings, and reading checks that the settings are that architecture's; a network built in
 * code under another name, or differing from its name's architecture, is stored with
 * {@code "custom": true} and rebuilt from its settings. A model trained on a feature subset lists
 * its LETOR feature ids (1-based, ascending, one per network input) in {@code "inputFeatures"};
 * files without it read every column, as before. It sits in "architecture" so that a version that
 * cannot select columns refuses the file rather than scoring the wrong ones. A
 * {@link FeatureTransform} other than none is stored there as {@code "inputTransform"} for the same
 * reason (it is applied before the normalization); a training dropout rate as {@code "dropout"}
 * (scoring ignores it; it lets the network be rebuilt as trained). A listwise-context
 * model ({@code attn}) describes its {@link ListwiseContext} block in {@code "context"} and stores
 * the block's tensors under {@code "context."} names beside the network's. Any other name, or a field this version
 * does not know (a newer file), is refused: the model would not score as it was trained to.
 */
public final class ModelFile {
    /** The format name in every model file. */
    public static final String FORMAT = "rankgrad-model";
    /** The current format version of a single model. */
    public static final int VERSION = 1;
    /**
     * The format version of an ensemble file: {@code {"format", "version": 2, "library",
     * "ensemble": {"combine": "mean", "members": [model, ...]}, "info"}}, each member a whole
     * version-1 model object. A reader that knows only version 1 refuses it by its version.
     */
    public static final int ENSEMBLE_VERSION = 2;

    /** The fields of "architecture" this version reads; any other is from a newer file. */
    private static final Set<String> ARCHITECTURE_FIELDS = Set.of("name", "custom", "inputWidth", "hiddenWidths",
            "activation", "batchNorm", "inputBatchNorm", "batchNormMomentum", "lastActivated", "outputWidth", "init", "seed",
            "inputFeatures", "inputTransform", "dropout", "context");
    /** The fields of "architecture.context". */
    private static final Set<String> CONTEXT_FIELDS = Set.of("width", "heads", "combine", "seed");

    private ModelFile() {
    }

    /** Writes {@code model} to {@code file} atomically. */
    public static void write(RankingModel model, Path file) throws IOException {
        AtomicWrite.writeString(file, toJson(model));
    }

    /** The model file's text. */
    public static String toJson(RankingModel model) {
        return Json.write(toMap(model));
    }

    /** The model file's content as JSON values (for embedding in checkpoints). */
    public static Map<String, Object> toMap(RankingModel model) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", VERSION);
        root.put("library", LibraryVersion.get());
        Map<String, Object> architecture = architecture(model.architecture(), model.network().spec(),
                model.context().map(ListwiseContext::spec).orElse(null));
        if (!model.inputs().isAll()) {
            List<Object> ids = new ArrayList<>();
            for (int id : model.inputs().ids()) {
                ids.add(id);
            }
            architecture.put("inputFeatures", ids);
        }
        if (model.transform() != FeatureTransform.NONE) {
            architecture.put("inputTransform", model.transform().kind());
        }
        model.context().ifPresent(c -> architecture.put("context", context(c.spec())));
        root.put("architecture", architecture);
        root.put("normalization", normalization(model.normalization()));
        root.put("parameters", tensors(model.namedParameters().entrySet().stream()
                .collect(LinkedHashMap::new, (m, e) -> m.put(e.getKey(), e.getValue().value()), Map::putAll)));
        root.put("buffers", tensors(model.namedBuffers()));
        root.put("info", model.info());
        return root;
    }

    /** Writes {@code ensemble} to {@code file} atomically, as one model file. */
    public static void write(Ensemble ensemble, Path file) throws IOException {
        AtomicWrite.writeString(file, Json.write(toMap(ensemble)));
    }

    /** The ensemble file's content as JSON values. */
    public static Map<String, Object> toMap(Ensemble ensemble) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", FORMAT);
        root.put("version", ENSEMBLE_VERSION);
        root.put("library", LibraryVersion.get());
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("combine", "mean");
        List<Object> members = new ArrayList<>();
        for (RankingModel m : ensemble.members()) {
            members.add(toMap(m));
        }
        e.put("members", members);
        root.put("ensemble", e);
        root.put("info", ensemble.info());
        return root;
    }

    /** Reads and validates a model file; errors name the file and the problem. */
    public static RankingModel read(Path file) throws IOException {
        try {
            return fromMap(readRoot(file));
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IOException(file + ": not a valid rankgrad model file: " + e.getMessage(), e);
        }
    }

    /**
     * Reads a model file of either form as an ensemble: a single model is an ensemble of one.
     * Errors name the file and the problem.
     */
    public static Ensemble readEnsemble(Path file) throws IOException {
        try {
            return ensembleFromMap(readRoot(file));
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IOException(file + ": not a valid rankgrad model file: " + e.getMessage(), e);
        }
    }

    /** A scorer for a model file of either form (a single model or an ensemble). */
    public static Scorer readScorer(Path file) throws IOException {
        return readEnsemble(file).scorer();
    }

    /** Rebuilds an ensemble (or a single model, as an ensemble of one) from its JSON values. */
    @SuppressWarnings("unchecked")
    public static Ensemble ensembleFromMap(Map<String, Object> root) {
        if (!Double.valueOf(ENSEMBLE_VERSION).equals(root.get("version"))) {
            return Ensemble.of(List.of(fromMap(root)));
        }
        if (!FORMAT.equals(root.get("format"))) {
            throw new IllegalArgumentException("\"format\" is " + root.get("format") + ", expected \"" + FORMAT + "\"");
        }
        Map<String, Object> e = map(root, "ensemble");
        if (!"mean".equals(e.get("combine"))) {
            throw new IllegalArgumentException("ensemble \"combine\" is " + e.get("combine") + "; this rankgrad averages"
                    + " (\"mean\")");
        }
        List<Object> list = list(e, "members");
        List<RankingModel> members = new ArrayList<>();
        for (int k = 0; k < list.size(); k++) {
            if (!(list.get(k) instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("ensemble member " + (k + 1) + " is not an object");
            }
            try {
                members.add(fromMap((Map<String, Object>) m));
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException("ensemble member " + (k + 1) + ": " + x.getMessage(), x);
            }
        }
        Ensemble out = Ensemble.of(members);
        if (root.get("info") instanceof Map<?, ?> info) {
            out.info().putAll((Map<String, Object>) info);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readRoot(Path file) throws IOException {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not a valid rankgrad model file: not UTF-8 text (binary data?)", e);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(file + ": cannot be read" + (Files.isDirectory(file) ? ": a directory, not a file"
                    : ": " + e.getMessage()), e);
        }
        Object parsed;
        try {
            parsed = Json.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": not a valid rankgrad model file: " + e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> root)) {
            throw new IOException(file + ": not a valid rankgrad model file: the top level is not a JSON object");
        }
        return (Map<String, Object>) root;
    }

    /** Parses a model file's text. */
    @SuppressWarnings("unchecked")
    public static RankingModel fromJson(String text) {
        Object parsed = Json.parse(text);
        if (!(parsed instanceof Map<?, ?> rootAny)) {
            throw new IllegalArgumentException("the top level is not a JSON object");
        }
        return fromMap((Map<String, Object>) rootAny);
    }

    /** Rebuilds a model from {@link #toMap}'s values, validating everything. */
    @SuppressWarnings("unchecked")
    public static RankingModel fromMap(Map<String, Object> root) {
        if (!FORMAT.equals(root.get("format"))) {
            throw new IllegalArgumentException("\"format\" is " + root.get("format") + ", expected \"" + FORMAT + "\"");
        }
        int version = integer(root, "version");
        if (version == ENSEMBLE_VERSION && root.get("ensemble") instanceof Map<?, ?> e
                && e.get("members") instanceof List<?> members) {
            throw new IllegalArgumentException("an ensemble of " + members.size() + " models, not a single network: score"
                    + " it with ModelFile.readScorer or readEnsemble (exports take one network: export a member)");
        }
        if (version != VERSION) {
            throw new IllegalArgumentException("format version " + version + " is not supported (this library reads "
                    + VERSION + ")");
        }
        Map<String, Object> arch = map(root, "architecture");
        Mlp.Spec spec = spec(arch);
        ListwiseContext.Spec contextSpec = arch.containsKey("context") ? contextSpec(map(arch, "context")) : null;
        checkArchitecture(string(arch, "name"), spec, contextSpec, Boolean.TRUE.equals(arch.get("custom")));
        checkWeightCount(spec, contextSpec, map(root, "parameters"));
        Mlp network = Mlp.create(spec);
        Normalization norm = normalization(map(root, "normalization"), network.spec().inputWidth());
        FeatureSubset inputs = inputs(arch, spec.inputWidth());
        RankingModel model = contextSpec == null ? RankingModel.of(string(arch, "name"), network, norm, inputs)
                : RankingModel.of(string(arch, "name"), network, ListwiseContext.create(contextSpec), norm, inputs);
        Map<String, Tensor> state = new LinkedHashMap<>();
        state.putAll(readTensors(map(root, "parameters"), "parameters"));
        state.putAll(readTensors(map(root, "buffers"), "buffers"));
        Map<String, Tensor> expected = model.state();
        for (String name : expected.keySet()) {
            if (!state.containsKey(name)) {
                throw new IllegalArgumentException("tensor \"" + name + "\" is missing");
            }
        }
        for (Map.Entry<String, Tensor> e : state.entrySet()) {
            Tensor want = expected.get(e.getKey());
            if (want == null) {
                throw new IllegalArgumentException("unknown tensor \"" + e.getKey() + "\" for this architecture");
            }
            if (!want.sameShape(e.getValue())) {
                throw new IllegalArgumentException("tensor \"" + e.getKey() + "\" has shape " + java.util.Arrays.toString(e.getValue().shape())
                        + ", the architecture needs " + java.util.Arrays.toString(want.shape()));
            }
        }
        requirePossible(state);
        model.loadState(state);
        model = model.withTransform(transform(arch));
        Object info = root.get("info");
        if (info instanceof Map<?, ?> m) {
            model.info().putAll((Map<String, Object>) m);
        }
        model.eval();
        return model;
    }

    /**
     * Refuses values that no trained model holds, which would not fail loudly but score wrongly: a
     * batch-norm running variance below zero makes sqrt(var + eps) NaN inside the network, and a
     * ReLU after it turns the NaN into 0, so every document would get the same score.
     */
    private static void requirePossible(Map<String, Tensor> state) {
        state.forEach((name, t) -> {
            if (name.endsWith(".running_var")) {
                for (int i = 0; i < t.size(); i++) {
                    if (t.get(i) < 0) {
                        throw new IllegalArgumentException("tensor \"" + name + "\"[" + i + "] = " + t.get(i) + " is a"
                                + " batch-norm variance below zero, which no trained model holds");
                    }
                }
            }
        });
    }

    /**
     * Refuses an architecture that this version cannot rebuild as it was trained: a name that is
     * not one of {@link Architectures#names()} (unless marked custom), or settings that differ
     * from the named architecture's.
     */
    private static void checkArchitecture(String name, Mlp.Spec spec, ListwiseContext.Spec context, boolean custom) {
        if (context != null && spec.outputWidth() != context.width()) {
            throw new IllegalArgumentException("\"outputWidth\" is " + spec.outputWidth() + " but the listwise context reads "
                    + context.width() + " values per document");
        }
        if (context == null && spec.outputWidth() != 1) {
            throw new IllegalArgumentException("\"outputWidth\" is " + spec.outputWidth() + "; a ranking model scores one"
                    + " number per document");
        }
        if (!(spec.batchNormMomentum() > 0 && spec.batchNormMomentum() <= 1)) {
            throw new IllegalArgumentException("\"batchNormMomentum\" is " + spec.batchNormMomentum() + ", not in (0, 1]");
        }
        if (custom) {
            return;
        }
        String difference = zooDifference(name, spec, context);
        if (difference != null) {
            throw new IllegalArgumentException(difference);
        }
    }

    /**
     * Null when {@code spec} is the architecture {@code name} of {@link Architectures}, else what
     * differs (or that the name is unknown).
     */
    private static String zooDifference(String name, Mlp.Spec spec, ListwiseContext.Spec context) {
        if (!Architectures.isKnown(name)) {
            return "unknown architecture \"" + name + "\"; this rankgrad knows " + String.join(", ", Architectures.names())
                    + " (a network built in code is stored with \"custom\": true)";
        }
        Mlp.Spec zoo = Architectures.spec(name, spec.inputWidth(), spec.seed());
        List<String> diff = new ArrayList<>();
        ListwiseContext.Spec zooContext = Architectures.context(name, spec.seed()).orElse(null);
        if ((zooContext == null) != (context == null)) {
            diff.add(context == null ? "no \"context\" (" + name + " has a listwise context)"
                    : "a \"context\" (" + name + " scores each document alone)");
        } else if (context != null) {
            compare(diff, name, "context.width", context.width(), zooContext.width());
            compare(diff, name, "context.heads", context.heads(), zooContext.heads());
            compare(diff, name, "context.combine", context.combine(), zooContext.combine());
        }
        compare(diff, name, "hiddenWidths", spec.hiddenWidths(), zoo.hiddenWidths());
        compare(diff, name, "activation", spec.activation(), zoo.activation());
        compare(diff, name, "batchNorm", spec.batchNorm(), zoo.batchNorm());
        compare(diff, name, "inputBatchNorm", spec.inputBatchNorm(), zoo.inputBatchNorm());
        compare(diff, name, "lastActivated", spec.lastActivated(), zoo.lastActivated());
        return diff.isEmpty() ? null : "the architecture named \"" + name + "\" is not " + name + ": " + String.join(", ", diff)
                + " (a network that differs from its name's architecture is stored with \"custom\": true)";
    }

    private static void compare(List<String> diff, String name, String field, Object file, Object zoo) {
        if (!file.equals(zoo)) {
            diff.add(field + " " + file + " (" + name + " has " + zoo + ")");
        }
    }

    /**
     * Refuses settings whose weights the file does not hold before allocating them, so that a
     * damaged width (say 100000000) is an error, not an OutOfMemoryError.
     */
    private static void checkWeightCount(Mlp.Spec spec, ListwiseContext.Spec context, Map<String, Object> parameters) {
        double needed = 0;
        if (context != null) {
            double w = context.width();
            // query, key, value, output and the head's first layer (w x w + w each), layer norm, last layer
            needed += 5 * (w * w + w) + 2 * w + w + 1;
        }
        double width = spec.inputWidth();
        List<Integer> outs = new ArrayList<>(spec.hiddenWidths());
        outs.add(spec.outputWidth());
        for (int out : outs) {
            needed += width * out + out;
            width = out;
        }
        long held = 0;
        for (Object t : parameters.values()) {
            if (t instanceof Map<?, ?> m && m.get("values") instanceof List<?> values) {
                held += values.size();
            }
        }
        if (needed > held) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "the architecture needs %.0f weights, the file holds %d", needed, held));
        }
    }

    private static Map<String, Object> architecture(String name, Mlp.Spec s, ListwiseContext.Spec context) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("name", name);
        if (zooDifference(name, s, context) != null) {
            a.put("custom", true);
        }
        a.put("inputWidth", s.inputWidth());
        a.put("hiddenWidths", new ArrayList<Object>(s.hiddenWidths()));
        a.put("activation", activation(s.activation()));
        a.put("batchNorm", s.batchNorm());
        a.put("inputBatchNorm", s.inputBatchNorm());
        a.put("batchNormMomentum", s.batchNormMomentum());
        a.put("lastActivated", s.lastActivated());
        a.put("outputWidth", s.outputWidth());
        a.put("init", s.init().name());
        a.put("seed", s.seed());
        if (s.dropout() > 0) {
            a.put("dropout", s.dropout());
        }
        return a;
    }

    /** The "inputTransform", or none when absent (files before transforms). */
    private static FeatureTransform transform(Map<String, Object> arch) {
        if (!arch.containsKey("inputTransform")) {
            return FeatureTransform.NONE;
        }
        try {
            return FeatureTransform.byName(string(arch, "inputTransform"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"inputTransform\": " + e.getMessage(), e);
        }
    }

    private static Map<String, Object> context(ListwiseContext.Spec c) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("width", c.width());
        m.put("heads", c.heads());
        m.put("combine", c.combine().name());
        m.put("seed", c.seed());
        return m;
    }

    private static ListwiseContext.Spec contextSpec(Map<String, Object> m) {
        for (String key : m.keySet()) {
            if (!CONTEXT_FIELDS.contains(key)) {
                throw new IllegalArgumentException("context field \"" + key + "\" is unknown to this rankgrad "
                        + LibraryVersion.get() + " (a file from a newer version?)");
            }
        }
        ListwiseContext.Combine combine;
        try {
            combine = ListwiseContext.Combine.valueOf(string(m, "combine"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown context.combine \"" + m.get("combine") + "\"");
        }
        int width = integer(m, "width");
        int heads = integer(m, "heads");
        return new ListwiseContext.Spec(width, heads, combine, DType.F32, (long) number(m, "seed"));
    }

    /** The "inputFeatures" of a subset model, or every column when absent (files before subsets). */
    private static FeatureSubset inputs(Map<String, Object> arch, int inputWidth) {
        if (!arch.containsKey("inputFeatures")) {
            return FeatureSubset.all(inputWidth);
        }
        List<Object> list = list(arch, "inputFeatures");
        int[] ids = new int[list.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = asInt(list.get(i), "inputFeatures");
            if (i > 0 && ids[i] <= ids[i - 1]) {
                throw new IllegalArgumentException("\"inputFeatures\" is not ascending at " + ids[i - 1] + ", " + ids[i]
                        + " (each network input reads the next listed column)");
            }
        }
        FeatureSubset subset;
        try {
            subset = FeatureSubset.of(ids);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"inputFeatures\": " + e.getMessage(), e);
        }
        if (subset.size() != inputWidth) {
            throw new IllegalArgumentException("\"inputFeatures\" lists " + subset.size() + " features, the network takes "
                    + inputWidth);
        }
        return subset;
    }

    private static Map<String, Object> activation(Activation f) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("kind", f.kind());
        if (f instanceof Activation.LeakyRelu l) {
            a.put("slope", l.slope());
        } else if (f instanceof Activation.Celu c) {
            a.put("alpha", c.alpha());
        }
        return a;
    }

    private static Mlp.Spec spec(Map<String, Object> a) {
        for (String key : a.keySet()) {
            if (!ARCHITECTURE_FIELDS.contains(key)) {
                throw new IllegalArgumentException("architecture field \"" + key + "\" is unknown to this rankgrad "
                        + LibraryVersion.get() + " (a file from a newer version?)");
            }
        }
        if (a.containsKey("custom") && !(a.get("custom") instanceof Boolean)) {
            throw new IllegalArgumentException("\"custom\" is not true/false");
        }
        List<Integer> hidden = new ArrayList<>();
        for (Object w : list(a, "hiddenWidths")) {
            hidden.add(asInt(w, "hiddenWidths"));
        }
        Map<String, Object> f = map(a, "activation");
        String kind = string(f, "kind");
        Activation act = switch (kind) {
            case "identity" -> Activation.identity();
            case "relu" -> Activation.relu();
            case "leaky_relu" -> Activation.leakyRelu(number(f, "slope"));
            case "celu" -> Activation.celu(number(f, "alpha"));
            case "tanh" -> Activation.tanh();
            case "sigmoid" -> Activation.sigmoid();
            default -> throw new IllegalArgumentException("unknown activation \"" + kind + "\"");
        };
        for (String key : f.keySet()) {
            if (!key.equals("kind") && !(key.equals("slope") && kind.equals("leaky_relu"))
                    && !(key.equals("alpha") && kind.equals("celu"))) {
                throw new IllegalArgumentException("activation field \"" + key + "\" is unknown for \"" + kind + "\"");
            }
        }
        Init init;
        try {
            init = Init.valueOf(string(a, "init"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown init \"" + a.get("init") + "\"");
        }
        return new Mlp.Spec(integer(a, "inputWidth"), hidden, act, bool(a, "batchNorm"), bool(a, "inputBatchNorm"),
                number(a, "batchNormMomentum"), bool(a, "lastActivated"), integer(a, "outputWidth"), init, DType.F32,
                (long) number(a, "seed"), dropout(a));
    }

    /** The "dropout" rate, 0 when absent. */
    private static double dropout(Map<String, Object> a) {
        if (!a.containsKey("dropout")) {
            return 0;
        }
        double rate = number(a, "dropout");
        if (!(rate > 0 && rate < 1)) {
            throw new IllegalArgumentException("\"dropout\" is " + rate + ", not in (0, 1)");
        }
        return rate;
    }

    private static Map<String, Object> normalization(Normalization n) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", n.kind());
        if (n instanceof Normalization.Standardization s) {
            m.put("mean", s.mean());
            m.put("std", s.std());
        }
        return m;
    }

    private static Normalization normalization(Map<String, Object> m, int features) {
        String kind = string(m, "kind");
        return switch (kind) {
            case "none" -> new Normalization.None();
            case "query-zscore" -> new Normalization.QueryZScore();
            case "standardize" -> {
                float[] mean = floats(list(m, "mean"), "normalization.mean");
                float[] std = floats(list(m, "std"), "normalization.std");
                if (mean.length != features) {
                    throw new IllegalArgumentException("normalization has " + mean.length + " features, the network " + features);
                }
                yield new Normalization.Standardization(mean, std);
            }
            default -> throw new IllegalArgumentException("unknown normalization \"" + kind + "\"");
        };
    }

    /**
     * Named tensors as {"name": {"shape": [...], "values": [...]}}; float64 tensors (optimizer
     * step counts) are written with full double precision and read back as float64.
     */
    public static Map<String, Object> tensors(Map<String, Tensor> named) {
        Map<String, Object> out = new LinkedHashMap<>();
        named.forEach((name, t) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            List<Object> shape = new ArrayList<>();
            for (int d : t.shape()) {
                shape.add(d);
            }
            e.put("shape", shape);
            if (t.dtype() == DType.F64) {
                e.put("dtype", "f64");
                List<Object> values = new ArrayList<>(t.size());
                for (int i = 0; i < t.size(); i++) {
                    values.add(t.get(i));
                }
                e.put("values", values);
            } else {
                e.put("values", t.f32());
            }
            out.put(name, e);
        });
        return out;
    }

    /** Reads what {@link #tensors} wrote; errors name {@code section} and the tensor. */
    @SuppressWarnings("unchecked")
    public static Map<String, Tensor> readTensors(Map<String, Object> m, String section) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : m.entrySet()) {
            String where = section + "." + e.getKey();
            if (!(e.getValue() instanceof Map<?, ?> tm)) {
                throw new IllegalArgumentException(where + " is not an object with shape and values");
            }
            Map<String, Object> t = (Map<String, Object>) tm;
            List<Object> shapeList = list(t, "shape");
            int[] shape = new int[shapeList.size()];
            for (int i = 0; i < shape.length; i++) {
                shape[i] = asInt(shapeList.get(i), where + ".shape");
            }
            try {
                if ("f64".equals(t.get("dtype"))) {
                    float[] check = floats(list(t, "values"), where);
                    double[] values = new double[check.length];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = (Double) list(t, "values").get(i);
                    }
                    out.put(e.getKey(), Tensor.of(values, shape));
                } else {
                    out.put(e.getKey(), Tensor.of(floats(list(t, "values"), where), shape));
                }
            } catch (IllegalArgumentException x) {
                throw new IllegalArgumentException(where + ": " + x.getMessage());
            }
        }
        return out;
    }

    private static float[] floats(List<Object> l, String where) {
        float[] out = new float[l.size()];
        for (int i = 0; i < out.length; i++) {
            if (!(l.get(i) instanceof Double d) || !Float.isFinite(d.floatValue())) {
                throw new IllegalArgumentException(where + "[" + i + "] = " + l.get(i) + " is not a finite float32");
            }
            out[i] = d.floatValue();
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (!(v instanceof Map<?, ?>)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not an object");
        }
        return (Map<String, Object>) v;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (!(v instanceof List<?>)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not an array");
        }
        return (List<Object>) v;
    }

    private static String string(Map<String, Object> m, String key) {
        if (!(m.get(key) instanceof String s)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not a string");
        }
        return s;
    }

    private static double number(Map<String, Object> m, String key) {
        if (!(m.get(key) instanceof Double d)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not a number");
        }
        return d;
    }

    private static int integer(Map<String, Object> m, String key) {
        return asInt(m.get(key), key);
    }

    private static int asInt(Object v, String where) {
        if (!(v instanceof Double d) || d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("\"" + where + "\" is missing or not an integer: " + v);
        }
        return d.intValue();
    }

    private static boolean bool(Map<String, Object> m, String key) {
        if (!(m.get(key) instanceof Boolean b)) {
            throw new IllegalArgumentException("\"" + key + "\" is missing or not true/false");
        }
        return b;
    }
}
