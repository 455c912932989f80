package rankgrad.spark;

import java.io.IOException;

/**
 * A LETOR/SVMlight input that cannot be read as whole queries; the message names the file (as
 * given, {@code hdfs://...} included), the 1-based line in the whole file (0 when the problem is
 * the file) and the problem, exactly as {@code LetorReader}'s {@code LetorFormatException} does for
 * a file read in one piece.
 */
public final class LetorSplitException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String problem;

    LetorSplitException(String file, long line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /** The file's name as given. */
    public String file() {
        return file;
    }

    /** The 1-based line number in the whole file, or 0 when the problem is the whole file. */
    public long line() {
        return line;
    }

    /** What is wrong, without file and line. */
    public String problem() {
        return problem;
    }
}
