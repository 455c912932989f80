package rankgrad.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.train.OptimizerKind;
import rankgrad.ltr.train.TrainingConfig;

/**
 * The training options of every rankgrad trainer (a picocli mixin): network, normalization,
 * epochs, optimizer, learning rate, L2, batch size, seed, early stopping, selection metric and ERR's
 * grade maximum. {@code rankgrad train} and {@code compare} take them with more
 * ({@link TrainingOptions}); the Spark module's {@code train} takes them as they are, so both
 * commands have the same names, defaults and messages. {@link #validate()} checks them before any
 * data is read, so a bad value is one line and exit code 2, never a failure after an epoch.
 */
public class BaseTrainingOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(names = "--model", defaultValue = "R4.L", description = "the network: linear, R5, CE5, R4.L,"
            + " CE4.L, B64..B1024, or attn[.h<heads>][.w<width>][.res] (self-attention over each query's documents, DASALC)")
    String model;

    @Option(names = "--normalization", defaultValue = "query-zscore",
            description = "query-zscore (Yu), standardize (exportable to Solr), none")
    String normalization;

    @Option(names = "--epochs", defaultValue = "100", description = "epochs (iterations for spsa/fdsa)")
    int epochs;

    @Option(names = "--optimizer", defaultValue = "adam", description = "adam (L2 added to the gradient), adamw (decoupled"
            + " weight decay), sgd")
    String optimizer;

    @Option(names = "--lr", defaultValue = "0.001", description = "learning rate (step scale a for spsa/fdsa)")
    double lr;

    @Option(names = "--l2", defaultValue = "0.001", description = "L2 weight decay")
    double l2;

    @Option(names = "--batch-queries", defaultValue = "64", description = "queries per mini-batch")
    int batchQueries;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the weights, the batch order and the tie-breaks")
    long seed;

    @Option(names = "--patience", defaultValue = "20", description = "epochs without improvement before stopping (0 = never)")
    int patience;

    @Option(names = "--metric", defaultValue = "ndcg@5", description = "validation metric for model selection")
    String metric;

    @Option(names = "--ymax", defaultValue = "4", description = "the grade scale's maximum, for ERR and nERR:"
            + " R(y) = (2^y - 1) / 2^ymax")
    double ymax;

    /** Options set by picocli. */
    public BaseTrainingOptions() {
    }

    /** Checks every option; throws a {@link CommandLine.ParameterException} naming the first bad one. */
    public void validate() {
        if (epochs < 1) {
            throw bad("--epochs must be >= 1, got " + epochs);
        }
        if (!(lr > 0) || !Double.isFinite(lr)) {
            throw bad("--lr must be a finite number > 0, got " + lr);
        }
        if (!(l2 >= 0) || !Double.isFinite(l2)) {
            throw bad("--l2 must be a finite number >= 0, got " + l2);
        }
        if (batchQueries < 1) {
            throw bad("--batch-queries must be >= 1, got " + batchQueries);
        }
        if (patience < 0) {
            throw bad("--patience must be >= 0 (0 = never stop early), got " + patience);
        }
        if (!(ymax > 0) || !Double.isFinite(ymax)) {
            throw bad("--ymax must be a finite number > 0, got " + ymax);
        }
        if (!Normalization.names().contains(normalization)) {
            throw bad("--normalization: unknown '" + normalization + "'; choose one of " + String.join(", ",
                    Normalization.names()));
        }
        architecture();
        selection();
        optimizerKind();
    }

    /** The network's name as the library spells it ({@code --model}). */
    public String architecture() {
        try {
            return Architectures.canonical(model);
        } catch (IllegalArgumentException e) {
            throw bad("--model: " + e.getMessage());
        }
    }

    /** The normalization's name ({@code --normalization}), one of {@link Normalization#names()}. */
    public String normalizationName() {
        return normalization;
    }

    /** The seed of the weights, the batch order and the tie-breaks ({@code --seed}). */
    public long seed() {
        return seed;
    }

    /** The grade scale's maximum ({@code --ymax}). */
    public double ymax() {
        return ymax;
    }

    /** The validation metric for model selection ({@code --metric}). */
    public Metric selection() {
        try {
            return Metric.parse(metric);
        } catch (IllegalArgumentException e) {
            throw bad("--metric: " + e.getMessage());
        }
    }

    /** The optimizer ({@code --optimizer}). */
    public OptimizerKind optimizerKind() {
        try {
            return OptimizerKind.parse(optimizer);
        } catch (IllegalArgumentException e) {
            throw bad("--optimizer: " + e.getMessage());
        }
    }

    /** Default conventions with this grade maximum. */
    public MetricConventions conventions() {
        return MetricConventions.defaults().withYmax(ymax);
    }

    /**
     * The settings of one run from these options, with a constant learning rate and no input noise
     * (no checkpoint: the run's folder sets it).
     */
    public TrainingConfig config() {
        return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection(), optimizerKind(), conventions(),
                null);
    }

    /** A usage error of the command these options are mixed into. */
    CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(command.commandLine(), message);
    }
}
