package rankgrad.cli;

import java.io.PrintWriter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * {@code --verbose}: prints rankgrad's {@code DEBUG} log records (System.Logger, which the JDK
 * routes to java.util.logging) to the command's error stream while a command runs. The library
 * logs its diagnostics there (which kernels, vector or scalar, and which pairwise backend were
 * chosen) so that a normal run prints only its results; closing restores the quiet default, so
 * commands run one after another in one JVM (the tests) do not inherit it.
 */
final class DebugLog extends Handler implements AutoCloseable {
    /** Held strongly: java.util.logging keeps loggers only weakly, and a collected one forgets its level. */
    private static final Logger RANKGRAD = Logger.getLogger("rankgrad");

    private final PrintWriter err;
    private final Level previousLevel;
    private final boolean previousUseParent;

    private DebugLog(PrintWriter err) {
        this.err = err;
        this.previousLevel = RANKGRAD.getLevel();
        this.previousUseParent = RANKGRAD.getUseParentHandlers();
        setLevel(Level.ALL);
        RANKGRAD.setLevel(Level.FINE);
        // Every rankgrad record goes here only, so none is printed twice (here and by the root handler).
        RANKGRAD.setUseParentHandlers(false);
        RANKGRAD.addHandler(this);
    }

    /** Prints rankgrad's records of level DEBUG (FINE) and above to {@code err} until closed. */
    static DebugLog to(PrintWriter err) {
        return new DebugLog(err);
    }

    @Override
    public void publish(LogRecord rec) {
        if (isLoggable(rec)) {
            // The message alone, as ./rankgrad formats every log line: no timestamp, no source.
            err.println(rec.getMessage());
            err.flush();
        }
    }

    @Override
    public void flush() {
        err.flush();
    }

    @Override
    public void close() {
        RANKGRAD.removeHandler(this);
        RANKGRAD.setUseParentHandlers(previousUseParent);
        RANKGRAD.setLevel(previousLevel);
    }
}
