package rankgrad.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.autodiff.Parallel;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Fdsa;
import rankgrad.ltr.train.Gains;
import rankgrad.ltr.train.GradientFreeOptimizer;
import rankgrad.ltr.train.GradientFreeTrainer;
import rankgrad.ltr.train.Spsa;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingResult;

/** {@code rankgrad train}: trains a ranker on LETOR files and writes model, metrics and curves. */
@Command(name = "train", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Train a ranker. Writes OUT/model.json, OUT/metrics.csv, OUT/curves.png; OUT/checkpoint.json"
                + " lets a killed run resume where it stopped.")
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

    @Option(names = "--model", defaultValue = "R4.L", description = "linear, R5, CE5, R4.L, CE4.L, B64..B1024")
    String model;

    @Option(names = "--normalization", defaultValue = "query-zscore",
            description = "query-zscore (Yu), standardize (exportable to Solr), none")
    String normalization;

    @Option(names = "--epochs", defaultValue = "100", description = "epochs (iterations for spsa/fdsa)")
    int epochs;

    @Option(names = "--lr", defaultValue = "0.001", description = "Adam learning rate (step scale a for spsa/fdsa)")
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

    @Option(names = "--threads", description = "worker threads (default: all processors; results do not depend on it)")
    Integer threads;

    @Option(names = "--out", defaultValue = "rankgrad-out", description = "output folder")
    Path out;

    @CommandLine.Mixin
    BackendOption backend;

    @Override
    public Integer call() throws Exception {
        backend.apply();
        Metric selection = parseMetric();
        if (!Architectures.names().stream().anyMatch(n -> n.equalsIgnoreCase(model))) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--model: unknown '" + model + "'; choose one of "
                    + Architectures.names());
        }
        boolean gradientFree = loss.startsWith("spsa:") || loss.equals("fdsa");
        if (!gradientFree) {
            try {
                Losses.parse(loss, seed, epochs);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--loss: " + e.getMessage());
            }
        }
        if (threads != null) {
            Parallel.setThreads(threads);
        }
        PrintWriter o = spec.commandLine().getOut();
        Dataset tr = LetorReader.read(train);
        Dataset va = LetorReader.read(valid, tr.features());
        Dataset te = test == null ? null : LetorReader.read(test, tr.features());
        if (va.features() != tr.features() || te != null && te.features() != tr.features()) {
            throw new IllegalArgumentException("the validation or test file has more features than the training file ("
                    + tr.features() + ")");
        }
        Normalization norm = switch (normalization) {
            case "query-zscore" -> new Normalization.QueryZScore();
            case "standardize" -> Normalization.Standardization.fit(tr);
            case "none" -> new Normalization.None();
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--normalization: unknown '" + normalization
                    + "'; choose query-zscore, standardize or none");
        };
        RankingModel m = RankingModel.create(Architectures.names().stream().filter(n -> n.equalsIgnoreCase(model)).findFirst()
                .orElseThrow(), tr.features(), norm, seed);
        o.printf(Locale.ROOT, "training %s (%d parameters) with %s on %d queries; selecting on valid %s%n", m.architecture(),
                m.network().parameterCount(), loss, tr.size(), selection);
        if (gradientFree) {
            return gradientFree(m, tr, va, te, selection, o);
        }
        TrainingConfig config = new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, selection, null);
        Progress progress = new Progress(o, System.console() != null, epochs, selection.toString());
        TrainingResult r = TrainingRun.execute(m, loss, config, tr, va, te, out, progress).result();
        o.println(r.message());
        o.printf("wrote %s, %s, %s%n", out.resolve("model.json"), out.resolve("metrics.csv"), out.resolve("curves.png"));
        return r.stop() == TrainingResult.Stop.DIVERGED ? 1 : 0;
    }

    private int gradientFree(RankingModel m, Dataset tr, Dataset va, Dataset te, Metric selection, PrintWriter o)
            throws Exception {
        Gains gains = Gains.spall(lr, 0.05, Math.max(1, epochs / 10));
        GradientFreeOptimizer opt;
        if (loss.equals("fdsa")) {
            opt = Fdsa.of(gains);
        } else {
            int f;
            try {
                f = Integer.parseInt(loss.substring("spsa:".length()));
                opt = Spsa.of(f, gains, seed);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--loss: " + loss + ": SPSA:F needs an even F >= 2");
            }
        }
        List<GradientFreeTrainer.Point> curve = GradientFreeTrainer.of(opt, epochs, selection, Math.max(1, epochs / 20))
                .fit(m, tr, va);
        StringBuilder csv = new StringBuilder("iteration,evaluations,train_" + selection + ",valid_" + selection + "\n");
        for (GradientFreeTrainer.Point p : curve) {
            csv.append(String.format(Locale.ROOT, "%d,%d,%.6f,%.6f%n", p.iteration(), p.evaluations(), p.train(), p.validation()));
            o.printf(Locale.ROOT, "iteration %5d  evaluations %7d  train %.4f  valid %.4f%n", p.iteration(), p.evaluations(),
                    p.train(), p.validation());
        }
        if (te != null) {
            o.printf(Locale.ROOT, "test %s %.4f%n", selection, TrainingRun.evaluate(m, m.normalize(te), selection));
        }
        ModelFile.write(m, out.resolve("model.json"));
        rankgrad.ltr.io.AtomicWrite.writeString(out.resolve("metrics.csv"), csv.toString());
        o.printf("wrote %s, %s%n", out.resolve("model.json"), out.resolve("metrics.csv"));
        return 0;
    }

    private Metric parseMetric() {
        try {
            return Metric.parse(metric);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--metric: " + e.getMessage());
        }
    }
}
