package rankgrad.ltr.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.ListwiseContext;
import rankgrad.nn.Mlp;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;

/**
 * A scoring function s = f(normalize(transform(select(x)))) for the documents of a query: a
 * network ({@link Mlp}, described by its {@link Mlp.Spec}), the feature normalization it was
 * trained with, the elementwise {@link FeatureTransform} applied before that normalization
 * ({@link FeatureTransform#NONE} unless set with {@link #withTransform}), and the raw feature
 * columns it reads ({@link FeatureSubset}; every column unless trained on a subset). Training code uses {@link #forward} on features that are already normalized
 * ({@link #normalize}); scoring goes through {@link #scorer()}, which applies the normalization
 * itself.
 *
 * <p>A listwise-context model ({@code attn}, {@link Architectures}) adds a {@link ListwiseContext}
 * after the network: the network gives each document a representation h and the context block
 * scores it against the other documents of its query. Its forward pass needs the query
 * boundaries ({@link #forward(Tensor, int[])}); its parameters and state are the network's plus
 * the block's under {@value #CONTEXT_PREFIX} ({@link #namedParameters()}, {@link #state()}).
 * Use these model-level methods, not {@link #network()}'s, to train or save any model.
 *
 * <p>Thread-safety: a model is mutable (training changes its weights, mode and batch-norm
 * statistics) and belongs to one thread; {@link #scorer()} gives an immutable snapshot that any
 * number of threads may score with at once.
 */
public final class RankingModel {
    /** Name prefix of the context block's parameters in {@link #namedParameters()} and model files. */
    public static final String CONTEXT_PREFIX = "context.";

    private final String architecture;
    private final Mlp network;
    private final ListwiseContext context;
    private final FeatureTransform transform;
    private final Normalization normalization;
    private final FeatureSubset inputs;
    private final Map<String, Object> info = new LinkedHashMap<>();

    private RankingModel(String architecture, Mlp network, ListwiseContext context, FeatureTransform transform,
            Normalization normalization, FeatureSubset inputs) {
        this.architecture = Objects.requireNonNull(architecture);
        this.network = network;
        this.context = context;
        if (context != null && network.spec().outputWidth() != context.spec().width()) {
            throw new IllegalArgumentException("the network gives " + network.spec().outputWidth() + " values per document"
                    + " but the listwise context reads " + context.spec().width());
        }
        this.transform = Objects.requireNonNull(transform);
        this.normalization = Objects.requireNonNull(normalization);
        this.inputs = Objects.requireNonNull(inputs);
        if (inputs.size() != network.spec().inputWidth()) {
            throw new IllegalArgumentException("the feature subset " + inputs + " has " + inputs.size()
                    + " features but the network takes " + network.spec().inputWidth());
        }
    }

    /** A fresh model of a named architecture ({@link Architectures}) over {@code features} inputs. */
    public static RankingModel create(String architecture, int features, Normalization normalization, long seed) {
        return create(architecture, FeatureSubset.all(features), normalization, seed);
    }

    /**
     * A fresh model of a named architecture that reads only the columns of {@code inputs}; its
     * normalization must be fitted on those columns ({@code inputs.apply(data)}).
     */
    public static RankingModel create(String architecture, FeatureSubset inputs, Normalization normalization, long seed) {
        return new RankingModel(Architectures.canonical(architecture), Mlp.create(Architectures.spec(architecture,
                inputs.size(), seed)), Architectures.context(architecture, seed).map(ListwiseContext::create).orElse(null),
                FeatureTransform.NONE, normalization, inputs);
    }

    /** A model around an existing network (for model files and custom networks), reading every column. */
    public static RankingModel of(String architecture, Mlp network, Normalization normalization) {
        return of(architecture, network, normalization, FeatureSubset.all(network.spec().inputWidth()));
    }

    /** A model around an existing network that reads the columns of {@code inputs} (one per network input). */
    public static RankingModel of(String architecture, Mlp network, Normalization normalization, FeatureSubset inputs) {
        return new RankingModel(architecture, network, null, FeatureTransform.NONE, normalization, inputs);
    }

    /**
     * A listwise-context model around an existing network and context block (for model files),
     * reading the columns of {@code inputs}; the network's output width must be the block's width.
     */
    public static RankingModel of(String architecture, Mlp network, ListwiseContext context, Normalization normalization,
            FeatureSubset inputs) {
        return new RankingModel(architecture, network, Objects.requireNonNull(context, "context"), FeatureTransform.NONE,
                normalization, inputs);
    }

    /**
     * This model with {@code t} applied to the selected raw features before the normalization (the
     * same network object, a copy of the info); fit a {@link Normalization.Standardization} on
     * transformed data ({@code t.apply(data)}).
     */
    public RankingModel withTransform(FeatureTransform t) {
        RankingModel m = new RankingModel(architecture, network, context, t, normalization, inputs);
        m.info.putAll(info);
        return m;
    }

    /**
     * This model with dropout of {@code rate} after every hidden activation of the per-document
     * network during training ({@link Mlp.Spec#dropout()}): a new network with this one's weights and
     * statistics (the weights a seed draws do not depend on the rate), the same context block, a copy
     * of the info.
     *
     * @throws IllegalArgumentException for a rate outside [0, 1)
     */
    public RankingModel withDropout(double rate) {
        Mlp rebuilt = Mlp.create(network.spec().withDropout(rate));
        rebuilt.loadState(network.state());
        RankingModel m = new RankingModel(architecture, rebuilt, context, transform, normalization, inputs);
        m.info.putAll(info);
        return m;
    }

    /** The architecture's name, e.g. "R4.L". */
    public String architecture() {
        return architecture;
    }

    /** The per-document network (for a listwise-context model, the part that gives h). */
    public Mlp network() {
        return network;
    }

    /** The listwise-context block of an {@code attn} model; empty for per-document networks. */
    public Optional<ListwiseContext> context() {
        return Optional.ofNullable(context);
    }

    /** Whether a document's score depends on the other documents of its query (an {@code attn} model). */
    public boolean isListwise() {
        return context != null;
    }

    /** Every trainable parameter by name: the network's, then the context block's under {@value #CONTEXT_PREFIX}. */
    public Map<String, Var> namedParameters() {
        Map<String, Var> out = new LinkedHashMap<>(network.namedParameters());
        if (context != null) {
            context.namedParameters().forEach((name, p) -> out.put(CONTEXT_PREFIX + name, p));
        }
        return Collections.unmodifiableMap(out);
    }

    /** The trainable parameters in {@link #namedParameters()} order. */
    public List<Var> parameters() {
        return new ArrayList<>(namedParameters().values());
    }

    /** Non-trainable state by name (batch-norm statistics; the context block has none). */
    public Map<String, Tensor> namedBuffers() {
        return network.namedBuffers();
    }

    /** The number of trainable scalars. */
    public long parameterCount() {
        return network.parameterCount() + (context == null ? 0 : context.parameterCount());
    }

    /** Every tensor by name, parameters then buffers (live tensors: serialize them, do not modify them). */
    public Map<String, Tensor> state() {
        Map<String, Tensor> out = new LinkedHashMap<>(network.state());
        if (context != null) {
            context.state().forEach((name, t) -> out.put(CONTEXT_PREFIX + name, t));
        }
        return Collections.unmodifiableMap(out);
    }

    /**
     * Copies {@code values} ({@link #state()}'s names and shapes) into the model, in place.
     *
     * @throws IllegalArgumentException naming a missing, unexpected or mis-shaped entry
     */
    public void loadState(Map<String, Tensor> values) {
        Map<String, Tensor> own = new LinkedHashMap<>();
        Map<String, Tensor> ctx = new LinkedHashMap<>();
        values.forEach((name, t) -> {
            if (context != null && name.startsWith(CONTEXT_PREFIX)) {
                ctx.put(name.substring(CONTEXT_PREFIX.length()), t);
            } else {
                own.put(name, t);
            }
        });
        if (context != null) {
            context.loadState(ctx);
        }
        network.loadState(own);
    }

    public Normalization normalization() {
        return normalization;
    }

    /** The transform applied to the selected raw features before {@link #normalization()}. */
    public FeatureTransform transform() {
        return transform;
    }

    /**
     * Raw features a row must have: the network's input width, or with a subset its highest
     * feature id (rows may then be wider).
     */
    public int features() {
        return inputs.width();
    }

    /** The raw feature columns the network reads, in order ({@link FeatureSubset#isAll()} without a subset). */
    public FeatureSubset inputs() {
        return inputs;
    }

    /**
     * Free-form facts stored with the model (loss, training settings, validation metrics), in
     * insertion order; values are strings, numbers, booleans, lists or maps.
     */
    public Map<String, Object> info() {
        return info;
    }

    /**
     * Selects the model's feature columns of raw {@code data}, transforms them and applies the
     * normalization to every query.
     */
    public Dataset normalize(Dataset data) {
        checkFeatures(inputs, data.features(), data.name());
        return normalization.apply(transform.apply(inputs.apply(data)));
    }

    /**
     * Scores for an N x features matrix of normalized features, as a length-N vector.
     *
     * @throws IllegalStateException for a listwise-context model, which needs the query boundaries
     *     ({@link #forward(Tensor, int[])})
     */
    public Var forward(Tensor normalizedFeatures) {
        if (context != null) {
            throw new IllegalStateException(architecture + " scores a document against the other documents of its query:"
                    + " call forward(features, queryOffsets)");
        }
        return forward(normalizedFeatures, new int[] {0, normalizedFeatures.rows()});
    }

    /**
     * Scores for the queries stacked in an N x features matrix of normalized features, query q in
     * rows {@code queryOffsets[q] .. queryOffsets[q+1]-1} ({@link rankgrad.ltr.QueryBatch#offsets()}),
     * as a length-N vector. A per-document network ignores the boundaries.
     */
    public Var forward(Tensor normalizedFeatures, int[] queryOffsets) {
        Var out = network.forward(Var.constant(normalizedFeatures));
        if (context != null) {
            out = context.forward(out, queryOffsets);
        }
        return Ops.reshape(out, out.value().rows());
    }

    /**
     * An immutable, thread-safe scorer holding a copy of the current weights, batch-norm statistics
     * and normalization: it scores raw feature rows in evaluation mode without touching this model.
     */
    public Scorer scorer() {
        return new Scorer(List.of(new Scorer.Member(network, context)), transform, normalization, inputs);
    }

    /** Training mode: batch normalization uses and updates batch statistics. */
    public void train() {
        network.setTraining(true);
        if (context != null) {
            context.setTraining(true);
        }
    }

    /** Evaluation mode: batch normalization uses its running statistics. */
    public void eval() {
        network.setTraining(false);
        if (context != null) {
            context.setTraining(false);
        }
    }

    /**
     * Refuses raw data of the wrong width: without a subset exactly the network's width, with one
     * at least its highest id.
     */
    static void checkFeatures(FeatureSubset inputs, int given, String what) {
        if (inputs.isAll() ? given != inputs.width() : given < inputs.width()) {
            throw new IllegalArgumentException(what + " has " + given + " features but the model expects "
                    + (inputs.isAll() ? "" : "at least ") + inputs.width() + " (read LETOR files with at least the model's"
                    + " feature count)");
        }
    }
}
