package rankgrad.ltr.train;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A checkpoint that cannot be resumed: damaged (not JSON, a field missing or of the wrong type, a
 * tensor that does not fit the model) or written by a different run. The message says which and
 * that deleting the file starts the run over; {@link #problem()} is the same without that advice,
 * for callers that offer their own way to start over.
 */
public final class CheckpointException extends IOException {

    /** Why the checkpoint cannot be resumed. */
    public enum Reason {
        /** It cannot be read as a checkpoint of this format. */
        DAMAGED,
        /** It is intact, but its run differs from this one (data or settings). */
        OTHER_RUN
    }

    private final Path file;
    private final Reason reason;
    private final String problem;

    CheckpointException(Path file, Reason reason, String problem, Throwable cause) {
        super(problem + "; delete " + file + " to start the run over", cause);
        this.file = file;
        this.reason = reason;
        this.problem = problem;
    }

    public Path file() {
        return file;
    }

    public Reason reason() {
        return reason;
    }

    /** What is wrong, naming the file, without advice. */
    public String problem() {
        return problem;
    }
}
