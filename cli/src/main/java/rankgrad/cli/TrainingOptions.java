package rankgrad.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import rankgrad.autodiff.internal.Parallel;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.LearningRateSchedule;
import rankgrad.ltr.train.OptimizerKind;
import rankgrad.ltr.train.TrainingConfig;

/**
 * The training options {@code train} and {@code compare} share (a picocli mixin): network,
 * normalization and feature transform, optimizer and its settings, learning-rate schedule, input
 * noise, dropout, ensemble size, seed, early stopping, selection metric, ERR's grade maximum,
 * threads, and {@code --fresh}. {@link #validate()} checks all of them before any data is
 * read, so a bad value is one line and exit code 2, never a failure after an epoch.
 */
final class TrainingOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec command;

    @Option(names = "--model", defaultValue = "R4.L", description = "the network: linear, R5, CE5, R4.L, CE4.L, B64..B1024")
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

    @Option(names = "--threads", description = "worker threads (default: all processors; results do not depend on it)")
    Integer threads;

    @Option(names = "--transform", defaultValue = "none", description = "feature transform before the normalization: none,"
            + " signed-log1p (x -> sign(x) ln(1 + |x|), DASALC); stored in the model")
    String transform;

    @Option(names = "--input-noise", paramLabel = "SIGMA", defaultValue = "0", description = "Gaussian noise of standard"
            + " deviation SIGMA added to the normalized training features (training only; 0 = none)")
    double inputNoise;

    @Option(names = "--dropout", paramLabel = "RATE", defaultValue = "0", description = "dropout rate after each hidden"
            + " activation (training only; in [0, 1), 0 = none)")
    double dropout;

    @Option(names = "--lr-warmup", paramLabel = "STEPS", defaultValue = "0", description = "linear learning-rate warm-up"
            + " over the first STEPS optimizer steps (0 = none)")
    int lrWarmup;

    @Option(names = "--lr-decay", defaultValue = "constant", description = "learning rate after the warm-up: constant,"
            + " cosine (to 0 at the last step), step (x --lr-gamma every --lr-step-size steps)")
    String lrDecay;

    @Option(names = "--lr-step-size", paramLabel = "STEPS", defaultValue = "1000", description = "steps per decay of"
            + " --lr-decay step")
    int lrStepSize;

    @Option(names = "--lr-gamma", defaultValue = "0.1", description = "factor per decay of --lr-decay step, in (0, 1]")
    double lrGamma;

    @Option(names = "--ensemble", paramLabel = "K", defaultValue = "1", description = "train K models with seeds --seed,"
            + " --seed + 1, ... and average their scores (one model file; members in OUT/member-k/)")
    int ensemble;

    @Option(names = "--fresh", description = "discard the checkpoints of earlier runs in the output folder and train from"
            + " the start (without it, a checkpoint of the same run is resumed and one of another run is refused)")
    boolean fresh;

    /** Checks every option; throws a {@link CommandLine.ParameterException} naming the first bad one. */
    void validate() {
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
        if (threads != null && threads < 1) {
            throw bad("--threads must be >= 1, got " + threads);
        }
        if (!(ymax > 0) || !Double.isFinite(ymax)) {
            throw bad("--ymax must be a finite number > 0, got " + ymax);
        }
        if (!Normalization.names().contains(normalization)) {
            throw bad("--normalization: unknown '" + normalization + "'; choose one of " + String.join(", ",
                    Normalization.names()));
        }
        if (!FeatureTransform.names().contains(transform)) {
            throw bad("--transform: unknown '" + transform + "'; choose one of " + String.join(", ", FeatureTransform.names()));
        }
        if (!(inputNoise >= 0) || !Double.isFinite(inputNoise)) {
            throw bad("--input-noise must be a finite number >= 0, got " + inputNoise);
        }
        if (!(dropout >= 0 && dropout < 1)) {
            throw bad("--dropout must be in [0, 1), got " + dropout);
        }
        if (lrWarmup < 0) {
            throw bad("--lr-warmup must be >= 0 steps, got " + lrWarmup);
        }
        if (lrStepSize < 1) {
            throw bad("--lr-step-size must be >= 1 step, got " + lrStepSize);
        }
        if (!(lrGamma > 0 && lrGamma <= 1)) {
            throw bad("--lr-gamma must be in (0, 1], got " + lrGamma);
        }
        if (ensemble < 1) {
            throw bad("--ensemble must be >= 1 model, got " + ensemble);
        }
        architecture();
        selection();
        optimizerKind();
        schedule();
    }

    LearningRateSchedule schedule() {
        try {
            return new LearningRateSchedule(lrWarmup, LearningRateSchedule.Decay.parse(lrDecay), lrStepSize, lrGamma);
        } catch (IllegalArgumentException e) {
            throw bad("--lr-decay: " + e.getMessage());
        }
    }

    FeatureTransform featureTransform() {
        return FeatureTransform.byName(transform);
    }

    /** The normalization chosen, fitted (for standardize) on the transformed training columns {@code selected}. */
    Normalization normalization(Dataset selected) {
        return Normalization.byName(normalization, featureTransform().apply(selected));
    }

    /** {@code m} with the chosen transform and dropout (the same initial weights). */
    RankingModel prepare(RankingModel m) {
        RankingModel out = m.withTransform(featureTransform());
        return dropout > 0 ? out.withDropout(dropout) : out;
    }

    /** The network's name as the library spells it. */
    String architecture() {
        try {
            return Architectures.canonical(model);
        } catch (IllegalArgumentException e) {
            throw bad("--model: " + e.getMessage());
        }
    }

    Metric selection() {
        try {
            return Metric.parse(metric);
        } catch (IllegalArgumentException e) {
            throw bad("--metric: " + e.getMessage());
        }
    }

    OptimizerKind optimizerKind() {
        try {
            return OptimizerKind.parse(optimizer);
        } catch (IllegalArgumentException e) {
            throw bad("--optimizer: " + e.getMessage());
        }
    }

    /** Default conventions with this grade maximum. */
    MetricConventions conventions() {
        return MetricConventions.defaults().withYmax(ymax);
    }

    /** The settings of one run (no checkpoint: the run's folder sets it). */
    TrainingConfig config() {
        return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection(), optimizerKind(), conventions(),
                null, schedule(), inputNoise);
    }

    /** Sets the worker threads when {@code --threads} was given. */
    void applyThreads() {
        if (threads != null) {
            Parallel.setThreads(threads);
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(command.commandLine(), message);
    }
}
