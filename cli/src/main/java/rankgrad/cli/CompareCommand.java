package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongFunction;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.Folds;
import rankgrad.ltr.letor.LetorOptions;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.QuerySplit;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.loss.Losses;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.model.Scorer;
import rankgrad.ltr.train.RunLock;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingResult;

/**
 * {@code rankgrad compare}: the same network trained with several losses on each cross-validation
 * fold, evaluated per query on the folds' test sets, and summarized like Yu et al. Tables 4-7 by
 * {@link ComparisonTable} (test queries of all folds pooled; folds hold distinct queries).
 */
@Command(name = "compare", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train the same network (same seed) with each loss (with --models: each network with each loss) on"
                + " each fold DIR/FoldK/{train,vali,test}.txt (or the single split DIR/{train,vali,test}.txt),"
                + " select the epoch on the validation --metric, and compare the losses on the pooled test queries: mean with 95%%"
                + " confidence interval, the best per column in bold, " + ComparisonTable.WORSE + " on results significantly"
                + " worse than the best (Wilcoxon signed-rank, p < 0.01).",
            "The table has a seconds column: each row's training time. Writes OUT/compare.md, OUT/compare.csv and"
                + " OUT/FoldK/<loss>/ (OUT/FoldK/<network>/<loss>/ with --models) (model.json, metrics.csv, curves.png,"
                + " checkpoint.json: a killed comparison resumes, a different one is refused). Exit code 1 when a run"
                + " diverged (the table then uses its best epoch before and says so). The gradient-free spsa:F and fdsa are not supported here"
                + " (use train).",
            "One file instead of a folder: --data FILE --folds K splits its queries into K parts (shuffled with --seed)"
                + " and runs fold k as FoldK would be: test part k, validation part k+1, training the rest."})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--losses", required = true, description = "comma-separated losses, e.g. ndcg-type3,approx-ndcg,ranknet"
            + " (any gradient loss of train --loss; not spsa:F or fdsa)")
    String losses;

    @Option(names = "--data", required = true, description = "folder holding Fold1/, Fold2/, ... (MSLR / LETOR layout),"
            + " or one LETOR file to split into --folds K")
    Path data;

    @Option(names = "--folds", defaultValue = "1..5", description = "with a folder: the folds to run (1..5, 1,3 or 2; without it every FoldK/ folder present, or the folder itself when it holds train.txt, vali.txt and test.txt);"
            + " with one file: the number K >= 3 of folds to split it into (1..5 then means 5)")
    String folds;

    @Option(names = "--models", paramLabel = "NETS", description = "several networks, comma-separated (e.g."
            + " linear,R4.L): the rows become network x loss (instead of --model's one network)")
    String models;

    @Mixin
    FeatureOption featureOption;

    @Mixin
    TrainingOptions training;

    @Option(names = "--metrics", defaultValue = "ndcg@1,3,5,10,20,map@1,3,5,10,20",
            description = "table columns; a bare cutoff repeats the metric before it")
    String metrics;

    @Option(names = "--out", defaultValue = "compare-out", description = "output folder")
    Path out;

    /** The --features subset, or null for every feature. */
    private FeatureSubset subset;

    /** The runs that diverged: their rows use the best epoch before the divergence, and the command exits with 1. */
    private final List<String> diverged = new ArrayList<>();

    @Mixin
    BackendOption backend;

    @Override
    public Integer call() throws Exception {
        training.validate();
        backend.apply();
        List<String> lossNames = parseLosses();
        List<String> networks = parseModels();
        List<Metric> columns = parseMetrics();
        out = OutputFolder.check(spec.commandLine(), "--out", out);
        subset = featureOption.subset();
        boolean oneFile = Files.isRegularFile(data);
        List<Integer> foldNumbers = new ArrayList<>();
        List<FoldSource> files = new ArrayList<>();
        LetorOptions read = readOptions(columns);
        if (oneFile) {
            for (int k : foldsOfOneFile()) {
                foldNumbers.add(k);
            }
        } else if (spec.commandLine().getParseResult().hasMatchedOption("--folds")) {
            for (int k : parseFolds()) {
                foldNumbers.add(k);
                Folds f = Folds.of(data, k);
                files.add(() -> read(f, read));
            }
        } else if (Folds.isPlain(data)) {
            foldNumbers.add(0);
            Folds f = Folds.plain(data);
            files.add(() -> read(f, read));
        } else {
            for (int k = 1; Files.isDirectory(data.resolve("Fold" + k)); k++) {
                foldNumbers.add(k);
                Folds f = Folds.of(data, k);
                files.add(() -> read(f, read));
            }
            if (files.isEmpty()) {
                throw new NoSuchFileException(data.toString(), null, "neither Fold1/ nor train.txt, vali.txt and test.txt"
                        + " in the --data folder");
            }
        }
        training.applyThreads();
        ScalarKernelWarning.printIfScalar(spec.commandLine().getErr());
        try (RunLock lock = RunLock.acquire(out)) {
            if (oneFile) {
                Dataset all = LetorReader.read(data, 0, read);
                featureOption.select(subset, all);
                List<Dataset> parts = QuerySplit.parts(all, foldNumbers.size(), training.seed);
                for (int i = 0; i < foldNumbers.size(); i++) {
                    QuerySplit.Fold fold = QuerySplit.fold(parts, i);
                    files.add(() -> new Dataset[] {fold.train(), fold.valid(), fold.test()});
                }
            }
            return compare(networks, lossNames, foldNumbers, files, columns, oneFile);
        }
    }

    /** A fold's training, validation and test data, read when its turn comes. */
    private interface FoldSource {
        Dataset[] load() throws IOException;
    }

    /** Reading options: an ERR column or selection metric needs every grade at most ymax, checked while reading. */
    private LetorOptions readOptions(List<Metric> columns) {
        List<Metric> needed = new ArrayList<>(columns);
        needed.add(training.selection());
        return LetorInputOptions.withGradeLimit(LetorOptions.DEFAULT, needed, training.ymax);
    }

    private static Dataset[] read(Folds fold, LetorOptions read) throws IOException {
        Dataset tr = LetorReader.read(fold.train(), 0, read);
        Dataset va = LetorReader.read(fold.valid(), tr.features(), read);
        Dataset te = LetorReader.read(fold.test(), tr.features(), read);
        if (va.features() != tr.features() || te.features() != tr.features()) {
            throw new IllegalArgumentException(fold.valid() + " or " + fold.test() + " has more features than "
                    + fold.train() + " (" + tr.features() + ")");
        }
        return new Dataset[] {tr, va, te};
    }

    /** The networks of the rows: --models, or --model's one network. */
    private List<String> parseModels() {
        if (models == null) {
            return List.of(training.architecture());
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--model")) {
            throw bad("give the network with --model or the networks with --models, not both");
        }
        List<String> out = new ArrayList<>();
        for (String token : models.split(",")) {
            if (token.isBlank()) {
                continue;
            }
            String name;
            try {
                name = Architectures.canonical(token.strip());
            } catch (IllegalArgumentException e) {
                throw bad("--models: " + e.getMessage());
            }
            if (out.contains(name)) {
                throw bad("--models: " + name + " is named twice");
            }
            out.add(name);
        }
        if (out.isEmpty()) {
            throw bad("--models: no network in '" + models + "'");
        }
        return out;
    }

    private int compare(List<String> networks, List<String> lossNames, List<Integer> foldNumbers, List<FoldSource> files,
            List<Metric> columns, boolean oneFile) throws IOException {
        TrainingConfig config = training.config();
        PrintWriter o = spec.commandLine().getOut();
        List<String[]> runs = new ArrayList<>();
        List<String> rowNames = new ArrayList<>();
        for (String network : networks) {
            for (String loss : lossNames) {
                runs.add(new String[] {network, loss});
                rowNames.add(models == null ? loss : network + " " + loss);
            }
        }
        double[] seconds = new double[runs.size()];
        List<double[][][]> perFold = new ArrayList<>();
        int testQueries = 0;
        for (int f = 0; f < files.size(); f++) {
            String split = oneFile ? String.format(Locale.ROOT, "fold %d of %d by query, seed %d (validation: part %d)",
                    f + 1, foldNumbers.size(), config.seed(), (f + 1) % foldNumbers.size() + 1) : null;
            perFold.add(runFold(foldNumbers.get(f), files.get(f), runs, columns, config, o, seconds, split));
            testQueries += perFold.get(f)[0][0].length;
        }
        // Folds hold distinct queries, so pooling is concatenation, fold after fold.
        double[][][] pooled = new double[runs.size()][columns.size()][];
        for (int l = 0; l < runs.size(); l++) {
            for (int c = 0; c < columns.size(); c++) {
                int loss = l;
                int column = c;
                pooled[l][c] = perFold.stream().flatMapToDouble(v -> Arrays.stream(v[loss][column])).toArray();
            }
        }
        ComparisonTable table = ComparisonTable.of(models == null ? "loss" : "network loss", rowNames,
                columns.stream().map(Metric::toString).toList(), pooled).withSeconds(seconds);
        String foldText = oneFile ? foldNumbers.size() + " folds (split by query, seed " + config.seed() + ")"
                : foldNumbers.equals(List.of(0)) ? "the single split" : (foldNumbers.size() == 1 ? "fold " : "folds ")
                + foldNumbers.stream().map(Object::toString).collect(Collectors.joining(", "));
        String report = String.format(Locale.ROOT, "Test queries of %s of %s (%d in all, %s with a relevant document),"
                + " %s %s, normalization %s, %d epochs, seed %d, epoch selected on validation %s.%n%n%s%n%s Seconds: wall"
                + " time of the row's training runs in this invocation (resumed epochs not counted).%nconventions: %s%n",
                foldText, data, testQueries, table.queries(), networks.size() == 1 ? "model" : "models",
                String.join(", ", networks), training.normalization, config.epochs(), config.seed(), config.selection(),
                table.markdown(), ComparisonTable.legend(), config.conventions().describe());
        for (String d : diverged) {
            report += "diverged (its row uses the best epoch before): " + d + System.lineSeparator();
        }
        AtomicWrite.writeString(out.resolve("compare.md"), report);
        AtomicWrite.writeString(out.resolve("compare.csv"), table.csv());
        o.printf("%n%s%nwrote %s, %s and one folder per fold and loss (model.json, metrics.csv, curves.png)%n", report,
                out.resolve("compare.md"), out.resolve("compare.csv"));
        return diverged.isEmpty() ? 0 : 1;
    }

    /**
     * Trains every (network, loss) run on one fold (same seed, so each network starts from the same
     * weights for every loss), adds each run's wall time to {@code seconds}, and returns the test
     * set's per-query values {@code [run][metric][query]}. Fold 0 is a single split in --data itself.
     */
    private double[][][] runFold(int k, FoldSource fold, List<String[]> runs, List<Metric> columns, TrainingConfig requested,
            PrintWriter o, double[] seconds, String split) throws IOException {
        Dataset[] data = fold.load();
        Dataset tr = data[0];
        TrainingConfig config = training.fit(requested, tr.size());
        Dataset va = data[1];
        Dataset te = data[2];
        double[][][] values = new double[runs.size()][columns.size()][];
        Normalization normalization = training.normalization(featureOption.select(subset, tr));
        Path foldOut = k == 0 ? out : OutputFolder.subfolder(out, "Fold" + k);
        for (int l = 0; l < runs.size(); l++) {
            String architecture = runs.get(l)[0];
            String loss = runs.get(l)[1];
            LongFunction<RankingModel> create = seed -> {
                RankingModel made = training.prepare(subset == null ? RankingModel.create(architecture, tr.features(),
                        normalization, seed) : RankingModel.create(architecture, subset, normalization, seed));
                if (split != null) {
                    made.info().put("data", split);
                }
                return made;
            };
            RankingModel m = create.apply(config.seed());
            o.printf(Locale.ROOT, "%n== %s, %s: %s (%d parameters), %d train / %d valid / %d test queries%n",
                    k == 0 ? "single split" : "fold " + k, loss, architecture, m.parameterCount(), tr.size(),
                    va.size(), te.size());
            Path runOut = models == null ? foldOut.resolve(folderName(loss))
                    : foldOut.resolve(folderName(architecture)).resolve(folderName(loss));
            long start = System.nanoTime();
            if (training.ensemble > 1) {
                Scorer ensemble = TrainingRun.executeEnsemble(training.ensemble, create, loss, config, tr, va, te, runOut,
                        () -> new Progress(o, System.console() != null, config.epochs(), config.selection().toString()),
                        training.fresh, o).scorer();
                seconds[l] += (System.nanoTime() - start) / 1e9;
                float[] scores = ensemble.score(te);
                QueryBatch batch = te.labelBatch(te.allQueries());
                for (int c = 0; c < columns.size(); c++) {
                    values[l][c] = columns.get(c).perQuery(scores, batch, config.conventions());
                }
                continue;
            }
            TrainingRun.Outcome outcome = TrainingRun.execute(m, loss, config, tr, va, te, runOut, new Progress(o,
                    System.console() != null, config.epochs(), config.selection().toString()), training.fresh);
            seconds[l] += (System.nanoTime() - start) / 1e9;
            o.println(outcome.result().message());
            if (outcome.result().stop() == TrainingResult.Stop.DIVERGED) {
                diverged.add((k == 0 ? "" : "fold " + k + ", ") + architecture + " " + loss + ": "
                        + outcome.result().message());
            }
            float[] scores = m.scorer().score(te);
            QueryBatch batch = te.labelBatch(te.allQueries());
            for (int c = 0; c < columns.size(); c++) {
                values[l][c] = columns.get(c).perQuery(scores, batch, config.conventions());
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
                Losses.parse(name, training.seed);
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

    /** With one file, --folds is the number of parts: a single K >= 3 (the default 1..5 reads as 5). */
    private int[] foldsOfOneFile() {
        String t = folds.strip();
        int k;
        if (t.equals("1..5")) {
            k = 5;
        } else if (t.matches("[0-9]{1,4}")) {
            k = Integer.parseInt(t);
        } else {
            throw bad("--folds: with one --data file, give the number of folds K (e.g. 5), not '" + folds + "'");
        }
        if (k < 3) {
            throw bad("--folds must be >= 3 with one --data file (each fold tests on one part and selects on another), got "
                    + k);
        }
        int[] numbers = new int[k];
        Arrays.setAll(numbers, i -> i + 1);
        return numbers;
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

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
