package rankgrad.ltr.model;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.autodiff.nn.Mlp;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;

/**
 * A scoring function s = f(normalize(x)) for the documents of a query: a network
 * ({@link Mlp}, described by its {@link Mlp.Spec}) and the feature normalization it was trained
 * with. Training code uses {@link #forward} on features that are already normalized
 * ({@link #normalize}); scoring goes through {@link #scorer()}, which applies the normalization
 * itself.
 *
 * <p>Thread-safety: a model is mutable (training changes its weights, mode and batch-norm
 * statistics) and belongs to one thread; {@link #scorer()} gives an immutable snapshot that any
 * number of threads may score with at once.
 */
public final class RankingModel {
    private final String architecture;
    private final Mlp network;
    private final Normalization normalization;
    private final Map<String, Object> info = new LinkedHashMap<>();

    private RankingModel(String architecture, Mlp network, Normalization normalization) {
        this.architecture = Objects.requireNonNull(architecture);
        this.network = network;
        this.normalization = Objects.requireNonNull(normalization);
    }

    /** A fresh model of a named architecture ({@link Architectures}) over {@code features} inputs. */
    public static RankingModel create(String architecture, int features, Normalization normalization, long seed) {
        return new RankingModel(Architectures.canonical(architecture), Mlp.create(Architectures.spec(architecture, features,
                seed)), normalization);
    }

    /** A model around an existing network (for model files and custom networks). */
    public static RankingModel of(String architecture, Mlp network, Normalization normalization) {
        return new RankingModel(architecture, network, normalization);
    }

    /** The architecture's name, e.g. "R4.L". */
    public String architecture() {
        return architecture;
    }

    public Mlp network() {
        return network;
    }

    public Normalization normalization() {
        return normalization;
    }

    /** Input features the model expects. */
    public int features() {
        return network.spec().inputWidth();
    }

    /**
     * Free-form facts stored with the model (loss, training settings, validation metrics), in
     * insertion order; values are strings, numbers, booleans, lists or maps.
     */
    public Map<String, Object> info() {
        return info;
    }

    /** Applies the model's normalization to every query of {@code data}. */
    public Dataset normalize(Dataset data) {
        checkFeatures(data.features(), data.name());
        return normalization.apply(data);
    }

    /** Scores for an N x features matrix of normalized features, as a length-N vector. */
    public Var forward(Tensor normalizedFeatures) {
        Var out = network.forward(Var.constant(normalizedFeatures));
        return Ops.reshape(out, out.value().rows());
    }

    /**
     * An immutable, thread-safe scorer holding a copy of the current weights, batch-norm statistics
     * and normalization: it scores raw feature rows in evaluation mode without touching this model.
     */
    public Scorer scorer() {
        return new Scorer(network, normalization);
    }

    /** Training mode: batch normalization uses and updates batch statistics. */
    public void train() {
        network.setTraining(true);
    }

    /** Evaluation mode: batch normalization uses its running statistics. */
    public void eval() {
        network.setTraining(false);
    }

    private void checkFeatures(int given, String what) {
        if (given != features()) {
            throw new IllegalArgumentException(what + " has " + given + " features but the model expects " + features()
                    + " (read LETOR files with at least the model's feature count)");
        }
    }
}
