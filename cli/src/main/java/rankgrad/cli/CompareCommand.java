package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.autodiff.Parallel;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Folds;
import rankgrad.ltr.data.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.Trainer;
import rankgrad.ltr.train.TrainingConfig;

/**
 * {@code rankgrad compare}: the same network trained with several losses on each cross-validation
 * fold, evaluated per query on the folds' test sets, and summarized like Yu et al. Tables 4-7 by
 * {@link ComparisonTable} (test queries of all folds pooled; folds hold distinct queries).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train the same network (same seed) with each loss on each fold DIR/FoldK/{train,vali,test}.txt,"
                + " select the epoch on validation NDCG@5, and compare the losses on the pooled test queries: mean with 95%%"
                + " confidence interval, the best per column in bold, " + ComparisonTable.WORSE + " on results significantly"
                + " worse than the best (Wilcoxon signed-rank, p < 0.01).",
            "Writes OUT/compare.md, OUT/compare.csv and OUT/FoldK/<loss>/ (model.json, metrics.csv, curves.png,"
                + " checkpoint.json: a killed comparison resumes). The gradient-free spsa:F and fdsa are not supported here"
                + " (use train)."})
final class CompareCommand implements Callable<Integer> {
    private static final String SELECTION = "ndcg@5";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--losses", required = true, description = "comma-separated losses, e.g. ndcg-type3,approx-ndcg,ranknet"
            + " (any gradient loss of train --loss; not spsa:F or fdsa)")
    String losses;

    @Option(names = "--data", required = true, description = "folder holding Fold1/, Fold2/, ... (MSLR / LETOR layout)")
    Path data;

    @Option(names = "--folds", defaultValue = "1..5", description = "folds to run: 1..5, 1,3 or 2")
    String folds;

    @Option(names = "--model", defaultValue = "R4.L", description = "the network every loss trains: linear, R5, CE5, R4.L,"
            + " CE4.L, B64..B1024")
    String model;

    @Option(names = "--epochs", defaultValue = "100", description = "epochs per run")
    int epochs;

    @Option(names = "--lr", defaultValue = "0.001", description = "Adam learning rate")
    double lr;

    @Option(names = "--l2", defaultValue = "0.001", description = "L2 weight decay")
    double l2;

    @Option(names = "--batch-queries", defaultValue = "64", description = "queries per mini-batch")
    int batchQueries;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the weights, the batch order and the tie-breaks"
            + " (the same for every loss and fold)")
    long seed;

    @Option(names = "--patience", defaultValue = "20", description = "epochs without improvement before stopping (0 = never)")
    int patience;

    @Option(names = "--threads", description = "worker threads (default: all processors; results do not depend on it)")
    Integer threads;

    @Option(names = "--metrics", defaultValue = "ndcg@1,3,5,10,20,map@1,3,5,10,20",
            description = "table columns; a bare cutoff repeats the metric before it")
    String metrics;

    @Option(names = "--out", defaultValue = "compare-out", description = "output folder")
    Path out;

    @CommandLine.Mixin
    BackendOption backend;

    @Override
    public Integer call() throws Exception {
        backend.apply();
        List<String> lossNames = parseLosses();
        int[] foldNumbers = parseFolds();
        List<Metric> columns = parseMetrics();
        String architecture = parseModel();
        TrainingConfig config = parseConfig();
        if (threads != null) {
            if (threads < 1) {
                throw bad("--threads must be >= 1, got " + threads);
            }
            Parallel.setThreads(threads);
        }
        List<Folds> files = new ArrayList<>();
        for (int k : foldNumbers) {
            files.add(Folds.of(data, k));
        }
        PrintWriter o = spec.commandLine().getOut();
        List<double[][][]> perFold = new ArrayList<>();
        int testQueries = 0;
        for (int f = 0; f < files.size(); f++) {
            perFold.add(runFold(foldNumbers[f], files.get(f), lossNames, columns, architecture, config, o));
            testQueries += perFold.get(f)[0][0].length;
        }
        // Folds hold distinct queries, so pooling is concatenation, fold after fold.
        double[][][] pooled = new double[lossNames.size()][columns.size()][];
        for (int l = 0; l < lossNames.size(); l++) {
            for (int c = 0; c < columns.size(); c++) {
                int loss = l;
                int column = c;
                pooled[l][c] = perFold.stream().flatMapToDouble(v -> Arrays.stream(v[loss][column])).toArray();
            }
        }
        ComparisonTable table = ComparisonTable.of(lossNames, columns.stream().map(Metric::toString).toList(), pooled);
        String foldText = (foldNumbers.length == 1 ? "fold " : "folds ")
                + Arrays.stream(foldNumbers).mapToObj(Integer::toString).collect(Collectors.joining(", "));
        String report = String.format(Locale.ROOT, "Test queries of %s of %s (%d in all, %s with a relevant document),"
                + " model %s, %d epochs, seed %d, epoch selected on validation %s.%n%n%s%n%s%nconventions: %s%n", foldText,
                data, testQueries, table.queries(), architecture, epochs, seed, SELECTION, table.markdown(),
                ComparisonTable.legend(), MetricConventions.defaults().describe());
        AtomicWrite.writeString(out.resolve("compare.md"), report);
        AtomicWrite.writeString(out.resolve("compare.csv"), table.csv());
        o.printf("%n%s%nwrote %s, %s and one folder per fold and loss (model.json, metrics.csv, curves.png)%n", report,
                out.resolve("compare.md"), out.resolve("compare.csv"));
        return 0;
    }

    /**
     * Trains every loss on one fold (same architecture and seed, so the same initial weights) and
     * returns the test set's per-query values {@code [loss][metric][query]}.
     */
    private double[][][] runFold(int k, Folds fold, List<String> lossNames, List<Metric> columns, String architecture,
            TrainingConfig config, PrintWriter o) throws IOException {
        Dataset tr = LetorReader.read(fold.train());
        Dataset va = LetorReader.read(fold.valid(), tr.features());
        Dataset te = LetorReader.read(fold.test(), tr.features());
        if (va.features() != tr.features() || te.features() != tr.features()) {
            throw new IllegalArgumentException(fold.valid() + " or " + fold.test() + " has more features than "
                    + fold.train() + " (" + tr.features() + ")");
        }
        double[][][] values = new double[lossNames.size()][columns.size()][];
        for (int l = 0; l < lossNames.size(); l++) {
            String loss = lossNames.get(l);
            RankingModel m = RankingModel.create(architecture, tr.features(), new Normalization.QueryZScore(), seed);
            o.printf(Locale.ROOT, "%n== fold %d, %s: %s (%d parameters), %d train / %d valid / %d test queries%n", k, loss,
                    architecture, m.network().parameterCount(), tr.size(), va.size(), te.size());
            TrainingRun.Outcome outcome = TrainingRun.execute(m, loss, config, tr, va, te,
                    out.resolve("Fold" + k).resolve(folderName(loss)), new Progress(o, System.console() != null, epochs,
                            SELECTION));
            o.println(outcome.result().message());
            Dataset t = m.normalize(te);
            float[] scores = Trainer.scoreNormalized(m, t);
            QueryBatch batch = t.labelBatch(t.allQueries());
            for (int c = 0; c < columns.size(); c++) {
                values[l][c] = columns.get(c).perQuery(scores, batch, MetricConventions.defaults());
            }
        }
        return values;
    }

    /** A loss name as a folder name: characters other than letters, digits, '.', '@', '-' become '_'. */
    static String folderName(String loss) {
        return loss.replaceAll("[^A-Za-z0-9.@-]", "_");
    }

    private List<String> parseLosses() {
        List<String> names = new ArrayList<>();
        for (String token : losses.split(",")) {
            String name = token.strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (name.startsWith("spsa") || name.equals("fdsa")) {
                throw bad("--losses: " + name + " is gradient-free and not supported by compare; train it with"
                        + " 'rankgrad train --loss " + name + "'");
            }
            try {
                Losses.parse(name, seed, epochs);
            } catch (IllegalArgumentException e) {
                throw bad("--losses: " + e.getMessage());
            }
            if (names.contains(name)) {
                throw bad("--losses: " + name + " is named twice");
            }
            names.add(name);
        }
        if (names.isEmpty()) {
            throw bad("--losses: no loss in '" + losses + "'");
        }
        return names;
    }

    private int[] parseFolds() {
        try {
            return FoldRange.parse(folds);
        } catch (IllegalArgumentException e) {
            throw bad("--folds: " + e.getMessage());
        }
    }

    private List<Metric> parseMetrics() {
        try {
            return MetricList.parse(metrics);
        } catch (IllegalArgumentException e) {
            throw bad("--metrics: " + e.getMessage());
        }
    }

    private String parseModel() {
        return Architectures.names().stream().filter(n -> n.equalsIgnoreCase(model)).findFirst()
                .orElseThrow(() -> bad("--model: unknown '" + model + "'; choose one of " + Architectures.names()));
    }

    private TrainingConfig parseConfig() {
        try {
            return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, Metric.parse(SELECTION), null);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
