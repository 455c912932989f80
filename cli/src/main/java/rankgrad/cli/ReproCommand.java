package rankgrad.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.repro.RankAccuracy;
import rankgrad.ltr.train.gradientfree.SpsaGains;

/** {@code rankgrad repro}: the papers' experiments that need no external data. */
@Command(name = "repro", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Reproduce a paper's experiment: rank-accuracy (Yu et al. Tables 2-3), alpha (Bruch et al. Fig. 2),"
                + " spsa (Yue & Burges Fig. 1 and Table 1).",
        subcommands = {ReproCommand.RankAccuracyCommand.class, ReproCommand.AlphaCommand.class, ReproCommand.SpsaCommand.class})
final class ReproCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "an experiment is required: rank-accuracy, alpha or spsa");
    }

    /** Yu et al. Tables 2-3. */
    @Command(name = "rank-accuracy", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "Yu et al. Tables 2-3: L1 distance of approximate to true ranks, with the paper's numbers beside.")
    static final class RankAccuracyCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--seed", defaultValue = "2020", description = "seed of the uniform score vectors")
        long seed;

        @Override
        public Integer call() {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            PrintStream ps = new PrintStream(buffer, true, StandardCharsets.UTF_8);
            RankAccuracy.print(RankAccuracy.measure(seed), ps);
            spec.commandLine().getOut().print(buffer.toString(StandardCharsets.UTF_8));
            return 0;
        }
    }

    /** Bruch et al. Fig. 2 on cubic data. */
    @Command(name = "alpha", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "Bruch et al. Fig. 2 on generated cubic data: ApproxNDCG validation NDCG@1,5,10 for alpha in"
                    + " {0.1, 1, 5, 10, 20, 40, 100}; writes alpha.md and alpha.png.")
    static final class AlphaCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--queries", defaultValue = "4000,1000", split = ",", description = "train,validation queries (50 documents each)")
        int[] queries;

        @Option(names = "--epochs", defaultValue = "20", description = "epochs per alpha (the best validation NDCG@5 epoch is kept)")
        int epochs;

        @Option(names = "--seed", defaultValue = "1", description = "seed of the data, the weights and the batch order")
        long seed;

        @Option(names = "--out", defaultValue = "repro-out", description = "output folder")
        Path out;

        @Override
        public Integer call() throws Exception {
            requireCounts(spec, queries, 2, "train,validation");
            requirePositive(spec, epochs, "--epochs");
            PrintWriter o = spec.commandLine().getOut();
            List<AlphaExperiment.Row> rows = AlphaExperiment.run(
                    new AlphaExperiment.Settings(queries[0], queries[1], epochs, seed), o);
            String report = String.format(Locale.ROOT, "%nBruch et al. Fig. 2 on cubic data: validation NDCG (%s), %d epochs,"
                    + " seed %d%n%n%s%n", MetricConventions.defaults().describe(), epochs, seed, AlphaExperiment.table(rows))
                    + "Paper (Web30K, 10 trials): alpha in {5, 10, 20, 40} not significantly different; 0.1 and 1 clearly"
                    + " worse; alpha = 10 chosen for its validation NDCG@5.\n";
            o.print(report);
            AtomicWrite.writeString(out.resolve("alpha.md"), report.stripLeading());
            AlphaExperiment.plot(rows, queries[0] + " cubic training queries", out.resolve("alpha.png"));
            o.printf("%nwrote %s, %s%n", out.resolve("alpha.md"), out.resolve("alpha.png"));
            return 0;
        }
    }

    /** Yue &amp; Burges Fig. 1 and Table 1 on cubic data. */
    @Command(name = "spsa", mixinStandardHelpOptions = true, showDefaultValues = true,
            description = "Yue & Burges on generated cubic data: SPSA:2/4/8 vs FDSA on the RankNet objective of a linear model"
                    + " by function evaluations, then SPSA:4 on NDCG@10 vs LambdaRank; writes spsa.md, spsa-objective.png,"
                    + " spsa-ndcg.png.")
    static final class SpsaCommand implements Callable<Integer> {
        @CommandLine.Spec
        CommandLine.Model.CommandSpec spec;

        @Option(names = "--queries", defaultValue = "500,250,500", split = ",",
                description = "train,validation,test queries (50 documents each)")
        int[] queries;

        @Option(names = "--evaluations", defaultValue = "2040",
                description = "part 1: objective evaluations per method (FDSA spends 102 per iteration)")
        int evaluations;

        @Option(names = "--iterations", defaultValue = "1000", description = "part 2: SPSA:4 iterations on NDCG@10")
        int iterations;

        @Option(names = "--epochs", defaultValue = "20", description = "part 2: LambdaRank epochs")
        int epochs;

        @Option(names = "--seed", defaultValue = "1", description = "seed of the data, the weights and the perturbations")
        long seed;

        @Option(names = "--out", defaultValue = "repro-out", description = "output folder")
        Path out;

        @Override
        public Integer call() throws Exception {
            requireCounts(spec, queries, 3, "train,validation,test");
            requirePositive(spec, evaluations, "--evaluations");
            requirePositive(spec, iterations, "--iterations");
            requirePositive(spec, epochs, "--epochs");
            PrintWriter o = spec.commandLine().getOut();
            SpsaExperiment.Settings s = new SpsaExperiment.Settings(queries, evaluations, iterations, epochs, seed);
            Dataset[] data = SpsaExperiment.data(s);
            o.printf(Locale.ROOT, "Part 1: RankNet objective of a linear model (%d parameters) on %d training queries, %d"
                    + " evaluations per method%n", data[0].features() + 1, queries[0], evaluations);
            List<SpsaExperiment.Curve> curves = SpsaExperiment.objectiveCurves(s, data[0], o);
            o.printf(Locale.ROOT, "%nPart 2: NDCG@10 of a linear model, %d/%d/%d queries%n", queries[0], queries[1], queries[2]);
            SpsaExperiment.Comparison comparison = SpsaExperiment.ndcgComparison(s, data, o);
            String report = String.format(Locale.ROOT, "%nYue & Burges Sec. 5.1 (Fig. 1) on cubic data: RankNet pairwise cross"
                    + " entropy (mean per query) of a linear model, seed %d; gains %s%n%n%s%n", seed,
                    describe(SpsaExperiment.OBJECTIVE_GAINS), SpsaExperiment.objectiveTable(curves))
                    + "Paper (Web data, 367 features, mean of 10 runs): all SPSA variants converge much faster than FDSA per"
                    + " function evaluation, at roughly equal rates.\n"
                    + String.format(Locale.ROOT, "%nYue & Burges Table 1 on cubic data: NDCG@10 of linear models (%s); SPSA:4"
                    + " gains %s, selected on validation; LambdaRank by Adam, selected on validation%n%n%s%n",
                    MetricConventions.defaults().describe(), describe(SpsaExperiment.NDCG_GAINS),
                    SpsaExperiment.ndcgTable(comparison.rows()))
                    + "Wilcoxon signed-rank test of the per-query test NDCG@10, SPSA:4 vs LambdaRank: p = "
                    + PerQueryTest.format(comparison.testP()) + "\n"
                    + "Paper (Web data): SPSA:4 below LambdaRank on every set (test 0.677 vs 0.707).\n";
            o.print(report);
            AtomicWrite.writeString(out.resolve("spsa.md"), report.stripLeading());
            SpsaExperiment.plotObjective(curves, "linear model, " + queries[0] + " cubic queries",
                    out.resolve("spsa-objective.png"));
            SpsaExperiment.plotNdcg(comparison, "linear model, " + queries[0] + " cubic queries", out.resolve("spsa-ndcg.png"));
            o.printf("%nwrote %s, %s, %s%n", out.resolve("spsa.md"), out.resolve("spsa-objective.png"),
                    out.resolve("spsa-ndcg.png"));
            return 0;
        }

        private static String describe(SpsaGains g) {
            return String.format(Locale.ROOT, "a = %s, c = %s, A = %s (a_t = a / (t + 1 + A)^%s, c_t = c / (t + 1)^%s)",
                    g.a(), g.c(), g.stability(), g.alpha(), g.gamma());
        }
    }

    private static void requireCounts(CommandLine.Model.CommandSpec spec, int[] queries, int n, String what) {
        if (queries.length != n) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--queries needs " + n + " counts: " + what);
        }
        for (int q : queries) {
            requirePositive(spec, q, "--queries");
        }
    }

    private static void requirePositive(CommandLine.Model.CommandSpec spec, int value, String option) {
        if (value < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), option + " must be at least 1, got " + value);
        }
    }
}
