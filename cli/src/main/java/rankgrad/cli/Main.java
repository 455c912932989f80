package rankgrad.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code rankgrad} command. Exit codes: 0 success, 1 a failure while running (a missing or
 * malformed input file, a training error), 2 bad arguments.
 */
@Command(name = "rankgrad", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = "Train rankers by optimizing the rank metrics you evaluate with.",
        subcommands = {DemoCommand.class, TrainCommand.class, CompareCommand.class, TuneCommand.class, EvalCommand.class, PredictCommand.class, ExportCommand.class, GenerateCommand.class, ReproCommand.class, StatsCommand.class, CommandLine.HelpCommand.class},
        showDefaultValues = true)
public final class Main implements Runnable {
    /** The option name; every command inherits it. */
    static final String VERBOSE = "--verbose";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @CommandLine.Option(names = VERBOSE, scope = CommandLine.ScopeType.INHERIT,
            description = "also print diagnostics: the kernels (vector or scalar) and pairwise backend chosen, and,"
                    + " through ./rankgrad, the JVM's notice that it uses the incubator module jdk.incubator.vector")
    boolean verbose;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
    }

    public static void main(String[] args) {
        PrintWriter err = new PrintWriter(System.err, true);
        Interruption.install(err);
        // A worker thread's OutOfMemoryError is one line and exit 1 as well, not a trace and a hung command.
        Thread.UncaughtExceptionHandler fallback = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> {
            if (e instanceof OutOfMemoryError oom) {
                err.println("rankgrad: " + OutOfMemory.describe(oom));
                Interruption.finished();
                Runtime.getRuntime().halt(1);
            } else if (fallback != null) {
                fallback.uncaughtException(thread, e);
            } else {
                thread.getThreadGroup().uncaughtException(thread, e);
            }
        });
        int code = run(args, new PrintWriter(System.out, true), err);
        Interruption.finished();
        System.exit(code);
    }

    /** Runs the command line in-process (tests use this) and returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine cl = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOut(out);
        cl.setErr(err);
        // A bad argument is one line naming the command and the help to read, not the whole usage text.
        cl.setParameterExceptionHandler((e, a) -> {
            String command = e.getCommandLine().getCommandSpec().qualifiedName();
            e.getCommandLine().getErr().println(command + ": " + e.getMessage() + " (see '" + command + " --help')");
            return 2;
        });
        cl.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("rankgrad: " + describe(e));
            if (isBug(e) && verbose(parseResult)) {
                e.printStackTrace(commandLine.getErr());
            }
            return 1;
        });
        // Diagnostics (rankgrad's DEBUG log records) only with --verbose, on whichever command it is given.
        cl.setExecutionStrategy(parseResult -> {
            if (!verbose(parseResult)) {
                return new CommandLine.RunLast().execute(parseResult);
            }
            try (DebugLog ignored = DebugLog.to(err)) {
                return new CommandLine.RunLast().execute(parseResult);
            }
        });
        int code;
        try {
            code = cl.execute(args);
        } catch (OutOfMemoryError e) {
            // Caught here, after the command's data became unreachable, so the line itself has room.
            err.println("rankgrad: " + OutOfMemory.describe(e));
            code = 1;
        }
        out.flush();
        err.flush();
        return code;
    }

    private static boolean verbose(CommandLine.ParseResult parsed) {
        for (CommandLine.ParseResult r = parsed; r != null; r = r.subcommand()) {
            if (r.hasMatchedOption(VERBOSE)) {
                return true;
            }
        }
        return false;
    }

    static String describe(Exception e) {
        if (e instanceof UncheckedIOException u && u.getMessage().equals(String.valueOf(u.getCause()))) {
            return describe(u.getCause()); // wrapped without words of its own: the I/O error's
        }
        if (e instanceof NoSuchFileException f) {
            return "no such file: " + f.getFile();
        }
        if (isBug(e)) {
            // Not a problem with the input: saying only its message would pass a bug off as one.
            return "internal error (" + e + "); please report it with the command line"
                    + " (--verbose prints where it happened)";
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }

    /**
     * Whether an exception is a defect of rankgrad rather than a problem with the input or the
     * files: input, format and file errors are IllegalArgumentException, IllegalStateException or
     * I/O exceptions with a message that names the file, line and problem.
     */
    static boolean isBug(Exception e) {
        return e instanceof NullPointerException || e instanceof IndexOutOfBoundsException
                || e instanceof ClassCastException || e instanceof ArithmeticException
                || e instanceof NegativeArraySizeException || e instanceof ArrayStoreException
                || e instanceof UnsupportedOperationException;
    }
}
