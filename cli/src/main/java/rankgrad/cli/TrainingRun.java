package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import rankgrad.ltr.RankingLoss;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.EpochResult;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;

/**
 * One gradient training run as the commands do it: train with progress, evaluate the test set each
 * epoch, then write {@code model.json}, {@code metrics.csv} and {@code curves.png} into a folder
 * (and keep {@code checkpoint.json} there, so a killed run resumes).
 */
final class TrainingRun {

    /** What a run produced: the trained model (best epoch), the result, its curves. */
    record Outcome(RankingModel model, TrainingResult result, Curves.Run curves) {
    }

    private TrainingRun() {
    }

    static Outcome execute(RankingModel model, String lossName, TrainingConfig config, Dataset train, Dataset valid,
            Dataset test, Path outDir, Progress progress) throws IOException {
        RankingLoss loss = Losses.parse(lossName, config.seed());
        Dataset testNorm = test == null ? null : model.normalize(test);
        Metric metric = config.selection();
        Map<Integer, Double> testByEpoch = new HashMap<>();
        TrainingResult result = Trainer.of(config.withCheckpoint(outDir.resolve("checkpoint.json"))).fit(model, loss, train,
                valid, new TrainingListener() {
                    @Override
                    public void batchDone(int epoch, int batch, int total, double l) {
                        progress.batch(epoch, batch, total, l);
                    }

                    @Override
                    public void epochDone(EpochResult r) {
                        double t = testNorm == null ? Double.NaN : evaluate(model, testNorm, metric);
                        testByEpoch.put(r.epoch(), t);
                        progress.epoch(r, t);
                    }
                });
        // Built from the whole history, so a resumed run's files cover the epochs before the resume
        // too (their test values were not measured again: left blank, and no test curve is drawn).
        Curves.Run curves = new Curves.Run(loss.name());
        boolean testCurve = testNorm != null && testByEpoch.keySet().containsAll(
                result.history().stream().map(EpochResult::epoch).toList());
        StringBuilder csv = new StringBuilder("epoch,train_loss,valid_" + metric + (test == null ? "" : ",test_" + metric)
                + ",best\n");
        for (EpochResult r : result.history()) {
            curves.epochs().add(r.epoch());
            curves.trainLoss().add(r.trainLoss());
            curves.valid().add(r.validation());
            Double t = testByEpoch.get(r.epoch());
            if (testCurve) {
                curves.test().add(t);
            }
            csv.append(String.format(Locale.ROOT, "%d,%.6f,%.6f%s,%s%n", r.epoch(), r.trainLoss(), r.validation(),
                    testNorm == null ? "" : t == null ? "," : String.format(Locale.ROOT, ",%.6f", t), r.best()));
        }
        ModelFile.write(model, outDir.resolve("model.json"));
        AtomicWrite.writeString(outDir.resolve("metrics.csv"), csv.toString());
        Curves.write(List.of(curves), metric.toString(), true, outDir.resolve("curves.png"));
        return new Outcome(model, result, curves);
    }

    /** The mean of {@code metric} over normalized data, default conventions. */
    static double evaluate(RankingModel model, Dataset normalized, Metric metric) {
        return metric.evaluate(Trainer.scoreNormalized(model, normalized), normalized.labelBatch(normalized.allQueries()),
                MetricConventions.defaults()).mean();
    }
}
