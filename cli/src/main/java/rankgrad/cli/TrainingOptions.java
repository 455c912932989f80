package rankgrad.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import rankgrad.simd.Parallel;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureTransform;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.LearningRateSchedule;
import rankgrad.ltr.train.TrainingConfig;

/**
 * The training options {@code train} and {@code compare} share (a picocli mixin): those of
 * {@link BaseTrainingOptions} (network, normalization, optimizer and its settings, seed, early
 * stopping, selection metric, ERR's grade maximum) and the feature transform, learning-rate
 * schedule, input noise, dropout, ensemble size, threads, and {@code --fresh}. {@link #validate()}
 * checks all of them before any data is read, so a bad value is one line and exit code 2, never a
 * failure after an epoch.
 */
final class TrainingOptions extends BaseTrainingOptions {
    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec mixee;

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
    @Override
    public void validate() {
        super.validate();
        if (threads != null && threads < 1) {
            throw bad("--threads must be >= 1, got " + threads);
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

    /** The settings of one run (no checkpoint: the run's folder sets it). */
    @Override
    public TrainingConfig config() {
        return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection(), optimizerKind(), conventions(),
                null, schedule(), inputNoise);
    }

    /** Sets the worker threads when {@code --threads} was given. */
    void applyThreads() {
        if (threads != null) {
            Parallel.setThreads(threads);
        }
    }

    /**
     * {@code config} fitted to {@code trainQueries} training queries ({@link DataSizeFit}),
     * warning on the command's error stream when the set is small.
     */
    TrainingConfig fit(TrainingConfig config, int trainQueries) {
        CommandLine.ParseResult given = mixee == null ? null : mixee.commandLine().getParseResult();
        boolean batchGiven = given != null && given.hasMatchedOption("--batch-queries");
        return DataSizeFit.fit(config, trainQueries, batchGiven, mixee == null ? null : mixee.commandLine().getErr());
    }
}
