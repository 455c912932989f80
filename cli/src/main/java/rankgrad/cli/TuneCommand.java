package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.io.Json;
import rankgrad.ltr.letor.LetorReader;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.train.RunFingerprint;

/**
 * {@code rankgrad tune}: chooses a recipe (network, loss, normalization, transform, learning
 * rate, input noise, dropout, batch size, ensemble) on validation only, by successive halving
 * (Jamieson and Talwalkar 2016, Algorithm 1; the building block of Hyperband, Li et al. 2018) with
 * halving rate eta = 3 under a budget counted in training document passes ({@link TuneBudget}).
 *
 * <p>Rung 0 trains {@code --candidates} recipes (the README's fixed recipes first, then recipes
 * drawn with {@code --seed}) for e0 epochs each; every rung keeps the best third on validation and
 * trains it for 3 times as many epochs, down to one recipe, which the last rung trains as an
 * ensemble of 3 seeds (the seed spread of the leaderboard and the ensemble's own validation
 * score), written as its ensemble or as its first seed's model, whichever validates better. With
 * folds the rungs stop at 3 recipes, chosen by cross-validation, and the winner is trained again on
 * the whole file. e0 is the largest whole number of epochs that keeps the total within the budget;
 * with {@code --budget TIME} the budget is converted at a rate measured while tuning and each later
 * rung gets the epochs that fit in the time left ({@link TuneClock}); the plan that ran is kept and
 * replayed by the same command ({@link TunePlans}), so that two runs choose the same winner. Every
 * trial is a {@code rankgrad train} run in this JVM with the recipe's options, so the printed
 * command reproduces the winner; the test file, when given, is scored only after the choice and
 * never used for it.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Choose a recipe on validation by successive halving under a budget; write the best model, a"
            + " leaderboard and the train command that reproduces it.",
            "The budget counts training document passes, so the same seed and budget choose the same winner on any"
                + " machine with --budget-passes; --budget converts a time at a rate measured while tuning (a short"
                + " run of the first recipe, then every rung), giving each later rung the epochs that fit in the"
                + " time left, and keeps the plan it ran: the same command again replays it, --plan replays it"
                + " anywhere."})
final class TuneCommand implements Callable<Integer> {
    /** Halving rate (Jamieson and Talwalkar's eta). */
    static final int ETA = 3;
    /** Seeds of each last-rung recipe (its ensemble). */
    static final int SEEDS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--train", description = "training LETOR file (with --valid)")
    Path train;

    @Option(names = "--valid", description = "validation LETOR file: the only data the choice sees")
    Path valid;

    @Option(names = "--data", description = "instead of --train and --valid, for small sets: one LETOR file, every"
            + " trial a --folds K cross-validation on it, chosen on its held-out parts")
    Path data;

    @Option(names = "--folds", paramLabel = "K", description = "with --data: the number K >= 3 of folds")
    Integer folds;

    @Option(names = "--test", description = "test LETOR file, scored after the choice (never used for it)")
    Path test;

    @Option(names = "--budget", defaultValue = "5m", description = "time budget, converted to document passes at the"
            + " rate measured on this machine and data: 90s, 5m, 1h")
    String budget;

    @Option(names = "--budget-passes", paramLabel = "N", description = "exact budget in training document passes"
            + " (instead of --budget)")
    Long budgetPasses;

    @Option(names = "--plan", paramLabel = "R:E0,E1,...", description = "exact plan instead of a budget: R recipes,"
            + " rung r trained for Er epochs (as printed by a --budget run), e.g. 9:5,15,45")
    String plan;

    @Option(names = "--recalibrate", description = "with --budget: measure this machine's rate again instead of"
            + " replaying the plan kept from the same command's last run")
    boolean recalibrate;

    @Option(names = "--candidates", defaultValue = "9", description = "recipes in the first rung (>= 3)")
    int candidates;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the recipes drawn and of every trial")
    long seed;

    @Option(names = "--metric", defaultValue = "ndcg@5", description = "validation metric of the choice")
    String metric;

    @Option(names = "--out", defaultValue = "rankgrad-tune", description = "output folder")
    Path out;

    /** One trained recipe of one rung. */
    record Trial(int rung, TuneRecipe recipe, int epochs, int seeds, double[] validation, double ensembleValidation,
            Path folder, String error) {
        double mean() {
            if (validation.length == 0) {
                return Double.NEGATIVE_INFINITY;
            }
            double s = 0;
            for (double v : validation) {
                s += v;
            }
            return s / validation.length;
        }
    }

    @Override
    public Integer call() throws Exception {
        if (candidates < ETA) {
            throw bad("--candidates must be >= " + ETA + ", got " + candidates);
        }
        Metric selection;
        try {
            selection = Metric.parse(metric);
        } catch (IllegalArgumentException e) {
            throw bad("--metric: " + e.getMessage());
        }
        checkSources();
        TuneClock clock;
        try {
            clock = budgetPasses != null ? null : new TuneClock(TuneBudget.seconds(budget));
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (budgetPasses != null && budgetPasses < 1) {
            throw bad("--budget-passes must be >= 1, got " + budgetPasses);
        }
        TunePlan given;
        try {
            given = plan == null ? null : TunePlan.parse(plan);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (given != null && budgetPasses != null) {
            throw bad("give --plan or --budget-passes, not both");
        }
        if (given != null) {
            clock = null;
        }
        out = OutputFolder.check(spec.commandLine(), "--out", out);
        PrintWriter o = spec.commandLine().getOut();
        Dataset tr = LetorReader.read(data != null ? data : train);
        List<String> key = clock == null ? null : planKey(tr);
        TunePlans plans = TunePlans.standard();
        if (key != null && !recalibrate) {
            given = plans.read(key).orElse(null);
            if (given != null) {
                o.printf(Locale.ROOT, "tune: budget %s: replaying plan %s, kept from this command's last run on this"
                        + " machine and data (%s; --recalibrate measures again)%n", budget, given.text(), plans.file(key));
            }
        }
        List<Integer> sizes = rungs(given != null ? given.recipes() : candidates);
        if (given != null && given.epochs().size() != sizes.size()) {
            throw bad("--plan " + given.text() + " names " + given.epochs().size() + " rung(s); " + given.recipes()
                    + " recipes make " + sizes.size() + " here: " + sizes);
        }
        List<TuneRecipe> alive = TuneRecipe.candidates(sizes.get(0), new Random(seed));
        long trained = 0;
        TuneBudget b;
        if (given != null) {
            b = null;
        } else if (clock == null) {
            b = new TuneBudget(budgetPasses);
        } else {
            int probe = TuneClock.probeEpochs(clock.budgetSeconds(), tr.documents());
            Path folder = out.resolve("trials").resolve("rate");
            double before = clock.elapsed();
            String failed = train(folder, alive.get(0), probe, 1, List.of("--patience", "0"));
            if (failed != null) {
                throw new IllegalStateException("the measuring run of " + alive.get(0).label() + " failed: " + failed);
            }
            long epochPasses = folds == null ? tr.documents() : tr.documents() * (folds - 2) / folds;
            trained += epochsRun(folder) * epochPasses;
            List<Map<Integer, Double>> times = new ArrayList<>();
            for (Path f : runFiles(folder, "timings.csv")) {
                times.add(EpochTimes.read(f));
            }
            TuneClock.Rate rate = TuneClock.Rate.measure(clock.elapsed() - before, times, epochPasses);
            // Fewer recipes when the time left cannot give each one epoch of rung 0 (at least eta of them): a trial
            // never runs less than an epoch, so 9 recipes on the demo's data under load would run twice the budget.
            int fitting = candidates;
            while (fitting > ETA && rate.passesIn(clock.left(), trials(rungs(fitting)))
                    < passesPerEpoch(rungs(fitting), tr.documents())) {
                fitting--;
            }
            if (fitting < candidates) {
                o.printf(Locale.ROOT, "tune: the time left gives one epoch to %d recipes, not %d: tuning %d%n", fitting,
                        candidates, fitting);
                sizes = rungs(fitting);
                alive = alive.subList(0, fitting);
            }
            b = new TuneBudget(rate.passesIn(clock.left(), trials(sizes)));
            o.printf(Locale.ROOT, "tune: budget %s: %d epochs of the first recipe took %.1f s: %.0f document passes per"
                    + " second in its fastest epoch after the first, %.1f s per run besides its epochs; %d passes left"
                    + " for %d runs%n",
                    budget, probe, clock.elapsed() - before, rate.passesPerSecond(), rate.trialSeconds(), b.passes(),
                    trials(sizes));
        }
        int e0 = given != null ? given.epochs().get(0) : b.firstRungEpochs(1, passesPerEpoch(sizes, tr.documents()));
        o.printf(Locale.ROOT, "tune: %d training queries (%d documents); %s; successive halving"
                + " (eta %d) over %d recipes: rungs of %s recipes, %d epoch(s) in rung 0, the last rung as ensembles of %d"
                + " seeds; selecting on valid %s%s%n", tr.size(), tr.documents(), given != null ? "plan " + given.text()
                : "budget " + b.passes() + " document passes", ETA, sizes.get(0), sizes, e0,
                seeds(), selection, folds == null ? "" : " over the held-out parts of " + folds + " folds");
        List<Trial> all = new ArrayList<>();
        int epochs = e0;
        List<Integer> ran = new ArrayList<>();
        List<Trial> rung = List.of();
        for (int r = 0; r < sizes.size(); r++) {
            boolean last = r == sizes.size() - 1;
            ran.add(epochs);
            double rungStart = clock == null ? 0 : clock.elapsed();
            long trainedBefore = trained;
            rung = new ArrayList<>();
            for (int i = 0; i < alive.size(); i++) {
                Trial t = trial(r, i, alive.get(i), epochs, last ? seeds() : 1, selection);
                trained += epochsRun(t.folder()) * (folds == null ? tr.documents() : tr.documents() * (folds - 2) / folds);
                o.printf(Locale.ROOT, "rung %d, %d epochs: %-70s valid %s%n", r, epochs, t.recipe().label(),
                        t.error() != null ? "failed: " + t.error() : fmt(t.mean()));
                o.flush();
                rung.add(t);
            }
            all.addAll(rung);
            if (!last) {
                List<Trial> ranked = new ArrayList<>(rung);
                ranked.sort(Comparator.comparingDouble(Trial::mean).reversed());
                alive = ranked.subList(0, sizes.get(r + 1)).stream().map(Trial::recipe).toList();
                epochs = given != null ? given.epochs().get(r + 1) : epochs * ETA;
                if (clock != null && given == null) {
                    // The rung just run, warm and with its trials' fixed costs, gives the rate for the rest: the next
                    // rungs get the most epochs that fit in the time left, more than eta times as many when the
                    // measuring run (still warming up) was pessimistic, fewer when the machine slowed down.
                    double rate = (trained - trainedBefore) / (clock.elapsed() - rungStart);
                    int fit = TuneClock.nextRungEpochs(1, passesPerEpoch(sizes.subList(r + 1, sizes.size()),
                            tr.documents()), rate, clock.left());
                    if (fit != epochs) {
                        o.printf(Locale.ROOT, "tune: %.0f s left at %.0f document passes per second: rung %d gets %d epochs"
                                + " instead of %d%n", clock.left(), rate, r + 1, fit, epochs);
                        epochs = fit;
                    }
                }
            }
        }
        TunePlan executed = new TunePlan(sizes.get(0), ran);
        if (key != null && given == null && !plans.write(key, executed)) {
            o.printf(Locale.ROOT, "tune: could not keep the plan in %s; the same command will measure again%n",
                    plans.file(key));
        }
        o.printf(Locale.ROOT, "tune: plan %s (--plan %s trains it again on any machine)%n", executed.text(),
                executed.text());
        Trial winner = rung.stream().max(Comparator.comparingDouble(Trial::mean)).orElseThrow();
        if (winner.error() != null) {
            throw new IllegalStateException("every recipe of the last rung failed; the first: " + winner.error());
        }
        boolean ensemble = folds != null || winner.ensembleValidation() >= winner.validation()[0];
        Path chosen = ensemble ? winner.folder().resolve("model.json") : winner.folder().resolve("member-1/model.json");
        if (folds != null) {
            // The folds' models each saw K - 2 parts: the model written is the winner trained again on the whole file,
            // its epoch chosen on 1/K of it held out, as an ensemble of SEEDS seeds.
            chosen = out.resolve("trials").resolve("final");
            String failed = train(chosen, winner.recipe(), winner.epochs(), SEEDS, finalSplit());
            if (failed != null) {
                throw new IllegalStateException("the winner's final training failed: " + failed);
            }
            chosen = chosen.resolve("model.json");
        }
        Files.createDirectories(out);
        AtomicWrite.writeString(out.resolve("model.json"), Files.readString(chosen));
        String command = command(winner, ensemble);
        String board = TuneLeaderboard.markdown(all, selection, test == null ? null : testScores(rung, winner, selection));
        AtomicWrite.writeString(out.resolve("leaderboard.md"), board);
        AtomicWrite.writeString(out.resolve("command.txt"), command + "\n");
        o.printf(Locale.ROOT, "%n%s%nwinner: %s, %s (valid %s %s; mean over %d %s %s)%nreproduce: %s%nwrote %s, %s,"
                + " %s%n", board, winner.recipe().label(), ensemble ? "ensemble of " + SEEDS : "single model", selection,
                fmt(folds != null ? winner.mean() : ensemble ? winner.ensembleValidation() : winner.validation()[0]),
                winner.validation().length, folds == null ? "seeds" : "folds", fmt(winner.mean()), command,
                out.resolve("model.json"), out.resolve("leaderboard.md"), out.resolve("command.txt"));
        if (clock != null) {
            o.printf(Locale.ROOT, "tune took %.0f s of a %.0f s budget%n", clock.elapsed(), clock.budgetSeconds());
        }
        return 0;
    }

    /**
     * What a time budget's plan depends on besides the machine's load ({@link TunePlans}): versions and
     * processors, the budget and search options, the training data's content and the validation file.
     */
    private List<String> planKey(Dataset tr) {
        List<String> key = new ArrayList<>(TunePlans.machine());
        key.addAll(List.of("budget " + TuneBudget.seconds(budget), "candidates " + candidates, "seed " + seed,
                "metric " + metric, "folds " + folds, "train " + RunFingerprint.describe(tr)));
        if (valid != null) {
            key.add("valid " + TunePlans.fileIdentity(valid));
        }
        return key;
    }

    /**
     * Recipes per rung: n, ceil(n / eta), ... down to {@code last} or fewer: 1 with a validation file
     * (the last rung trains the winner as an ensemble), eta with folds (the last rung chooses by
     * cross-validation, then the winner is trained on the whole file).
     */
    static List<Integer> rungSizes(int n, int last) {
        List<Integer> sizes = new ArrayList<>(List.of(n));
        while (sizes.get(sizes.size() - 1) > last) {
            sizes.add((sizes.get(sizes.size() - 1) + ETA - 1) / ETA);
        }
        return sizes;
    }

    /** This run's rungs for {@code n} recipes ({@link #rungSizes}). */
    private List<Integer> rungs(int n) {
        return rungSizes(n, folds == null ? 1 : ETA);
    }

    /**
     * Document passes of the rungs of {@code sizes} per epoch of the first of them: {@link #costUnits}
     * epochs over the training documents, or with K folds over K - 2 parts of the file in each of K
     * folds, plus the final training of the winner on (K - 1) / K of it as an ensemble.
     */
    private long passesPerEpoch(List<Integer> sizes, long documents) {
        if (folds == null) {
            return costUnits(sizes, SEEDS) * documents;
        }
        long lastFactor = 1;
        for (int r = 1; r < sizes.size(); r++) {
            lastFactor *= ETA;
        }
        return costUnits(sizes, 1) * documents * (folds - 2) + SEEDS * lastFactor * documents * (folds - 1) / folds;
    }

    /** Seeds of each last-rung trial: with folds, one (the folds give the spread). */
    private int seeds() {
        return folds == null ? SEEDS : 1;
    }

    /** Exactly one source: --train with --valid, or --data with --folds K >= 3. */
    private void checkSources() {
        if (data == null && folds == null && train != null && valid != null) {
            return;
        }
        if (data != null && train == null && valid == null) {
            if (folds == null || folds < 3) {
                throw bad("--data needs --folds K with K >= 3 (each fold selects on one part and holds out another), got "
                        + (folds == null ? "none" : folds));
            }
            return;
        }
        throw bad("give --train FILE --valid FILE, or --data FILE --folds K (not both)");
    }

    /** The options of the winner's final training on the whole --data file: 1/K of its queries held out. */
    private List<String> finalSplit() {
        return List.of("--split-valid", String.format(Locale.ROOT, "%.6g", 1.0 / folds));
    }

    /** The budget's cost in rung-0 epochs of one recipe: sum over rungs of recipes x eta^rung x seeds (the last rung's). */
    static long costUnits(List<Integer> sizes, int seeds) {
        long cost = 0;
        long factor = 1;
        for (int r = 0; r < sizes.size(); r++) {
            cost += sizes.get(r) * factor * (r == sizes.size() - 1 ? seeds : 1);
            factor *= ETA;
        }
        return cost;
    }

    private Trial trial(int rung, int index, TuneRecipe recipe, int epochs, int seeds, Metric selection)
            throws IOException {
        Path folder = out.resolve("trials").resolve(String.format(Locale.ROOT, "rung%d-%02d", rung, index));
        String failed = train(folder, recipe, epochs, seeds, List.of());
        if (failed != null) {
            return new Trial(rung, recipe, epochs, seeds, new double[0], Double.NEGATIVE_INFINITY, folder, failed);
        }
        if (folds != null) {
            double[] perFold = CvSummary.perFold(folder.resolve("cv.csv"), folds);
            return new Trial(rung, recipe, epochs, 1, perFold, Double.NEGATIVE_INFINITY, folder, null);
        }
        Map<?, ?> info = (Map<?, ?>) ((Map<?, ?>) Json.parse(Files.readString(folder.resolve("model.json")))).get("info");
        double own = number(((Map<?, ?>) info.get("validation")).get(selection.toString()));
        if (seeds == 1) {
            return new Trial(rung, recipe, epochs, 1, new double[] {own}, own, folder, null);
        }
        double[] members = ((List<?>) info.get("members")).stream().mapToDouble(m -> number(((Map<?, ?>) m).get("validation")))
                .toArray();
        return new Trial(rung, recipe, epochs, seeds, members, own, folder, null);
    }

    /** One {@code train} run of {@code recipe} into {@code folder}; its last error line, or null when it succeeded. */
    private String train(Path folder, TuneRecipe recipe, int epochs, int seeds, List<String> extra) {
        List<String> args = new ArrayList<>(List.of("train"));
        args.addAll(extra.contains("--split-valid") ? List.of("--train", data.toString())
                : folds != null ? List.of("--train", data.toString(), "--folds", Integer.toString(folds))
                : List.of("--train", train.toString(), "--valid", valid.toString()));
        args.addAll(List.of("--out", folder.toString(), "--fresh", "--epochs", Integer.toString(epochs), "--seed", Long.toString(seed),
                "--metric", metric));
        args.addAll(recipe.options());
        if (seeds > 1) {
            args.addAll(List.of("--ensemble", Integer.toString(seeds)));
        }
        args.addAll(extra);
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(new StringWriter()), new PrintWriter(err));
        return code == 0 ? null : err.toString().strip().lines().reduce((a, c) -> c).orElse("exit " + code);
    }

    /**
     * Epochs a trial actually ran (early stopping ends it before its planned epochs), summed over
     * an ensemble's members or cross-validation's folds: the data rows of its metrics.csv files (0 when a failed run wrote none).
     */
    static long epochsRun(Path folder) throws IOException {
        long epochs = 0;
        for (Path f : runFiles(folder, "metrics.csv")) {
            if (Files.isRegularFile(f)) {
                try (var lines = Files.lines(f)) {
                    epochs += Math.max(0, lines.count() - 1);
                }
            }
        }
        return epochs;
    }

    /** {@code name} in each of a trial's runs: its ensemble members' or folds' folders, or the trial's own. */
    static List<Path> runFiles(Path folder, String name) {
        List<Path> files = new ArrayList<>();
        for (String part : List.of("member-", "Fold")) {
            for (int k = 1; Files.isDirectory(folder.resolve(part + k)); k++) {
                files.add(folder.resolve(part + k).resolve(name));
            }
        }
        if (files.isEmpty()) {
            files.add(folder.resolve(name));
        }
        return files;
    }

    /** Trials of the rungs of {@code sizes} (an ensemble counting once per seed, a final --data training as 3). */
    private long trials(List<Integer> sizes) {
        long n = folds == null ? 0 : SEEDS;
        for (int r = 0; r < sizes.size(); r++) {
            n += (long) sizes.get(r) * (r == sizes.size() - 1 ? seeds() : 1) * (folds == null ? 1 : folds);
        }
        return n;
    }

    private static double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /**
     * Test score of each last-rung trial's chosen-form model (its ensemble), after the choice; with
     * folds only the winner's final model has one (the others: NaN).
     */
    private double[] testScores(List<Trial> rung, Trial winner, Metric selection) throws IOException {
        Dataset te = LetorReader.read(test);
        double[] s = new double[rung.size()];
        for (int i = 0; i < s.length; i++) {
            Trial t = rung.get(i);
            Path model = folds == null ? t.folder().resolve("model.json")
                    : t == winner ? out.resolve("trials").resolve("final").resolve("model.json") : null;
            s[i] = t.error() != null || model == null ? Double.NaN : selection.evaluate(ModelFile.readScorer(model)
                    .score(te), te.labelBatch(te.allQueries()), MetricConventions.defaults()).mean();
        }
        return s;
    }

    private String command(Trial winner, boolean ensemble) {
        List<String> c = new ArrayList<>(List.of("rankgrad", "train"));
        c.addAll(folds != null ? List.of("--train", data.toString()) : List.of("--train", train.toString(), "--valid",
                valid.toString()));
        c.addAll(List.of("--out", out.resolve("reproduced").toString(), "--epochs", Integer.toString(winner.epochs()), "--seed",
                Long.toString(seed), "--metric", metric));
        c.addAll(winner.recipe().options());
        if (ensemble) {
            c.addAll(List.of("--ensemble", Integer.toString(SEEDS)));
        }
        if (folds != null) {
            c.addAll(finalSplit());
        }
        return String.join(" ", c);
    }

    static String fmt(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "n/a";
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
