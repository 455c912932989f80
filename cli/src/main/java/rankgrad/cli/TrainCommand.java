package rankgrad.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.LetorOptions;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Gains;
import rankgrad.ltr.train.GradientFreeOptimizer;
import rankgrad.ltr.train.GradientFreeTrainer;
import rankgrad.ltr.train.RunLock;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingResult;

/** {@code rankgrad train}: trains a ranker on LETOR files and writes model, metrics and curves. */
@Command(name = "train", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train a ranker. Writes OUT/model.json, OUT/metrics.csv, OUT/curves.png; OUT/checkpoint.json"
                + " lets a killed run resume where it stopped (only the same run: the same data and settings).",
            "One run at a time per OUT. Exit codes: 0 done, 1 failed or diverged (the best model so far is written),"
                + " 2 bad arguments."})
final class TrainCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--train", required = true, description = "training LETOR file")
    Path train;

    @Option(names = "--valid", required = true, description = "validation LETOR file (model selection)")
    Path valid;

    @Option(names = "--test", description = "test LETOR file (reported per epoch, never used for selection)")
    Path test;

    @Option(names = "--loss", defaultValue = "ndcg-type3", description = "ndcg-type1..3, ap-type1..3, precision@k-type1..3,"
            + " nerr@10-type1..3, approx-ndcg, sdcg@k, shf-sdcg@k, reg-shf-sdcg@k, lambdarank, ranknet, listnet, listmle,"
            + " spsa:F, fdsa")
    String loss;

    @Mixin
    TrainingOptions training;

    @Option(names = "--out", defaultValue = "rankgrad-out", description = "output folder")
    Path out;

    @Override
    public Integer call() throws Exception {
        training.validate();
        boolean gradientFree = GradientFreeOptimizer.isGradientFree(loss);
        checkLoss(gradientFree);
        OutputFolder.check(spec.commandLine(), "--out", out);
        for (Path input : test == null ? List.of(train, valid) : List.of(train, valid, test)) {
            if (Files.notExists(input)) {
                throw new NoSuchFileException(input.toString());
            }
        }
        training.applyThreads();
        try (RunLock lock = RunLock.acquire(out)) {
            return train(gradientFree);
        }
    }

    private int train(boolean gradientFree) throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        // An ERR selection metric needs every grade at most ymax: refused while reading, with file and line.
        LetorOptions read = LetorInputOptions.needsYmax(List.of(training.selection()))
                ? LetorOptions.DEFAULT.withYmax(training.ymax) : LetorOptions.DEFAULT;
        Dataset tr = LetorReader.read(train, 0, read);
        Dataset va = LetorReader.read(valid, tr.features(), read);
        Dataset te = test == null ? null : LetorReader.read(test, tr.features(), read);
        if (va.features() != tr.features() || te != null && te.features() != tr.features()) {
            throw new IllegalArgumentException("the validation or test file has more features than the training file ("
                    + tr.features() + ")");
        }
        RankingModel m = RankingModel.create(training.architecture(), tr.features(),
                Normalization.byName(training.normalization, tr), training.seed);
        Metric selection = training.selection();
        o.printf(Locale.ROOT, "training %s (%d parameters) with %s on %d queries; selecting on valid %s%n", m.architecture(),
                m.network().parameterCount(), loss, tr.size(), selection);
        if (gradientFree) {
            return gradientFree(m, tr, va, te, selection, o);
        }
        TrainingConfig config = training.config();
        Progress progress = new Progress(o, System.console() != null, config.epochs(), selection.toString());
        TrainingResult r = TrainingRun.execute(m, loss, config, tr, va, te, out, progress, training.fresh).result();
        o.println(r.message());
        String bestTest = TrainingRun.bestTest(r, selection.toString());
        if (bestTest != null) {
            o.println(bestTest);
        }
        o.printf("wrote %s, %s, %s%n", out.resolve("model.json"), out.resolve("metrics.csv"), out.resolve("curves.png"));
        return r.stop() == TrainingResult.Stop.DIVERGED ? 1 : 0;
    }

    private void checkLoss(boolean gradientFree) {
        try {
            if (gradientFree) {
                GradientFreeOptimizer.parse(loss, Gains.forIterations(training.lr, training.epochs), training.seed);
            } else {
                Losses.parse(loss, training.seed, training.epochs);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--loss: " + e.getMessage());
        }
    }

    private int gradientFree(RankingModel m, Dataset tr, Dataset va, Dataset te, Metric selection, PrintWriter o)
            throws Exception {
        GradientFreeOptimizer opt = GradientFreeOptimizer.parse(loss, Gains.forIterations(training.lr, training.epochs),
                training.seed);
        List<GradientFreeTrainer.Point> curve = GradientFreeTrainer.of(opt, training.epochs, selection)
                .withConventions(training.conventions()).fit(m, tr, va);
        StringBuilder csv = new StringBuilder("iteration,evaluations,train_" + selection + ",valid_" + selection + "\n");
        for (GradientFreeTrainer.Point p : curve) {
            csv.append(String.format(Locale.ROOT, "%d,%d,%.6f,%.6f%n", p.iteration(), p.evaluations(), p.train(), p.validation()));
            o.printf(Locale.ROOT, "iteration %5d  evaluations %7d  train %.4f  valid %.4f%n", p.iteration(), p.evaluations(),
                    p.train(), p.validation());
        }
        if (te != null) {
            o.printf(Locale.ROOT, "test %s %.4f%n", selection, selection.evaluate(m.scorer().score(te),
                    te.labelBatch(te.allQueries()), training.conventions()).mean());
        }
        ModelFile.write(m, out.resolve("model.json"));
        AtomicWrite.writeString(out.resolve("metrics.csv"), csv.toString());
        o.printf("wrote %s, %s%n", out.resolve("model.json"), out.resolve("metrics.csv"));
        return 0;
    }
}
