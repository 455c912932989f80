package rankgrad.ltr.data;

import java.io.IOException;

/** A LETOR/SVMlight file that cannot be read; the message names file, line and problem. */
public final class LetorFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String problem;

    LetorFormatException(String file, long line, String problem) {
        super(file + (line > 0 ? ":" + line : "") + ": " + problem);
        this.file = file;
        this.line = line;
        this.problem = problem;
    }

    /** The file's name as given to the reader. */
    public String file() {
        return file;
    }

    /** The 1-based line number, or 0 when the problem is the whole file. */
    public long line() {
        return line;
    }

    /** What is wrong, without file and line. */
    public String problem() {
        return problem;
    }
}
