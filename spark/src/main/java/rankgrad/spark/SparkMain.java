package rankgrad.spark;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code spark-submit} entry point: {@code score}, {@code eval} and {@code train} over
 * whole-query frames, with the option names of the {@code rankgrad} command ({@code --model}, {@code --data},
 * {@code --out}, {@code --metrics}, ...). The master, executors and memory come from
 * {@code spark-submit}; each command gets its session with {@code SparkSession.builder().getOrCreate()}.
 *
 * <pre>
 * spark-submit --class rankgrad.spark.SparkMain rankgrad-spark_2.13-VERSION-submit.jar \
 *     eval --model model.json --data hdfs:///letor/test.txt --metrics ndcg@10,map@10
 * </pre>
 *
 * Subcommands are the classes listed in {@code subcommands}; a new one is a picocli
 * {@code Callable<Integer>} added there.
 */
@Command(name = "rankgrad-spark", mixinStandardHelpOptions = true, versionProvider = SparkMain.Version.class,
        description = "rankgrad on Apache Spark: score, evaluate and train on LETOR data of any size, queries kept whole.",
        subcommands = {ScoreCommand.class, EvalCommand.class, TrainCommand.class})
public final class SparkMain implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Runs the command line; exits with its status (the only {@code System.exit}). */
    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns its status (for tests and embedding). */
    public static int run(String... args) {
        return new CommandLine(new SparkMain()).execute(args);
    }

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 2;
    }

    /** The jar's version. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = SparkMain.class.getPackage().getImplementationVersion();
            return new String[] {"rankgrad-spark " + (v == null ? "(development build)" : v)};
        }
    }
}
