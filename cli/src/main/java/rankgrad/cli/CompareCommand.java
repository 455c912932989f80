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
                + " each fold DIR/FoldK/{train,vali,test}.txt (or the single split DIR/{train,vali,test}.txt, or the files"
                + " --train, --valid, --test), select the epoch on the validation --metric, and compare the losses: the"
                + " validation --metric (the best in bold: the row to choose) beside the pooled test queries' metrics (mean"
                + " with 95%% confidence interval, never bold, " + ComparisonTable.WORSE + " on results significantly"
                + " worse than the column's best, Wilcoxon signed-rank, p < 0.01).",
            "The table has a seconds column: each row's training time (a warm-up pass per network and loss, excluded,"
                + " takes the JIT compilation; after a resume the earlier invocations' epochs count). Writes OUT/compare.md,"
                + " OUT/compare.csv and"
                + " OUT/FoldK/<loss>/ (OUT/FoldK/<network>/<loss>/ with --models) (model.json, metrics.csv, curves.png,"
                + " checkpoint.json: a killed comparison resumes, a different one is refused). Exit code 1 when a run"
                + " diverged (the table then uses its best epoch before and says so). The gradient-free spsa:F and fdsa are not supported here"
                + " (use train).",
            "One file instead of a folder: --data FILE --folds K splits its queries into K parts (shuffled with --seed)"
                + " and runs fold k as FoldK would be: test part k, validation part k+1, training the rest.",
            "Files: --train A --valid B --test C (or --split-valid FRACTION instead of --valid: the held-out query ids go"
                + " to OUT/" + HeldOutQueries.FILE + ") is one split; its runs go to OUT/<loss>/."})
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--losses", required = true, description = "comma-separated losses, e.g. ndcg-type3,approx-ndcg,ranknet"
            + " (any gradient loss of train --loss; not spsa:F or fdsa)")
    String losses;

    @Option(names = "--data", description = "folder holding Fold1/, Fold2/, ... (MSLR / LETOR layout),"
            + " or one LETOR file to split into --folds K (or give the files: --train, --valid or --split-valid, --test)")
    Path data;

    @Option(names = "--train", paramLabel = "FILE", description = "instead of --data: the training file of one split")
    Path train;

    @Option(names = "--valid", paramLabel = "FILE", description = "with --train: the validation file (epoch and row"
            + " selection)")
    Path valid;

    @Option(names = "--split-valid", paramLabel = "FRACTION", description = "with --train, instead of --valid: hold out"
            + " this fraction of the training queries for validation (by query, shuffled with --seed; their ids go to"
            + " OUT/" + HeldOutQueries.FILE + ")")
    Double splitValid;

    @Option(names = "--test", paramLabel = "FILE", description = "with --train: the test file the table reports")
    Path test;

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

    /** The warm-up passes, kept out of the seconds column. */
    private final WarmUp warmUp = new WarmUp();

    /** With --split-valid: how the validation queries were held out (each model's info), else null. */
    private String heldOut;

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
        checkSources();
        boolean oneFile = data != null && Files.isRegularFile(data);
        List<Integer> foldNumbers = new ArrayList<>();
        List<FoldSource> files = new ArrayList<>();
        LetorOptions read = readOptions(columns);
        if (train != null) {
            for (Path input : valid == null ? List.of(train, test) : List.of(train, valid, test)) {
                if (Files.notExists(input)) {
                    throw new NoSuchFileException(input.toString());
                }
            }
            foldNumbers.add(0);
            files.add(() -> readFiles(read, spec.commandLine().getOut()));
        } else if (oneFile) {
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

    /** Exactly one source of data: --data (with --folds), or --train and --test with --valid or --split-valid. */
    private void checkSources() {
        boolean files = train != null || valid != null || test != null || splitValid != null;
        if (data != null && files) {
            throw bad("give the data with --data, or the files with --train, --valid (or --split-valid) and --test, not both");
        }
        if (data == null && !files) {
            throw bad("give --data FOLDER or FILE, or --train FILE --valid FILE --test FILE");
        }
        if (data != null) {
            return;
        }
        if (train == null || test == null) {
            throw bad("--train and --test go together (with --valid FILE or --split-valid FRACTION)");
        }
        if ((valid == null) == (splitValid == null)) {
            throw bad(valid == null ? "give --valid FILE or --split-valid FRACTION with --train"
                    : "--valid and --split-valid exclude each other");
        }
        if (splitValid != null && !(splitValid > 0 && splitValid < 1)) {
            throw bad("--split-valid must be a fraction in (0, 1), got " + splitValid);
        }
        if (spec.commandLine().getParseResult().hasMatchedOption("--folds")) {
            throw bad("--folds applies to --data; --train, --valid and --test are one split");
        }
    }

    /**
     * The split of --train, --valid (or --split-valid) and --test; a held-out validation part is
     * described in each model's info (so a checkpoint of another split is refused) and its query
     * ids are written to OUT/{@value HeldOutQueries#FILE}.
     */
    private Dataset[] readFiles(LetorOptions read, PrintWriter o) throws IOException {
        Dataset tr = LetorReader.read(train, 0, read);
        Dataset va;
        if (valid != null) {
            va = LetorReader.read(valid, tr.features(), read);
        } else {
            QuerySplit.HoldOut h = QuerySplit.holdOut(tr, splitValid, training.seed);
            heldOut = HeldOutQueries.describe(splitValid, training.seed);
            o.printf(Locale.ROOT, "held out %d of %d training queries for validation (--split-valid %s, seed %d); wrote"
                    + " their ids to %s%n", h.valid().size(), tr.size(), splitValid, training.seed,
                    HeldOutQueries.write(out, h.valid()));
            tr = h.train();
            va = h.valid();
        }
        Dataset te = LetorReader.read(test, tr.features(), read);
        if (va.features() != tr.features() || te.features() != tr.features()) {
            throw new IllegalArgumentException("the validation or test file has more features than " + train + " ("
                    + tr.features() + ")");
        }
        return new Dataset[] {tr, va, te};
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
        List<Metric> validColumns = new ArrayList<>(columns);
        validColumns.add(config.selection());
        List<FoldValues> perFold = new ArrayList<>();
        int testQueries = 0;
        for (int f = 0; f < files.size(); f++) {
            String split = oneFile ? String.format(Locale.ROOT, "fold %d of %d by query, seed %d (validation: part %d)",
                    f + 1, foldNumbers.size(), config.seed(), (f + 1) % foldNumbers.size() + 1) : null;
            perFold.add(runFold(foldNumbers.get(f), files.get(f), runs, columns, validColumns, config, o, seconds, split));
            testQueries += perFold.get(f).test()[0][0].length;
        }
        String rowHeader = models == null ? "loss" : "network loss";
        List<String> columnNames = columns.stream().map(Metric::toString).toList();
        double[][][] validPooled = pool(perFold.stream().map(FoldValues::valid).toList(), runs.size(), validColumns.size());
        double[][][] validAll = new double[runs.size()][][];
        double[][][] validSelection = new double[runs.size()][][];
        for (int l = 0; l < runs.size(); l++) {
            validAll[l] = Arrays.copyOf(validPooled[l], columns.size());
            validSelection[l] = new double[][] {validPooled[l][columns.size()]};
        }
        ComparisonTable tested = ComparisonTable.of(rowHeader, rowNames, columnNames,
                pool(perFold.stream().map(FoldValues::test).toList(), runs.size(), columns.size()));
        SelectionTable table = new SelectionTable(config.selection().toString(), ComparisonTable.of(rowHeader, rowNames,
                List.of(config.selection().toString()), validSelection), ComparisonTable.of(rowHeader, rowNames, columnNames,
                validAll), tested, seconds);
        String foldText = oneFile ? foldNumbers.size() + " folds (split by query, seed " + config.seed() + ")"
                : foldNumbers.equals(List.of(0)) ? "the single split" : (foldNumbers.size() == 1 ? "fold " : "folds ")
                + foldNumbers.stream().map(Object::toString).collect(Collectors.joining(", "));
        String source = train == null ? foldText + " of " + data : test + ", training " + train + ", validation "
                + (valid != null ? valid : "--split-valid " + splitValid + " of it");
        String report = String.format(Locale.ROOT, "Test queries of %s (%d in all, %s with a relevant document),"
                + " %s %s, normalization %s, %d epochs, seed %d, epoch selected on validation %s.%n%n%s%n%s Seconds: wall"
                + " time of the row's training runs, earlier invocations of a resumed comparison included%s.%nconventions:"
                + " %s%n",
                source, testQueries, tested.queries(), networks.size() == 1 ? "model"
                : "models", String.join(", ", networks), training.normalization, config.epochs(), config.seed(),
                config.selection(), table.markdown(), table.legend(), warmUp.describe(), config.conventions().describe());
        for (String d : diverged) {
            report += "diverged (its row uses the best epoch before): " + d + System.lineSeparator();
        }
        AtomicWrite.writeString(out.resolve("compare.md"), report);
        AtomicWrite.writeString(out.resolve("compare.csv"), table.csv());
        o.printf("%n%s%nwrote %s, %s and one folder per fold and loss (model.json, metrics.csv, curves.png)%n", report,
                out.resolve("compare.md"), out.resolve("compare.csv"));
        return diverged.isEmpty() ? 0 : 1;
    }

    /** Each run's per-query values of one fold, {@code [run][metric][query]}, on its test and validation queries. */
    private record FoldValues(double[][][] test, double[][][] valid) {
    }

    /** Folds hold distinct queries (test and validation alike), so pooling is concatenation, fold after fold. */
    private static double[][][] pool(List<double[][][]> perFold, int runs, int columns) {
        double[][][] pooled = new double[runs][columns][];
        for (int l = 0; l < runs; l++) {
            for (int c = 0; c < columns; c++) {
                int run = l;
                int column = c;
                pooled[l][c] = perFold.stream().flatMapToDouble(v -> Arrays.stream(v[run][column])).toArray();
            }
        }
        return pooled;
    }

    /**
     * Trains every (network, loss) run on one fold (same seed, so each network starts from the same
     * weights for every loss), adds each run's wall time (and that of the invocations it resumes) to
     * {@code seconds}, and returns the per-query values of the test queries on {@code columns} and
     * of the validation queries on {@code validColumns}. Fold 0 is a single split in --data itself
     * or the --train, --valid, --test files.
     */
    private FoldValues runFold(int k, FoldSource fold, List<String[]> runs, List<Metric> columns, List<Metric> validColumns,
            TrainingConfig requested, PrintWriter o, double[] seconds, String foldSplit) throws IOException {
        Dataset[] data = fold.load();
        Dataset tr = data[0];
        TrainingConfig config = training.fit(requested, tr.size());
        Dataset va = data[1];
        Dataset te = data[2];
        String split = foldSplit != null ? foldSplit : heldOut;
        double[][][] values = new double[runs.size()][][];
        double[][][] validValues = new double[runs.size()][][];
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
            if (warmUp.pending(architecture, loss)) {
                warmUp.run(create, architecture, loss, config, tr, va);
            }
            long start = System.nanoTime();
            Scorer scorer;
            if (training.ensemble > 1) {
                TrainingRun.EnsembleOutcome e = TrainingRun.executeEnsemble(training.ensemble, create, loss, config, tr, va, te,
                        runOut, () -> new Progress(o, System.console() != null, config.epochs(),
                        config.selection().toString()), training.fresh, o);
                seconds[l] += (System.nanoTime() - start) / 1e9 + e.earlierSeconds();
                scorer = e.ensemble().scorer();
            } else {
                TrainingRun.Outcome outcome = TrainingRun.execute(m, loss, config, tr, va, te, runOut, new Progress(o,
                        System.console() != null, config.epochs(), config.selection().toString()), training.fresh);
                seconds[l] += (System.nanoTime() - start) / 1e9 + outcome.earlierSeconds();
                o.println(outcome.result().message());
                if (outcome.result().stop() == TrainingResult.Stop.DIVERGED) {
                    diverged.add((k == 0 ? "" : "fold " + k + ", ") + architecture + " " + loss + ": "
                            + outcome.result().message());
                }
                scorer = m.scorer();
            }
            values[l] = perQuery(scorer, te, columns, config);
            validValues[l] = perQuery(scorer, va, validColumns, config);
        }
        return new FoldValues(values, validValues);
    }

    /** The per-query values {@code [metric][query]} of {@code data} scored by {@code scorer}. */
    private static double[][] perQuery(Scorer scorer, Dataset data, List<Metric> metrics, TrainingConfig config) {
        float[] scores = scorer.score(data);
        QueryBatch batch = data.labelBatch(data.allQueries());
        double[][] values = new double[metrics.size()][];
        for (int c = 0; c < metrics.size(); c++) {
            values[c] = metrics.get(c).perQuery(scores, batch, config.conventions());
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
