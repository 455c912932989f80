package rankgrad.spark;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.metric.Metric;
import rankgrad.ltr.metric.MetricConventions;
import rankgrad.ltr.model.Architectures;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.EpochResult;
import rankgrad.ltr.train.OptimizerKind;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;

/**
 * {@code train}: {@code rankgrad train} with its gradients computed on Spark ({@link SparkTrainer}),
 * the same option names and defaults. The training files are read by the executors and never
 * collected; validation and test files are collected to the driver. Writes OUT/model.json, and
 * OUT/checkpoint.json after every epoch (a killed run started again with the same options resumes).
 */
@Command(name = "train", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train a ranker with data-parallel gradients on Spark; with --shards 1 the weights equal"
                + " 'rankgrad train''s with the same options, bit for bit."})
final class TrainCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--train", required = true, split = ",", description = "training LETOR files, folders or globs on"
            + " any Hadoop file system (.gz accepted); comma-separated")
    List<String> train;

    @Option(names = "--valid", required = true, description = "validation LETOR file (model selection; read by the driver)")
    String valid;

    @Option(names = "--test", description = "test LETOR file (reported per epoch, never used for selection)")
    String test;

    @Option(names = "--loss", defaultValue = "ndcg-type3", description = "the loss (see 'rankgrad train --help')")
    String loss;

    @Option(names = "--model", defaultValue = "R4.L", description = "the network: linear, R5, CE5, R4.L, CE4.L, B64..B1024")
    String model;

    @Option(names = "--normalization", defaultValue = "query-zscore",
            description = "query-zscore (Yu), standardize (fitted on the executors in one pass), none")
    String normalization;

    @Option(names = "--epochs", defaultValue = "100", description = "epochs")
    int epochs;

    @Option(names = "--optimizer", defaultValue = "adam", description = "adam, adamw, sgd (runs on the driver)")
    String optimizer;

    @Option(names = "--lr", defaultValue = "0.001", description = "learning rate")
    double lr;

    @Option(names = "--l2", defaultValue = "0.001", description = "L2 weight decay")
    double l2;

    @Option(names = "--batch-queries", defaultValue = "64", description = "queries per mini-batch (all shards together)")
    int batchQueries;

    @Option(names = "--seed", defaultValue = "1", description = "seed of the weights, the batch order and the tie-breaks")
    long seed;

    @Option(names = "--patience", defaultValue = "20", description = "epochs without improvement before stopping (0 = never)")
    int patience;

    @Option(names = "--metric", defaultValue = "ndcg@5", description = "validation metric for model selection")
    String metric;

    @Option(names = "--ymax", defaultValue = "4", description = "the grade scale's maximum, for ERR and nERR")
    double ymax;

    @Option(names = "--shards", defaultValue = "1", description = "virtual shards per batch: the model depends on this,"
            + " never on executors or partitions; 1 = 'rankgrad train''s model")
    int shards;

    @Option(names = "--partitions", defaultValue = "0", description = "partitions the shards are laid out in (0: the"
            + " session's default parallelism)")
    int partitions;

    @Option(names = "--split-bytes", defaultValue = "0", description = "bytes of a file one reading task scans (0:"
            + " spark.sql.files.maxPartitionBytes); queries are never split")
    long splitBytes;

    @Option(names = "--out", defaultValue = "rankgrad-out", description = "output folder on the driver")
    Path out;

    @Override
    public Integer call() throws Exception {
        TrainingConfig config = config();
        if (shards < 1) {
            throw bad("--shards must be >= 1, got " + shards);
        }
        if (partitions < 0) {
            throw bad("--partitions must be >= 0 (0: the session's default parallelism), got " + partitions);
        }
        if (!Normalization.names().contains(normalization)) {
            throw bad("--normalization must be one of " + Normalization.names() + ", got " + normalization);
        }
        String architecture;
        try {
            architecture = Architectures.canonical(model);
        } catch (IllegalArgumentException e) {
            throw bad("--model: " + e.getMessage());
        }
        SparkSession spark = SparkSession.builder().appName("rankgrad train").getOrCreate();
        Dataset<QueryRow> tr = QueryFrames.readLetor(spark, new LetorInput(train, 0, ymax, false, null, splitBytes));
        int width = tr.select(org.apache.spark.sql.functions.max("width")).first().getInt(0);
        LetorInput side = new LetorInput(List.of(valid), width, ymax, false, null, splitBytes);
        rankgrad.ltr.data.Dataset va = SparkTrainer.collect(QueryFrames.readLetor(spark, side), valid);
        rankgrad.ltr.data.Dataset te = test == null ? null
                : SparkTrainer.collect(QueryFrames.readLetor(spark, new LetorInput(List.of(test), width, ymax, false, null, splitBytes)), test);
        Normalization norm = switch (normalization) {
            case "standardize" -> GlobalStandardization.fit(tr, width);
            case "none" -> new Normalization.None();
            default -> new Normalization.QueryZScore();
        };
        RankingModel m = RankingModel.create(architecture, width, norm, seed);
        Files.createDirectories(out);
        PrintWriter w = spec.commandLine().getOut();
        TrainingResult r = SparkTrainer.of(config.withCheckpoint(out.resolve("checkpoint.json")), shards,
                partitions > 0 ? partitions : spark.sparkContext().defaultParallelism())
                .fit(spark, m, loss, tr, va, te, new TrainingListener() {
                    @Override
                    public void epochDone(EpochResult e) {
                        w.printf(Locale.ROOT, "epoch %d: loss %.5f, validation %s %.4f%s (%.1f s)%n", e.epoch(),
                                e.trainLoss(), config.selection(), e.validation(), e.best() ? " *" : "", e.seconds());
                        w.flush();
                    }
                });
        ModelFile.write(m, out.resolve("model.json"));
        w.println(r.message());
        w.println("wrote " + out.resolve("model.json"));
        w.flush();
        return r.stop() == TrainingResult.Stop.DIVERGED ? 1 : 0;
    }

    private TrainingConfig config() {
        try {
            return new TrainingConfig(epochs, lr, l2, batchQueries, seed, patience, Metric.parse(metric),
                    OptimizerKind.parse(optimizer), MetricConventions.defaults().withYmax(ymax), null);
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
