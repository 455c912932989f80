package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.CheckpointException;
import rankgrad.ltr.train.EpochResult;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;

/**
 * One gradient training run as the commands do it: train with progress (the test set evaluated
 * each epoch), then write {@code model.json}, {@code metrics.csv} and {@code curves.png} into a
 * folder, keeping {@code checkpoint.json} there so that a killed run resumes. The wall time of each
 * epoch goes to {@code timings.csv} beside them (kept out of {@code metrics.csv}, which is the same
 * bits for the same run), rewritten after every epoch so that a resumed run keeps the times of the
 * epochs an earlier invocation trained. The caller holds the folder's
 * {@link rankgrad.ltr.train.RunLock}.
 */
final class TrainingRun {
    /** The checkpoint's name in a run's folder. */
    static final String CHECKPOINT = "checkpoint.json";
    /** Per-epoch wall times in a run's folder, for benchmarks (scripts/bench-epoch). */
    static final String TIMINGS = "timings.csv";

    /**
     * What a run produced: the trained model (best epoch), the result, its curves, and the seconds
     * earlier invocations spent on the epochs this one resumed (0 for a run from the start).
     */
    record Outcome(RankingModel model, TrainingResult result, Curves.Run curves, double earlierSeconds) {
    }

    /** An ensemble and the seconds earlier invocations spent on its members' resumed epochs. */
    record EnsembleOutcome(Ensemble ensemble, double earlierSeconds) {
    }

    private TrainingRun() {
    }

    /**
     * Trains {@code model} into {@code outDir}, resuming the checkpoint there when it belongs to this
     * run; {@code fresh} deletes it first. A checkpoint of another run (or a damaged one) stops with
     * an error that names what differs and how to start over.
     */
    static Outcome execute(RankingModel model, String lossName, TrainingConfig config, Dataset train, Dataset valid,
            Dataset test, Path outDir, Progress progress, boolean fresh) throws IOException {
        Path checkpoint = outDir.resolve(CHECKPOINT);
        if (fresh) {
            Files.deleteIfExists(checkpoint);
        }
        RankingLoss loss = Losses.parse(lossName, config.seed());
        Map<Integer, Double> earlier = fresh ? Map.of() : EpochTimes.read(outDir.resolve(TIMINGS));
        // Each epoch's seconds: those of the epochs resumed (from an earlier invocation's timings), then this one's.
        Map<Integer, Double> times = new TreeMap<>();
        TrainingResult result;
        try {
            result = Trainer.of(config.withCheckpoint(checkpoint)).fit(model, loss, train, valid, test, new TrainingListener() {
                @Override
                public void resumed(Path file, List<EpochResult> done, boolean finished) {
                    for (EpochResult r : done) {
                        if (earlier.containsKey(r.epoch())) {
                            times.put(r.epoch(), earlier.get(r.epoch()));
                        }
                    }
                    if (!done.isEmpty()) {
                        Interruption.checkpointed(file, done.get(done.size() - 1).epoch(), config.epochs());
                    }
                    progress.resumed(file, done, finished);
                }

                @Override
                public void batchDone(int epoch, int batch, int total, double l) {
                    progress.batch(epoch, batch, total, l);
                }

                @Override
                public void epochDone(EpochResult r) {
                    Interruption.checkpointed(checkpoint, r.epoch(), config.epochs());
                    times.put(r.epoch(), r.seconds());
                    try {
                        AtomicWrite.writeString(outDir.resolve(TIMINGS), EpochTimes.csv(times, train.documents()));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e.getMessage(), e);
                    }
                    progress.epoch(r, false);
                }
            });
        } catch (CheckpointException e) {
            throw new IOException(e.problem() + "; add --fresh to discard it and train from the start, or write to another"
                    + " --out", e);
        }
        String metric = config.selection().toString();
        Curves.Run curves = new Curves.Run(loss.name());
        for (EpochResult r : result.history()) {
            curves.epochs().add(r.epoch());
            curves.trainLoss().add(r.trainLoss());
            curves.valid().add(r.validation());
            if (test != null) {
                curves.test().add(r.test());
            }
        }
        ModelFile.write(model, outDir.resolve("model.json"));
        AtomicWrite.writeString(outDir.resolve("metrics.csv"), MetricsCsv.of(result.history(), metric, test != null));
        AtomicWrite.writeString(outDir.resolve(TIMINGS), EpochTimes.csv(times, train.documents()));
        Curves.write(List.of(curves), metric, true, outDir.resolve("curves.png"));
        double resumed = 0;
        for (EpochResult r : result.history()) {
            if (r.seconds() == 0 && times.containsKey(r.epoch())) {
                resumed += times.get(r.epoch());
            }
        }
        return new Outcome(model, result, curves, resumed);
    }

    /**
     * Trains {@code k} models, model i (1-based) made by {@code modelForSeed} from seed
     * {@code config.seed() + i - 1} and trained with that seed into {@code outDir/member-i} (each
     * resumable on its own), and writes their {@link Ensemble} to {@code outDir/model.json}.
     */
    static EnsembleOutcome executeEnsemble(int k, LongFunction<RankingModel> modelForSeed, String lossName, TrainingConfig config,
            Dataset train, Dataset valid, Dataset test, Path outDir, Supplier<Progress> progress, boolean fresh,
            PrintWriter o) throws IOException {
        List<RankingModel> members = new ArrayList<>();
        List<Object> memberInfo = new ArrayList<>();
        double resumed = 0;
        for (int i = 1; i <= k; i++) {
            long seed = config.seed() + i - 1;
            o.printf(Locale.ROOT, "-- ensemble member %d of %d (seed %d)%n", i, k, seed);
            Outcome r = execute(modelForSeed.apply(seed), lossName, config.withSeed(seed), train, valid, test,
                    OutputFolder.subfolder(outDir, "member-" + i), progress.get(), fresh);
            o.println(r.result().message());
            resumed += r.earlierSeconds();
            members.add(r.model());
            // Ordered (not Map.of, whose order varies between JVM runs): the same ensemble gives the same bytes.
            Map<String, Object> info = new LinkedHashMap<>();
            info.put("seed", Long.toString(seed));
            info.put("bestEpoch", r.result().bestEpoch());
            info.put("validation", r.result().bestValidation());
            memberInfo.add(info);
        }
        Ensemble e = Ensemble.of(members);
        e.info().put("loss", lossName);
        e.info().put("members", memberInfo);
        Metric selection = config.selection();
        Dataset va = e.normalize(valid);
        e.info().put("validation", Map.of(selection.toString(), selection.evaluate(e.scorer().scoreNormalized(va),
                va.labelBatch(va.allQueries()), config.conventions()).mean()));
        ModelFile.write(e, outDir.resolve("model.json"));
        return new EnsembleOutcome(e, resumed);
    }

    /** "test ndcg@5 0.7737 at epoch 5": the test value of the best epoch, or null without one. */
    static String bestTest(TrainingResult r, String metric) {
        return r.history().stream().filter(e -> e.epoch() == r.bestEpoch() && !Double.isNaN(e.test())).findFirst()
                .map(e -> String.format(Locale.ROOT, "test %s %.4f at epoch %d", metric, e.test(), e.epoch())).orElse(null);
    }
}
