package rankgrad.ltr.eval;

import java.io.IOException;

/** A run, qrels or scores file that cannot be read; the message names file, line and problem. */
public final class EvalInputException extends IOException {
    private static final long serialVersionUID = 1L;

    EvalInputException(String file, long line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem);
    }
}
