package rankgrad.spark.submit;

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
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import rankgrad.cli.BaseTrainingOptions;
import rankgrad.cli.MetricsCsv;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.io.AtomicWrite;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.ltr.train.EpochResult;
import rankgrad.ltr.train.TrainingConfig;
import rankgrad.ltr.train.TrainingListener;
import rankgrad.ltr.train.TrainingResult;
import rankgrad.spark.GlobalStandardization;
import rankgrad.spark.LetorInput;
import rankgrad.spark.QueryFrames;
import rankgrad.spark.QueryRow;
import rankgrad.spark.SparkTrainer;

/**
 * {@code train}: {@code rankgrad train} with its gradients computed on Spark ({@link SparkTrainer}),
 * the same option names and defaults (its {@link BaseTrainingOptions}). The training files are read by the executors and never
 * collected; validation and test files are collected to the driver. Writes OUT/model.json, OUT/metrics.csv (as
 * {@code rankgrad train} writes it; the test set's column with {@code --test}), and
 * OUT/checkpoint.json after every epoch (a killed run started again with the same options resumes).
 */
@Command(name = "train", mixinStandardHelpOptions = true, showDefaultValues = true,
        description = {"Train a ranker with data-parallel gradients on Spark; with --shards 1 the weights equal"
                + " 'rankgrad train''s with the same options, bit for bit.",
            "The optimizer runs on the driver; --batch-queries counts the queries of all shards together;"
                + " --normalization standardize is fitted on the executors in one pass."})
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

    @Mixin
    BaseTrainingOptions training;

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
        training.validate();
        TrainingConfig config = training.config();
        if (shards < 1) {
            throw bad("--shards must be >= 1, got " + shards);
        }
        if (partitions < 0) {
            throw bad("--partitions must be >= 0 (0: the session's default parallelism), got " + partitions);
        }
        String architecture = training.architecture();
        double ymax = training.ymax();
        SparkSession spark = SparkSession.builder().appName("rankgrad train").getOrCreate();
        Dataset<QueryRow> tr = QueryFrames.readLetor(spark, new LetorInput(train, 0, ymax, false, null, splitBytes));
        int width = tr.select(org.apache.spark.sql.functions.max("width")).first().getInt(0);
        LetorInput side = new LetorInput(List.of(valid), width, ymax, false, null, splitBytes);
        rankgrad.ltr.data.Dataset va = SparkTrainer.collect(QueryFrames.readLetor(spark, side), valid);
        rankgrad.ltr.data.Dataset te = test == null ? null
                : SparkTrainer.collect(QueryFrames.readLetor(spark, new LetorInput(List.of(test), width, ymax, false, null, splitBytes)), test);
        Normalization norm = switch (training.normalizationName()) {
            case "standardize" -> GlobalStandardization.fit(tr, width);
            case "none" -> new Normalization.None();
            default -> new Normalization.QueryZScore();
        };
        RankingModel m = RankingModel.create(architecture, width, norm, training.seed());
        Files.createDirectories(out);
        PrintWriter w = spec.commandLine().getOut();
        TrainingResult r = SparkTrainer.of(config.withCheckpoint(out.resolve("checkpoint.json")), shards,
                partitions > 0 ? partitions : spark.sparkContext().defaultParallelism())
                .fit(spark, m, loss, tr, va, te, new TrainingListener() {
                    @Override
                    public void epochDone(EpochResult e) {
                        w.printf(Locale.ROOT, "epoch %d: loss %.5f, validation %s %.4f%s%s (%.1f s)%n", e.epoch(),
                                e.trainLoss(), config.selection(), e.validation(), te == null ? ""
                                        : String.format(Locale.ROOT, ", test %.4f", e.test()), e.best() ? " *" : "",
                                e.seconds());
                        w.flush();
                    }
                });
        ModelFile.write(m, out.resolve("model.json"));
        AtomicWrite.writeString(out.resolve("metrics.csv"), MetricsCsv.of(r.history(), config.selection().toString(),
                te != null));
        w.println(r.message());
        w.println("wrote " + out.resolve("model.json"));
        w.flush();
        return r.stop() == TrainingResult.Stop.DIVERGED ? 1 : 0;
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
