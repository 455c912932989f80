package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.autodiff.optim.Adam;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;

/**
 * Trains a {@link RankingModel} with a {@link RankingLoss}: mini-batches of whole queries (ragged,
 * no padding), Adam with L2 weight decay, model selection on a validation metric after every
 * epoch, early stopping with patience, checkpoints and resume.
 *
 * <p>Determinism: each epoch's query order is drawn from (seed, epoch), the losses' tie-breaks are
 * keyed by the global step ({@link RankingLoss#atStep}), and every kernel splits work by problem
 * size: the same data, settings and seed give a bit-identical model for any thread count, and a
 * run resumed from a checkpoint ends with the same model as the uninterrupted run.
 *
 * <p>Failure: a NaN or infinity in the loss or in a gradient stops training with a message naming
 * the epoch and batch; the model is left holding the best epoch's weights. Checkpoints are written
 * atomically, so a killed run leaves the previous checkpoint intact.
 */
public final class Trainer {
    private static final String CHECKPOINT_FORMAT = "rankgrad-checkpoint";
    private static final int VALIDATION_CHUNK = 512;

    private final TrainingConfig config;
    private final MetricConventions conventions;

    private Trainer(TrainingConfig config, MetricConventions conventions) {
        this.config = config;
        this.conventions = conventions;
    }

    /** A trainer with the given settings; validation uses the default metric conventions. */
    public static Trainer of(TrainingConfig config) {
        return new Trainer(config, MetricConventions.defaults());
    }

    /**
     * Trains {@code model} on {@code train}, selecting on {@code valid} (both raw: the model's
     * normalization is applied here). Returns when all epochs ran, patience ran out, or training
     * diverged; the model then holds the best epoch's weights.
     */
    public TrainingResult fit(RankingModel model, RankingLoss loss, Dataset train, Dataset valid, TrainingListener listener)
            throws IOException {
        Dataset tr = model.normalize(train);
        Dataset va = model.normalize(valid);
        QueryBatch vaLabels = va.labelBatch(va.allQueries());
        Adam adam = Adam.create(model.network().namedParameters(),
                Adam.Settings.defaults().withLearningRate(config.learningRate()).withWeightDecay(config.l2()));
        State s = new State();
        s.best = copy(model.network().state());
        String key = fingerprint(model, loss, train, valid);
        if (config.checkpoint() != null && Files.exists(config.checkpoint())) {
            resume(config.checkpoint(), key, model, adam, s);
        }
        model.info().put("loss", loss.name());
        model.info().put("training", config.describe());
        int batches = (tr.size() + config.batchQueries() - 1) / config.batchQueries();
        while (s.stop == null && s.epochsDone < config.epochs()) {
            int epoch = s.epochsDone + 1;
            long started = System.nanoTime();
            int[] order = shuffled(tr.size(), epoch);
            model.train();
            double lossSum = 0;
            for (int b = 0; b < batches && s.stop == null; b++) {
                int from = b * config.batchQueries();
                int[] idx = java.util.Arrays.copyOfRange(order, from, Math.min(order.length, from + config.batchQueries()));
                Tensor x = tr.featureMatrix(idx);
                QueryBatch batch = tr.labelBatch(idx);
                adam.zeroGrad();
                Var value = loss.forRun((long) config.epochs() * batches).atStep(s.step + 1).loss(model.forward(x), batch);
                double l = value.value().item();
                String bad = Double.isFinite(l) ? null : "the loss is " + l;
                if (bad == null) {
                    value.backward();
                    bad = nonFiniteGradient(model);
                }
                if (bad != null) {
                    s.stop = TrainingResult.Stop.DIVERGED;
                    s.message = "training diverged at epoch " + epoch + ", batch " + (b + 1) + " of " + batches + ": " + bad
                            + "; keeping the best model so far (epoch " + s.bestEpoch + "); try a smaller learning rate";
                    break;
                }
                adam.step();
                s.step++;
                lossSum += l;
                listener.batchDone(epoch, b + 1, batches, l);
            }
            if (s.stop != null) {
                break;
            }
            double v = validate(model, va, vaLabels);
            boolean improved = v > s.bestValidation || s.bestEpoch == 0 && !Double.isNaN(v);
            if (improved) {
                s.bestValidation = v;
                s.bestEpoch = epoch;
                s.best = copy(model.network().state());
                s.badEpochs = 0;
            } else {
                s.badEpochs++;
            }
            EpochResult result = new EpochResult(epoch, lossSum / batches, v, improved, (System.nanoTime() - started) / 1e9);
            s.history.add(result);
            s.epochsDone = epoch;
            if (config.patience() > 0 && s.badEpochs >= config.patience()) {
                s.stop = TrainingResult.Stop.EARLY_STOPPED;
                s.message = "stopped early: " + config.selection() + " on validation did not improve for " + config.patience()
                        + " epochs (best " + fmt(s.bestValidation) + " at epoch " + s.bestEpoch + ")";
            }
            if (config.checkpoint() != null) {
                writeCheckpoint(config.checkpoint(), key, model, adam, s);
            }
            listener.epochDone(result);
        }
        if (s.stop == null) {
            s.stop = TrainingResult.Stop.COMPLETED;
            s.message = "completed " + s.epochsDone + " epochs (best " + config.selection() + " " + fmt(s.bestValidation)
                    + " at epoch " + s.bestEpoch + ")";
        }
        model.network().loadState(s.best);
        model.eval();
        Map<String, Object> validation = new LinkedHashMap<>();
        validation.put(config.selection().toString(), s.bestValidation);
        validation.put("epoch", s.bestEpoch);
        model.info().put("validation", validation);
        return new TrainingResult(s.stop, s.message, s.bestEpoch, s.bestValidation, s.history);
    }

    /** The selection metric of {@code model} on normalized data, in evaluation mode. */
    private double validate(RankingModel model, Dataset normalized, QueryBatch labels) {
        float[] scores = scoreNormalized(model, normalized);
        double v = config.selection().evaluate(scores, labels, conventions).mean();
        model.train();
        return v;
    }

    /** Scores of every document of normalized data, queries in order, in evaluation mode. */
    public static float[] scoreNormalized(RankingModel model, Dataset normalized) {
        model.eval();
        float[] out = new float[(int) normalized.documents()];
        int at = 0;
        try (NoGrad ignored = NoGrad.enter()) {
            for (int from = 0; from < normalized.size(); from += VALIDATION_CHUNK) {
                int[] idx = new int[Math.min(VALIDATION_CHUNK, normalized.size() - from)];
                for (int i = 0; i < idx.length; i++) {
                    idx[i] = from + i;
                }
                Tensor s = model.forward(normalized.featureMatrix(idx)).value();
                for (int i = 0; i < s.size(); i++) {
                    out[at++] = (float) s.get(i);
                }
            }
        }
        return out;
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

    private static String nonFiniteGradient(RankingModel model) {
        for (Map.Entry<String, Var> e : model.network().namedParameters().entrySet()) {
            Tensor g = e.getValue().grad();
            if (g == null) {
                continue;
            }
            for (int i = 0; i < g.size(); i++) {
                if (!Double.isFinite(g.get(i))) {
                    return "the gradient of " + e.getKey() + " is " + g.get(i);
                }
            }
        }
        return null;
    }

    private static Map<String, Tensor> copy(Map<String, Tensor> state) {
        Map<String, Tensor> out = new LinkedHashMap<>();
        state.forEach((k, t) -> out.put(k, t.copy()));
        return out;
    }

    private String fingerprint(RankingModel model, RankingLoss loss, Dataset train, Dataset valid) {
        return model.architecture() + "|" + model.network().spec() + "|" + model.normalization().kind() + "|" + loss.name()
                + "|" + config.describe() + "|train " + train.size() + "q " + train.documents() + "d|valid " + valid.size()
                + "q " + valid.documents() + "d";
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
    }

    private static void writeCheckpoint(Path file, String key, RankingModel model, Adam adam, State s) throws IOException {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("format", CHECKPOINT_FORMAT);
        c.put("version", 1);
        c.put("run", key);
        c.put("epochsDone", s.epochsDone);
        c.put("step", s.step);
        c.put("bestEpoch", s.bestEpoch);
        c.put("bestValidation", Double.isFinite(s.bestValidation) ? s.bestValidation : null);
        c.put("badEpochs", s.badEpochs);
        c.put("stop", s.stop == null ? null : s.stop.name());
        c.put("message", s.message);
        List<Object> history = new ArrayList<>();
        for (EpochResult r : s.history) {
            Map<String, Object> h = r.describe();
            h.put("best", r.best());
            history.add(h);
        }
        c.put("history", history);
        c.put("model", ModelFile.toMap(model));
        c.put("optimizer", ModelFile.tensors(adam.state()));
        c.put("best", ModelFile.tensors(s.best));
        AtomicWrite.writeString(file, Json.write(c));
    }

    @SuppressWarnings("unchecked")
    private static void resume(Path file, String key, RankingModel model, Adam adam, State s) throws IOException {
        Map<String, Object> c;
        try {
            c = (Map<String, Object>) Json.parse(Files.readString(file));
        } catch (IllegalArgumentException | ClassCastException e) {
            throw new IOException(file + ": not a rankgrad checkpoint: " + e.getMessage(), e);
        }
        if (!CHECKPOINT_FORMAT.equals(c.get("format"))) {
            throw new IOException(file + ": not a rankgrad checkpoint (format " + c.get("format") + ")");
        }
        if (!key.equals(c.get("run"))) {
            throw new IOException(file + ": the checkpoint belongs to a different run (" + c.get("run") + "); delete it or"
                    + " write this run elsewhere");
        }
        try {
            RankingModel saved = ModelFile.fromMap((Map<String, Object>) c.get("model"));
            model.network().loadState(saved.network().state());
            adam.loadState(ModelFile.readTensors((Map<String, Object>) c.get("optimizer"), "optimizer"));
            s.best = ModelFile.readTensors((Map<String, Object>) c.get("best"), "best");
            s.epochsDone = ((Double) c.get("epochsDone")).intValue();
            s.step = ((Double) c.get("step")).longValue();
            s.bestEpoch = ((Double) c.get("bestEpoch")).intValue();
            s.bestValidation = c.get("bestValidation") == null ? Double.NEGATIVE_INFINITY : (Double) c.get("bestValidation");
            s.badEpochs = ((Double) c.get("badEpochs")).intValue();
            s.stop = c.get("stop") == null ? null : TrainingResult.Stop.valueOf((String) c.get("stop"));
            s.message = (String) c.get("message");
            for (Object o : (List<Object>) c.get("history")) {
                Map<String, Object> h = (Map<String, Object>) o;
                Object v = h.get("validation");
                s.history.add(new EpochResult(((Double) h.get("epoch")).intValue(), (Double) h.get("trainLoss"),
                        v == null ? Double.NaN : (Double) v, (Boolean) h.get("best"), 0));
            }
        } catch (IllegalArgumentException | ClassCastException | NullPointerException e) {
            throw new IOException(file + ": damaged checkpoint: " + e.getMessage(), e);
        }
    }

    private static String fmt(double v) {
        return String.format(java.util.Locale.ROOT, "%.4f", v);
    }
}
