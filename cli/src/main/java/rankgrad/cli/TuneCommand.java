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

/**
 * {@code rankgrad tune}: chooses a recipe (network, loss, normalization, transform, learning
 * rate, input noise, dropout, batch size, ensemble) on validation only, by successive halving
 * (Jamieson and Talwalkar 2016, Algorithm 1; the building block of Hyperband, Li et al. 2018) with
 * halving rate eta = 3 under a budget counted in training document passes ({@link TuneBudget}).
 *
 * <p>Rung 0 trains {@code --candidates} recipes (the README's fixed recipes first, then recipes
 * drawn with {@code --seed}) for e0 epochs each; every rung keeps the best third on validation and
 * trains it for 3 times as many epochs; the last rung (3 recipes or fewer) trains each survivor as
 * an ensemble of 3 seeds, which gives the seed spread of the leaderboard and the ensemble's own
 * validation score. The winner is the recipe with the best mean validation over its seeds, written
 * as its ensemble or as its first seed's model, whichever validates better. e0 is the largest whole
 * number of epochs that keeps the total within the budget. Every trial is a {@code rankgrad train}
 * run in this JVM with the recipe's options, so the printed command reproduces the winner; the
 * test file, when given, is scored only after the choice and never used for it.
 */
@Command(name = "tune", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Choose a recipe on validation by successive halving under a budget; write the best model, a"
            + " leaderboard and the train command that reproduces it.",
            "The budget counts training document passes, so the same seed and budget choose the same winner on any"
                + " machine; --budget converts a time at a fixed rate (approximate), --budget-passes is exact."})
final class TuneCommand implements Callable<Integer> {
    /** Halving rate (Jamieson and Talwalkar's eta). */
    static final int ETA = 3;
    /** Seeds of each last-rung recipe (its ensemble). */
    static final int SEEDS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--train", required = true, description = "training LETOR file")
    Path train;

    @Option(names = "--valid", required = true, description = "validation LETOR file: the only data the choice sees")
    Path valid;

    @Option(names = "--test", description = "test LETOR file, scored after the choice (never used for it)")
    Path test;

    @Option(names = "--budget", defaultValue = "5m", description = "time budget, converted to document passes at a"
            + " fixed rate (" + TuneBudget.PASSES_PER_SECOND + " per second): 90s, 5m, 1h")
    String budget;

    @Option(names = "--budget-passes", paramLabel = "N", description = "exact budget in training document passes"
            + " (instead of --budget)")
    Long budgetPasses;

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
        TuneBudget b;
        try {
            b = budgetPasses != null ? new TuneBudget(budgetPasses) : TuneBudget.ofTime(budget);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (b.passes() < 1) {
            throw bad("--budget-passes must be >= 1, got " + b.passes());
        }
        out = OutputFolder.check(spec.commandLine(), "--out", out);
        PrintWriter o = spec.commandLine().getOut();
        Dataset tr = LetorReader.read(train);
        List<Integer> sizes = rungSizes(candidates);
        int e0 = b.firstRungEpochs(tr.documents(), costUnits(sizes));
        o.printf(Locale.ROOT, "tune: %d training queries (%d documents); budget %d document passes; successive halving"
                + " (eta %d) over %d recipes: rungs of %s recipes, %d epoch(s) in rung 0, the last rung as ensembles of %d"
                + " seeds; selecting on valid %s%n", tr.size(), tr.documents(), b.passes(), ETA, candidates, sizes, e0,
                SEEDS, selection);
        List<TuneRecipe> alive = TuneRecipe.candidates(candidates, new Random(seed));
        List<Trial> all = new ArrayList<>();
        int epochs = e0;
        List<Trial> rung = List.of();
        for (int r = 0; r < sizes.size(); r++) {
            boolean last = r == sizes.size() - 1;
            rung = new ArrayList<>();
            for (int i = 0; i < alive.size(); i++) {
                Trial t = trial(r, i, alive.get(i), epochs, last ? SEEDS : 1, selection);
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
                epochs *= ETA;
            }
        }
        Trial winner = rung.stream().max(Comparator.comparingDouble(Trial::mean)).orElseThrow();
        if (winner.error() != null) {
            throw new IllegalStateException("every recipe of the last rung failed; the first: " + winner.error());
        }
        boolean ensemble = winner.ensembleValidation() >= winner.validation()[0];
        Path chosen = ensemble ? winner.folder().resolve("model.json") : winner.folder().resolve("member-1/model.json");
        Files.createDirectories(out);
        AtomicWrite.writeString(out.resolve("model.json"), Files.readString(chosen));
        String command = command(winner, ensemble);
        String board = TuneLeaderboard.markdown(all, selection, test == null ? null : testScores(rung, selection));
        AtomicWrite.writeString(out.resolve("leaderboard.md"), board);
        AtomicWrite.writeString(out.resolve("command.txt"), command + "\n");
        o.printf(Locale.ROOT, "%n%s%nwinner: %s, %s (valid %s %s; mean over %d seeds %s)%nreproduce: %s%nwrote %s, %s,"
                + " %s%n", board, winner.recipe().label(), ensemble ? "ensemble of " + SEEDS : "single model", selection,
                fmt(ensemble ? winner.ensembleValidation() : winner.validation()[0]), SEEDS, fmt(winner.mean()), command,
                out.resolve("model.json"), out.resolve("leaderboard.md"), out.resolve("command.txt"));
        return 0;
    }

    /** Recipes per rung: n, ceil(n / eta), ... down to eta or fewer. */
    static List<Integer> rungSizes(int n) {
        List<Integer> sizes = new ArrayList<>(List.of(n));
        while (sizes.get(sizes.size() - 1) > ETA) {
            sizes.add((sizes.get(sizes.size() - 1) + ETA - 1) / ETA);
        }
        return sizes;
    }

    /** The budget's cost in rung-0 epochs of one recipe: sum over rungs of recipes x eta^rung x seeds. */
    static long costUnits(List<Integer> sizes) {
        long cost = 0;
        long factor = 1;
        for (int r = 0; r < sizes.size(); r++) {
            cost += sizes.get(r) * factor * (r == sizes.size() - 1 ? SEEDS : 1);
            factor *= ETA;
        }
        return cost;
    }

    private Trial trial(int rung, int index, TuneRecipe recipe, int epochs, int seeds, Metric selection)
            throws IOException {
        Path folder = out.resolve("trials").resolve(String.format(Locale.ROOT, "rung%d-%02d", rung, index));
        List<String> args = new ArrayList<>(List.of("train", "--train", train.toString(), "--valid", valid.toString(),
                "--out", folder.toString(), "--fresh", "--epochs", Integer.toString(epochs), "--seed", Long.toString(seed),
                "--metric", metric));
        args.addAll(recipe.options());
        if (seeds > 1) {
            args.addAll(List.of("--ensemble", Integer.toString(seeds)));
        }
        StringWriter err = new StringWriter();
        int code = Main.run(args.toArray(String[]::new), new PrintWriter(new StringWriter()), new PrintWriter(err));
        if (code != 0) {
            String last = err.toString().strip().lines().reduce((a, c) -> c).orElse("exit " + code);
            return new Trial(rung, recipe, epochs, seeds, new double[0], Double.NEGATIVE_INFINITY, folder, last);
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

    private static double number(Object v) {
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Test score of each last-rung trial's chosen-form model (its ensemble), after the choice. */
    private double[] testScores(List<Trial> rung, Metric selection) throws IOException {
        Dataset te = LetorReader.read(test);
        double[] s = new double[rung.size()];
        for (int i = 0; i < s.length; i++) {
            Trial t = rung.get(i);
            s[i] = t.error() != null ? Double.NaN : selection.evaluate(ModelFile.readScorer(t.folder().resolve("model.json"))
                    .score(te), te.labelBatch(te.allQueries()), MetricConventions.defaults()).mean();
        }
        return s;
    }

    private String command(Trial winner, boolean ensemble) {
        List<String> c = new ArrayList<>(List.of("rankgrad", "train", "--train", train.toString(), "--valid", valid.toString(),
                "--out", out.resolve("reproduced").toString(), "--epochs", Integer.toString(winner.epochs()), "--seed",
                Long.toString(seed), "--metric", metric));
        c.addAll(winner.recipe().options());
        if (ensemble) {
            c.addAll(List.of("--ensemble", Integer.toString(SEEDS)));
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
