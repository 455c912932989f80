package rankgrad.ltr.letor;

import java.io.IOException;

/** A LETOR/SVMlight file that cannot be read; the message names file, line and problem. */
public final class LetorFormatException extends IOException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long line;
    private final String problem;

    /**
     * The problem {@code problem} at 1-based {@code line} of {@code file}, the name as the reader
     * was given it (a local path, or a URI such as {@code hdfs://...} for readers of other file
     * systems); {@code line} 0 when the problem is the whole file. The message is
     * {@code file:line: problem}, or {@code file: problem} for line 0.
     */
    public LetorFormatException(String file, long line, String problem) {
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
