package rankgrad.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.DatasetStats;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.RunLock;
import rankgrad.ltr.train.TrainingConfig;

/**
 * {@code rankgrad demo}: the main job on built-in data. Generates Burges' cubic polynomial data,
 * trains the same network with twin-sigmoid nDCG-type3 and the listwise losses Yu et al. compare it
 * with (ApproxNDCG, ListNet, ListMLE: their Tables 4 and 7), with LambdaRank and RankNet beside
 * them, and prints a comparison on the test set; writes the table, the curves and the models.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = "Train nDCG-type3, ApproxNDCG, ListNet, ListMLE, LambdaRank and RankNet on generated cubic data and compare them.")
final class DemoCommand implements Callable<Integer> {
    private static final List<String> LOSSES = List.of("ndcg-type3", "approx-ndcg", "listnet", "listmle", "lambdarank", "ranknet");
    private static final List<String> METRICS = List.of("ndcg@1", "ndcg@3", "ndcg@5", "ndcg@10", "map@10");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--queries", defaultValue = "4000,500,1000", split = ",", description = "train,vali,test queries")
    int[] queries;

    @Option(names = "--epochs", defaultValue = "12", description = "epochs per loss")
    int epochs;

    @Option(names = "--model", defaultValue = "R4.L", description = "the network every loss trains")
    String model;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the data, the weights and the batch order")
    long seed;

    @Option(names = "--out", defaultValue = "demo-out", description = "output folder")
    Path out;

    @Option(names = "--fresh", description = "discard the checkpoints of an earlier demo in the output folder and train"
            + " from the start (without it, the same demo resumes and a different one is refused)")
    boolean fresh;

    @Mixin
    BackendOption backend;

    @Override
    public Integer call() throws Exception {
        backend.apply();
        if (queries.length != 3) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--queries needs three counts: train,vali,test");
        }
        if (epochs < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--epochs must be >= 1, got " + epochs);
        }
        String architecture;
        try {
            architecture = Architectures.canonical(model);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--model: " + e.getMessage());
        }
        out = OutputFolder.check(spec.commandLine(), "--out", out);
        ScalarKernelWarning.printIfScalar(spec.commandLine().getErr());
        try (RunLock lock = RunLock.acquire(out)) {
            return demo(architecture);
        }
    }

    private int demo(String architecture) throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        CubicData gen = CubicData.paper(seed);
        Dataset train = gen.sample("cubic train", queries[0], 50, seed * 31 + 1);
        Dataset valid = gen.sample("cubic valid", queries[1], 50, seed * 31 + 2);
        Dataset test = gen.sample("cubic test", queries[2], 50, seed * 31 + 3);
        o.print(DatasetStats.of(train).report());
        TrainingConfig config = TrainingConfig.defaults().withEpochs(epochs).withSeed(seed).withPatience(0);
        List<Curves.Run> runs = new ArrayList<>();
        List<Metric> metrics = METRICS.stream().map(Metric::parse).toList();
        double[][][] perQuery = new double[LOSSES.size()][metrics.size()][];
        StringBuilder timing = new StringBuilder("| loss | best epoch | seconds |\n|:--|--:|--:|\n");
        for (int l = 0; l < LOSSES.size(); l++) {
            String loss = LOSSES.get(l);
            o.printf("%n== %s on %s, %d epochs%n", loss, architecture, epochs);
            RankingModel m = RankingModel.create(architecture, train.features(), new Normalization.QueryZScore(), seed);
            long started = System.nanoTime();
            TrainingRun.Outcome outcome = TrainingRun.execute(m, loss, config, train, valid, test, out.resolve(loss),
                    new Progress(o, System.console() != null, epochs, "ndcg@5"), fresh);
            double seconds = (System.nanoTime() - started) / 1e9;
            runs.add(outcome.curves());
            float[] scores = m.scorer().score(test);
            for (int i = 0; i < metrics.size(); i++) {
                perQuery[l][i] = metrics.get(i).perQuery(scores, test.labelBatch(test.allQueries()),
                        MetricConventions.defaults());
            }
            timing.append(String.format(Locale.ROOT, "| %s | %d | %.0f |%n", loss, outcome.result().bestEpoch(), seconds));
        }
        ComparisonTable table = ComparisonTable.of(LOSSES, METRICS, perQuery);
        String report = String.format(Locale.ROOT, "Test set of %d queries (%s with a relevant document), model %s, %d epochs,"
                + " seed %d, epoch selected on validation ndcg@5.%n%n%s%n%s%nconventions: %s%n%n%s", test.size(),
                table.queries(), architecture, epochs, seed, table.markdown(), ComparisonTable.legend(),
                MetricConventions.defaults().describe(), timing);
        o.printf("%n%s", report);
        AtomicWrite.writeString(out.resolve("results.md"), report);
        Curves.write(runs, "ndcg@5", false, out.resolve("curves.png"));
        o.printf("%nwrote %s, %s and one folder per loss (model.json, metrics.csv, curves.png)%n",
                out.resolve("results.md"), out.resolve("curves.png"));
        return 0;
    }
}
