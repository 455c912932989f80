package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.nn.optim.Optimizer;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.model.NonFiniteScoreException;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;

/**
 * Trains a {@link RankingModel} with a {@link RankingLoss}: mini-batches of whole queries (ragged,
 * no padding), the optimizer of the {@link TrainingConfig} (Adam with L2 by default), model
 * selection on a validation metric after every epoch, early stopping with patience, checkpoints
 * and resume.
 *
 * <p>Determinism: each epoch's query order is drawn from (seed, epoch), the losses' tie-breaks,
 * the dropout masks ({@link rankgrad.nn.Mlp#setDropoutStep}) and the learning-rate
 * schedule ({@link LearningRateSchedule}) are keyed by the global step ({@link RankingLoss#atStep}),
 * the input noise by (seed, epoch, query) ({@link InputNoise}), and every kernel splits work by problem
 * size: the same data, settings and seed give a bit-identical model for any thread count, and a
 * run resumed from a checkpoint ends with the same model as the uninterrupted run.
 *
 * <p>Checkpoints: with {@link TrainingConfig#checkpoint()} set, a {@link Checkpoint} is written
 * atomically after every epoch (a killed run leaves the previous one intact). An existing
 * checkpoint is resumed only when its {@link RunFingerprint} equals this run's (same data content,
 * same settings); otherwise {@link CheckpointException} says what differs, and nothing is trained.
 * Two processes must not share a checkpoint: hold a {@link RunLock} on its folder.
 *
 * <p>Divergence: after every batch the trainer checks the scores, the loss, the batch-norm
 * statistics, the gradients, and, after the step, the weights and the optimizer's state; after
 * every epoch the validation (and test) scores and metric. The first NaN or infinity stops
 * training with {@link TrainingResult.Stop#DIVERGED} and a message naming the epoch, the batch and
 * what went non-finite; the model is left holding the best epoch's weights (the initial ones if no
 * epoch finished), which are always finite.
 */
public final class Trainer {
    private final TrainingConfig config;

    private Trainer(TrainingConfig config) {
        this.config = config;
    }

    /** A trainer with the given settings. */
    public static Trainer of(TrainingConfig config) {
        return new Trainer(config);
    }

    /** {@link #fit(RankingModel, RankingLoss, Dataset, Dataset, Dataset, TrainingListener)} without a test set. */
    public TrainingResult fit(RankingModel model, RankingLoss loss, Dataset train, Dataset valid, TrainingListener listener)
            throws IOException {
        return fit(model, loss, train, valid, null, listener);
    }

    /**
     * Trains {@code model} on {@code train}, selecting on {@code valid} and reporting the selection
     * metric on {@code test} after every epoch (null for none; never used for selection). The data
     * are raw: the model's normalization is applied here. Returns when all epochs ran, patience ran
     * out, or training diverged; the model then holds the best epoch's weights.
     *
     * @throws IllegalArgumentException when no validation query has a relevant document (the
     *     selection metric would be undefined)
     * @throws CheckpointException when the configured checkpoint exists but is damaged or belongs
     *     to a different run
     */
    public TrainingResult fit(RankingModel model, RankingLoss loss, Dataset train, Dataset valid, Dataset test,
            TrainingListener listener) throws IOException {
        return fit(model, loss, new LocalStep(model, train, InputNoise.of(config.seed(), config.inputNoise())), valid,
                test, listener);
    }

    /**
     * {@link #fit(RankingModel, RankingLoss, Dataset, Dataset, Dataset, TrainingListener)} with the
     * step gradients of {@code train}: the training queries held and the gradients formed there
     * (in this JVM in one pass, over virtual shards with {@code rankgrad.ltr.train.shards.LocalShards}, or
     * on a cluster), everything else
     * (optimizer, selection on {@code valid}, early stopping, checkpoints) here.
     */
    public TrainingResult fit(RankingModel model, RankingLoss loss, StepGradient train, Dataset valid, Dataset test,
            TrainingListener listener) throws IOException {
        if (train.inputNoise() != config.inputNoise()) {
            throw new IllegalArgumentException("the configuration asks for input noise " + config.inputNoise()
                    + " but the step gradients add " + train.inputNoise() + " (" + train.getClass().getSimpleName() + ")");
        }
        requireRelevant(valid);
        Dataset va = model.normalize(valid);
        Dataset te = test == null ? null : model.normalize(test);
        Optimizer optimizer = config.optimizer().create(model.namedParameters(), config.learningRate(),
                config.l2());
        State s = new State(copy(model.state()));
        Path file = config.checkpoint();
        RunFingerprint run = file == null ? null : RunFingerprint.of(model, loss, config, train.identity(), valid, test);
        if (file != null && Files.exists(file)) {
            Checkpoint c = Checkpoint.read(file, run);
            s.restore(c, model, optimizer, file);
            listener.resumed(file, s.history, c.finished() || c.epochsDone() >= config.epochs());
        }
        int batches = (train.queries() + config.batchQueries() - 1) / config.batchQueries();
        long totalSteps = (long) config.epochs() * batches;
        RankingLoss scheduled = loss.forRun(totalSteps);
        while (s.stop == null && s.epochsDone < config.epochs()) {
            int epoch = s.epochsDone + 1;
            long started = System.nanoTime();
            int[] order = shuffled(train.queries(), epoch);
            train.startEpoch(epoch, order, config.batchQueries());
            model.train();
            double lossSum = 0;
            for (int b = 0; b < batches && s.stop == null; b++) {
                int from = b * config.batchQueries();
                int[] idx = Arrays.copyOfRange(order, from, Math.min(order.length, from + config.batchQueries()));
                double l = step(model, scheduled, optimizer, train, idx, s, totalSteps);
                if (s.stop == null) {
                    lossSum += l;
                    listener.batchDone(epoch, b + 1, batches, l);
                } else {
                    s.message = "training diverged at epoch " + epoch + ", batch " + (b + 1) + " of " + batches + ": "
                            + s.message + "; " + keeping(s);
                }
            }
            if (s.stop != null) {
                break;
            }
            EpochResult result = evaluate(model, epoch, lossSum / batches, va, te, s, started);
            if (result == null) {
                break;
            }
            s.history.add(result);
            s.epochsDone = epoch;
            if (config.patience() > 0 && s.badEpochs >= config.patience()) {
                s.stop = TrainingResult.Stop.EARLY_STOPPED;
                s.message = "stopped early: " + config.selection() + " on validation did not improve for " + config.patience()
                        + " epochs (best " + fmt(s.bestValidation) + " at epoch " + s.bestEpoch + ")";
            }
            if (file != null) {
                s.checkpoint(run, model, optimizer).write(file);
            }
            listener.epochDone(result);
        }
        if (s.stop == null) {
            s.stop = TrainingResult.Stop.COMPLETED;
            s.message = "completed " + s.epochsDone + " epochs (best " + config.selection() + " " + fmt(s.bestValidation)
                    + " at epoch " + s.bestEpoch + ")";
        }
        model.loadState(s.best);
        model.eval();
        model.info().put("loss", loss.name());
        Map<String, Object> training = config.describe();
        train.identity().forEach((k, v) -> {
            if (!k.equals("training data")) {
                training.put(k, v);
            }
        });
        model.info().put("training", training);
        if (s.bestEpoch > 0) {
            Map<String, Object> validation = new LinkedHashMap<>();
            validation.put(config.selection().toString(), s.bestValidation);
            validation.put("epoch", s.bestEpoch);
            model.info().put("validation", validation);
        } else {
            model.info().remove("validation");
        }
        return new TrainingResult(s.stop, s.message, s.bestEpoch, s.bestValidation, s.history);
    }

    /**
     * One optimizer step on the queries {@code idx}; returns the batch's loss. On a NaN or infinity
     * it sets {@code s.stop} to DIVERGED and {@code s.message} to what went non-finite.
     */
    private double step(RankingModel model, RankingLoss loss, Optimizer optimizer, StepGradient train, int[] idx,
            State s, long totalSteps) {
        optimizer.zeroGrad();
        BatchGradient g = train.compute(model, loss, idx, s.step + 1);
        String bad = g.nonFinite();
        double l = g.loss();
        if (bad == null) {
            bad = NonFinite.find("the gradient of", g.gradients());
        }
        if (bad == null) {
            if (!config.schedule().isConstant()) {
                optimizer.setLearningRate(config.learningRate() * config.schedule().factor(s.step + 1, totalSteps));
            }
            optimizer.step();
            s.step++;
            bad = NonFinite.find("after the step, the weight", state(model.namedParameters()));
        }
        if (bad == null) {
            bad = NonFinite.find("after the step, the optimizer state", optimizer.state());
        }
        if (bad != null) {
            s.stop = TrainingResult.Stop.DIVERGED;
            s.message = bad;
        }
        return l;
    }

    /**
     * Validates (and tests) the epoch's model and updates the best epoch; null when a score or the
     * metric is not finite (then {@code s} says the run diverged).
     */
    private EpochResult evaluate(RankingModel model, int epoch, double trainLoss, Dataset va, Dataset te, State s,
            long started) {
        Scorer scorer = model.scorer();
        double v = metric(scorer, va, "validation", s);
        double t = Double.NaN;
        if (s.stop == null && te != null) {
            t = metric(scorer, te, "test", s);
        }
        if (s.stop != null) {
            s.message = "training diverged after epoch " + epoch + ": " + s.message + "; " + keeping(s);
            return null;
        }
        boolean improved = v > s.bestValidation;
        if (improved) {
            s.bestValidation = v;
            s.bestEpoch = epoch;
            s.best = copy(model.state());
            s.badEpochs = 0;
        } else {
            s.badEpochs++;
        }
        return new EpochResult(epoch, trainLoss, v, t, improved, (System.nanoTime() - started) / 1e9);
    }

    /** The selection metric on normalized data; NaN and a divergence in {@code s} when it is not finite. */
    private double metric(Scorer scorer, Dataset normalized, String which, State s) {
        double m;
        try {
            m = config.selection().evaluate(scorer.scoreNormalized(normalized), normalized.labelBatch(normalized.allQueries()),
                    config.conventions()).mean();
        } catch (NonFiniteScoreException e) {
            s.stop = TrainingResult.Stop.DIVERGED;
            s.message = "the " + which + (e.layer() == null ? " score" : " activation of layer " + e.layer()) + " of document "
                    + e.document() + " of query " + e.qid() + " is " + e.score();
            return Double.NaN;
        }
        if (!Double.isFinite(m)) {
            s.stop = TrainingResult.Stop.DIVERGED;
            s.message = which + " " + config.selection() + " is " + m;
        }
        return m;
    }

    private static String keeping(State s) {
        return (s.bestEpoch == 0 ? "keeping the initial weights (no epoch finished)"
                : "keeping the best model so far (epoch " + s.bestEpoch + ")") + "; try a smaller learning rate";
    }

    private void requireRelevant(Dataset valid) {
        for (Query q : valid.queries()) {
            if (q.hasRelevant()) {
                return;
            }
        }
        throw new IllegalArgumentException(valid.name() + ": no query has a relevant document (every label is 0), so"
                + " validation " + config.selection() + " is undefined and cannot select an epoch");
    }

    private int[] shuffled(int n, int epoch) {
        SplittableRandom rng = new SplittableRandom(config.seed() * 0x9E3779B97F4A7C15L + epoch);
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static Map<String, Tensor> state(Map<String, Var> params) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        params.forEach((name, p) -> out.put(name, p.value()));
        return out;
    }

    private static Map<String, Tensor> copy(Map<String, Tensor> state) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        state.forEach((k, t) -> out.put(k, t.copy()));
        return out;
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    /** Mutable progress of a run: what a checkpoint holds. */
    private static final class State {
        int epochsDone;
        long step;
        int bestEpoch;
        double bestValidation = Double.NEGATIVE_INFINITY;
        int badEpochs;
        Map<String, Tensor> best;
        List<EpochResult> history = new ArrayList<>();
        TrainingResult.Stop stop;
        String message;

        State(Map<String, Tensor> initial) {
            this.best = initial;
        }

        Checkpoint checkpoint(RunFingerprint run, RankingModel model, Optimizer optimizer) {
            return new Checkpoint(run, epochsDone, step, bestEpoch, bestValidation, badEpochs, stop, message, history,
                    model.state(), optimizer.state(), best);
        }

        /** Loads {@code c} into this state, the model and the optimizer. */
        void restore(Checkpoint c, RankingModel model, Optimizer optimizer, Path file) throws CheckpointException {
            try {
                requireSameShapes(c.best(), model.state());
                model.loadState(c.weights());
                optimizer.loadState(c.optimizer());
            } catch (IllegalArgumentException e) {
                throw Checkpoint.damaged(file, "its tensors do not fit the model (" + e.getMessage() + ")", e);
            }
            epochsDone = c.epochsDone();
            step = c.step();
            bestEpoch = c.bestEpoch();
            bestValidation = c.bestValidation();
            badEpochs = c.badEpochs();
            best = c.best();
            history = new ArrayList<>(c.history());
            stop = c.stop();
            message = c.message();
        }

        private static void requireSameShapes(Map<String, Tensor> given, Map<String, Tensor> model) {
            if (!given.keySet().equals(model.keySet())) {
                throw new IllegalArgumentException("the best weights have the tensors " + given.keySet() + ", the model "
                        + model.keySet());
            }
            model.forEach((name, t) -> {
                if (!t.sameShape(given.get(name))) {
                    throw new IllegalArgumentException("the best weights' " + name + " has shape "
                            + Arrays.toString(given.get(name).shape()) + ", the model needs " + Arrays.toString(t.shape()));
                }
            });
        }
    }
}
