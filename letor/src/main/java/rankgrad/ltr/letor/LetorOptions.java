package rankgrad.ltr.letor;

import java.nio.file.Path;

/**
 * How {@link LetorReader} reads a file, beyond its text.
 *
 * <pre>{@code
 * LetorOptions lightGbm = LetorOptions.DEFAULT.withGroups(Path.of("rank.train.query"));
 * LetorOptions forErr = LetorOptions.DEFAULT.withYmax(4);
 * }</pre>
 *
 * @param groups the group-size file of a libsvm file whose lines have no {@code qid:} (LightGBM's
 *        {@code FILE.query}, XGBoost's {@code FILE.group}: one group size per line), or null to
 *        look for {@code FILE.query} or {@code FILE.group} beside the data when needed
 * @param ymax the grade scale's maximum: a label above it is an error naming file and line, found
 *        while reading (ERR's R(y) = (2^y - 1) / 2^ymax needs y &lt;= ymax; pass
 *        {@code MetricConventions.ymax()}); {@link Double#POSITIVE_INFINITY} checks only
 *        {@link LetorReader#MAX_GRADE}
 */
public record LetorOptions(Path groups, double ymax) {

    /** Group sizes looked for beside the data; grades checked against {@link LetorReader#MAX_GRADE} only. */
    public static final LetorOptions DEFAULT = new LetorOptions(null, Double.POSITIVE_INFINITY);

    public LetorOptions {
        if (!(ymax > 0)) {
            throw new IllegalArgumentException("ymax (the grade scale's maximum) must be > 0, got " + ymax);
        }
    }

    /** The same options reading group sizes from {@code file} (null: look beside the data). */
    public LetorOptions withGroups(Path file) {
        return new LetorOptions(file, ymax);
    }

    /** The same options refusing labels above {@code newYmax}. */
    public LetorOptions withYmax(double newYmax) {
        return new LetorOptions(groups, newYmax);
    }
}
