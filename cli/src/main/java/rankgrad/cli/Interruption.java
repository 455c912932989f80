package rankgrad.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import rankgrad.ltr.io.AtomicWrite;

/**
 * What a command says and leaves when a signal (SIGTERM, SIGINT, SIGHUP) ends its process: the JVM
 * runs this shutdown hook and then halts, skipping every {@code finally} of the command. The hook
 * abandons the atomic writes in flight ({@link AtomicWrite#abandonAll}: their temporaries deleted,
 * their targets keeping the old content), so the output folder holds only complete files, the
 * last complete checkpoint among them, and prints one line saying what survives and how to go on.
 * The run lock needs nothing: the kernel releases it with the process.
 *
 * <p>A command that ends by itself (any exit code) marks the process {@link #finished()} first,
 * and the hook then says nothing.
 */
final class Interruption {
    private static volatile boolean finished;
    /** What a resumed run would start from, set as checkpoints are written; null outside training. */
    private static volatile String resumePoint;

    private Interruption() {
    }

    /** Installs the hook for this process; {@code err} gets its line. */
    static void install(PrintWriter err) {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (finished) {
                return;
            }
            List<Path> abandoned = AtomicWrite.abandonAll();
            err.println("rankgrad: stopped by a signal" + (abandoned.isEmpty() ? "" : " (not written: " + abandoned.get(0)
                    + (abandoned.size() > 1 ? " and " + (abandoned.size() - 1) + " more" : "") + ")") + "; "
                    + (resumePoint == null ? "no file was half-written" : resumePoint));
            err.flush();
        }, "rankgrad-interruption"));
    }

    /** The command ended by itself: the hook stays silent. */
    static void finished() {
        finished = true;
    }

    /** Records that {@code checkpoint} now holds {@code epoch} of {@code epochs} complete epochs. */
    static void checkpointed(Path checkpoint, int epoch, int epochs) {
        resumePoint = checkpoint + " holds the last complete epoch (" + epoch + " of " + epochs + "): run the same command"
                + " again to resume from it";
    }
}
