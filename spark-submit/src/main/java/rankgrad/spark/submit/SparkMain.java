package rankgrad.spark.submit;

import java.util.concurrent.Callable;
import picocli.CommandLine;
import java.nio.file.NoSuchFileException;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code spark-submit} entry point: {@code score}, {@code eval} and {@code train} over
 * whole-query frames, with the option names of the {@code rankgrad} command ({@code --model}, {@code --data},
 * {@code --out}, {@code --metrics}, ...). The master, executors and memory come from
 * {@code spark-submit}; each command gets its session with {@code SparkSession.builder().getOrCreate()}.
 *
 * <pre>
 * spark-submit --class rankgrad.spark.submit.SparkMain rankgrad-spark-submit_2.13-VERSION.jar \
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

    @Option(names = "--verbose", scope = CommandLine.ScopeType.INHERIT, description = "on failure, print the stack"
            + " trace after the one-line message")
    boolean verbose;

    /**
     * Runs the command line, stops the session the command opened (so that the executors are
     * released before the JVM's shutdown hooks run) and exits with its status (the only {@code
     * System.exit}).
     */
    public static void main(String[] args) {
        System.exit(runAndStop(args));
    }

    /**
     * {@link #run}, then stops the session its command opened (the default session), whatever the
     * outcome: without it, {@code spark-submit} on a standalone cluster ends every run with the
     * worker failing to launch an executor during the JVM's shutdown.
     */
    static int runAndStop(String... args) {
        try {
            return run(args);
        } finally {
            SparkSession.getDefaultSession().foreach(s -> {
                s.stop();
                return null;
            });
        }
    }

    /** Runs the command line and returns its status (for tests and embedding). */
    public static int run(String... args) {
        CommandLine cl = new CommandLine(new SparkMain());
        // A failure is one line on stderr and status 1, as the rankgrad command's; the cause's stack
        // trace (Spark's task failures wrap it in hundreds of lines) only with --verbose.
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("rankgrad-spark: " + describe(e));
            if (((SparkMain) commandLine.getCommandSpec().root().userObject()).verbose) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return 1;
        });
        return cl.execute(args);
    }

    /**
     * The message of the innermost cause that has one: rankgrad's own exception (a {@code
     * LetorFormatException} naming file and line, say) thrown in a task reaches the driver as the
     * cause of Spark's job failure, whose own message is the scheduler's.
     */
    static String describe(Throwable e) {
        String message = null;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof NoSuchFileException f) {
                message = "no such file: " + f.getFile();
            } else if (t.getMessage() != null) {
                message = t.getMessage();
            }
        }
        return message == null ? e.getClass().getSimpleName() : message;
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
