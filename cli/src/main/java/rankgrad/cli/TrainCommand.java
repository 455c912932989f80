package rankgrad.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.QuerySplit;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.gradientfree.SpsaGains;
import rankgrad.ltr.train.gradientfree.GradientFreeOptimizer;
import rankgrad.ltr.train.gradientfree.GradientFreeTrainer;
import rankgrad.ltr.train.RunLock;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingResult;

/** {@code rankgrad train}: trains a ranker on LETOR files and writes model, metrics and curves. */
@Command(name = "train", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train a ranker. Writes OUT/model.json, OUT/metrics.csv, OUT/curves.png, OUT/timings.csv (epoch wall times);"
                + " OUT/checkpoint.json"
                + " lets a killed run resume where it stopped (only the same run: the same data and settings).",
            "Validation: --valid FILE, or --split-valid FRACTION of the training queries held out. --folds K instead"
                + " cross-validates on the training file: fold k tests on part k, selects on part k+1 and trains on the"
                + " rest, into OUT/Foldk/; OUT/cv.csv and OUT/cv.md give each fold's test value and their summary.",
            "One run at a time per OUT. Exit codes: 0 done, 1 failed or diverged (the best model so far is written),"
                + " 2 bad arguments."})
final class TrainCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--train", required = true, description = "training LETOR file")
    Path train;

    @Option(names = "--valid", description = "validation LETOR file (model selection)")
    Path valid;

    @Mixin
    FeatureOption featureOption;

    @Option(names = "--split-valid", paramLabel = "FRACTION", description = "without --valid: hold out this fraction of"
            + " the training queries for validation (by query, shuffled with --seed; their ids go to OUT/"
            + HeldOutQueries.FILE + ")")
    Double splitValid;

    @Option(names = "--folds", paramLabel = "K", description = "K-fold cross-validation on the training file (by query,"
            + " shuffled with --seed; K >= 3: each fold has its own validation part)")
    Integer folds;

    @Option(names = "--test", description = "test LETOR file (reported per epoch, never used for selection)")
    Path test;

    @Option(names = "--loss", defaultValue = "ndcg-type3", completionCandidates = LossNames.class,
            description = "${COMPLETION-CANDIDATES} (T = 1, 2 or 3; METRIC = " + Losses.METRICS
                    + "), or the gradient-free spsa:F, fdsa")
    String loss;

    @Mixin
    TrainingOptions training;

    @Option(names = "--out", defaultValue = "rankgrad-out", description = "output folder")
    Path out;

    @Mixin
    BackendOption backend;

    @Override
    public Integer call() throws Exception {
        training.validate();
        backend.apply();
        boolean gradientFree = GradientFreeOptimizer.isGradientFree(loss);
        checkLoss(gradientFree);
        if (gradientFree && (training.ensemble > 1 || training.dropout > 0 || training.inputNoise > 0
                || !training.schedule().isConstant() || !training.transform.equals("none"))) {
            throw bad(loss + " is gradient-free: --ensemble, --dropout, --input-noise, --transform and the --lr-* schedule"
                    + " apply to gradient losses only");
        }
        checkValidation(gradientFree);
        FeatureSubset subset = featureOption.subset();
        out = OutputFolder.check(spec.commandLine(), "--out", out);
        List<Path> inputs = new ArrayList<>(List.of(train));
        inputs.addAll(valid == null ? List.of() : List.of(valid));
        inputs.addAll(test == null ? List.of() : List.of(test));
        for (Path input : inputs) {
            if (Files.notExists(input)) {
                throw new NoSuchFileException(input.toString());
            }
        }
        training.applyThreads();
        ScalarKernelWarning.printIfScalar(spec.commandLine().getErr());
        try (RunLock lock = RunLock.acquire(out)) {
            return folds == null ? train(gradientFree, subset) : CrossValidation.run(this, subset);
        }
    }

    private int train(boolean gradientFree, FeatureSubset subset) throws Exception {
        PrintWriter o = spec.commandLine().getOut();
        // An ERR selection metric needs every grade at most ymax: refused while reading, with file and line.
        LetorOptions read = LetorInputOptions.withGradeLimit(LetorOptions.DEFAULT, List.of(training.selection()),
                training.ymax);
        Dataset tr = LetorReader.read(train, 0, read);
        featureOption.select(subset, tr);
        String split = null;
        Dataset va;
        if (valid != null) {
            va = LetorReader.read(valid, tr.features(), read);
        } else {
            QuerySplit.HoldOut h = QuerySplit.holdOut(tr, splitValid, training.seed);
            split = HeldOutQueries.describe(splitValid, training.seed);
            o.printf(Locale.ROOT, "held out %d of %d training queries for validation (--split-valid %s, seed %d); wrote"
                    + " their ids to %s%n", h.valid().size(), tr.size(), splitValid, training.seed,
                    HeldOutQueries.write(out, h.valid()));
            tr = h.train();
            va = h.valid();
        }
        Dataset te = test == null ? null : LetorReader.read(test, tr.features(), read);
        if (va.features() != tr.features() || te != null && te.features() != tr.features()) {
            throw new IllegalArgumentException("the validation or test file has more features than the training file ("
                    + tr.features() + ")");
        }
        if (training.ensemble > 1 && !gradientFree) {
            return trainEnsemble(subset, tr, va, te, split, o);
        }
        RankingModel m = model(subset, tr, split);
        Metric selection = training.selection();
        o.printf(Locale.ROOT, "training %s (%d parameters) with %s on %d queries; selecting on valid %s%n", m.architecture(),
                m.parameterCount(), loss, tr.size(), selection);
        if (gradientFree) {
            return gradientFree(m, tr, va, te, selection, o);
        }
        TrainingConfig config = training.fit(training.config(), tr.size());
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

    /** --ensemble K: K members into OUT/member-k, their average in OUT/model.json. */
    private int trainEnsemble(FeatureSubset subset, Dataset tr, Dataset va, Dataset te, String split, PrintWriter o)
            throws Exception {
        TrainingConfig config = training.fit(training.config(), tr.size());
        Metric selection = config.selection();
        o.printf(Locale.ROOT, "training an ensemble of %d %s models with %s on %d queries; selecting each on valid %s%n",
                training.ensemble, training.architecture(), loss, tr.size(), selection);
        Ensemble e = TrainingRun.executeEnsemble(training.ensemble, seed -> model(subset, tr, split, seed), loss, config,
                tr, va, te, out, () -> new Progress(o, System.console() != null, config.epochs(), selection.toString()),
                training.fresh, o).ensemble();
        o.printf(Locale.ROOT, "ensemble valid %s %.4f%n", selection, ((Map<?, ?>) e.info().get("validation")).get(
                selection.toString()));
        if (te != null) {
            o.printf(Locale.ROOT, "ensemble test %s %.4f%n", selection, selection.evaluate(e.scorer().score(te),
                    te.labelBatch(te.allQueries()), config.conventions()).mean());
        }
        o.printf("wrote %s (an ensemble of %d) and each member's model, metrics and curves in %s%n",
                out.resolve("model.json"), training.ensemble, out.resolve("member-k"));
        return 0;
    }

    /** {@link #model(FeatureSubset, Dataset, String, long)} with --seed. */
    RankingModel model(FeatureSubset subset, Dataset tr, String split) {
        return model(subset, tr, split, training.seed);
    }

    /**
     * A fresh model of the chosen network over the subset's columns of {@code tr} (every column
     * without one), with the chosen transform and dropout, its normalization fitted on those
     * transformed columns, its weights drawn from {@code seed}; {@code split} says how the data
     * were split (model info and run fingerprint), null for given files.
     */
    RankingModel model(FeatureSubset subset, Dataset tr, String split, long seed) {
        Dataset selected = featureOption.select(subset, tr);
        Normalization normalization = training.normalization(selected);
        RankingModel m = training.prepare(subset == null ? RankingModel.create(training.architecture(), tr.features(),
                normalization, seed) : RankingModel.create(training.architecture(), subset, normalization, seed));
        if (split != null) {
            m.info().put("data", split);
        }
        return m;
    }

    /** Exactly one source of validation data, and folds only where they can be run; before any data is read. */
    private void checkValidation(boolean gradientFree) {
        if (splitValid != null && !(splitValid > 0 && splitValid < 1)) {
            throw bad("--split-valid must be a fraction in (0, 1), got " + splitValid);
        }
        if (folds != null) {
            if (folds < 3) {
                throw bad("--folds must be >= 3 (each fold tests on one part and selects on another), got " + folds);
            }
            if (valid != null || splitValid != null || test != null) {
                throw bad("--folds takes validation and test queries from the folds; drop --valid, --split-valid and"
                        + " --test");
            }
            if (gradientFree) {
                throw bad("--folds runs gradient losses; " + loss + " is gradient-free");
            }
            if (training.ensemble > 1) {
                throw bad("--ensemble and --folds exclude each other (train an ensemble on one split)");
            }
            return;
        }
        if (valid == null && splitValid == null) {
            throw bad("give --valid FILE, --split-valid FRACTION or --folds K");
        }
        if (valid != null && splitValid != null) {
            throw bad("--valid and --split-valid exclude each other");
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    private void checkLoss(boolean gradientFree) {
        try {
            if (gradientFree) {
                GradientFreeOptimizer.parse(loss, SpsaGains.forIterations(training.lr, training.epochs), training.seed);
            } else {
                Losses.parse(loss, training.seed);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--loss: " + e.getMessage());
        }
    }

    private int gradientFree(RankingModel m, Dataset tr, Dataset va, Dataset te, Metric selection, PrintWriter o)
            throws Exception {
        GradientFreeOptimizer opt = GradientFreeOptimizer.parse(loss, SpsaGains.forIterations(training.lr, training.epochs),
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
