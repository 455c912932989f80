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
 * @param maxQueryDocuments the most documents one query may have: a query with more is refused
 *        while it is read, naming file and line, before it can exhaust memory (one query is scored,
 *        and its losses formed, as a whole)
 */
public record LetorOptions(Path groups, double ymax, int maxQueryDocuments) {

    /**
     * The default limit of documents per query: 1,000,000, five times the largest query we have
     * seen asked for (200,000 documents); the system property {@value #MAX_QUERY_DOCUMENTS_PROPERTY}
     * sets another for {@link #DEFAULT} (with the command line, in {@code RANKGRAD_JAVA_OPTS}).
     */
    public static final int DEFAULT_MAX_QUERY_DOCUMENTS = 1_000_000;

    /** The system property that overrides {@link #DEFAULT_MAX_QUERY_DOCUMENTS} in {@link #DEFAULT}. */
    public static final String MAX_QUERY_DOCUMENTS_PROPERTY = "rankgrad.maxQueryDocuments";

    /**
     * Group sizes looked for beside the data; grades checked against {@link LetorReader#MAX_GRADE}
     * only; at most {@link #DEFAULT_MAX_QUERY_DOCUMENTS} documents per query (or the system
     * property's value).
     */
    public static final LetorOptions DEFAULT = new LetorOptions(null, Double.POSITIVE_INFINITY,
            Integer.getInteger(MAX_QUERY_DOCUMENTS_PROPERTY, DEFAULT_MAX_QUERY_DOCUMENTS));

    public LetorOptions {
        if (!(ymax > 0)) {
            throw new IllegalArgumentException("ymax (the grade scale's maximum) must be > 0, got " + ymax);
        }
        if (maxQueryDocuments < 1) {
            throw new IllegalArgumentException("the limit of documents per query must be >= 1, got " + maxQueryDocuments
                    + " (" + MAX_QUERY_DOCUMENTS_PROPERTY + ")");
        }
    }

    /** Options with the default limit of documents per query. */
    public LetorOptions(Path groups, double ymax) {
        this(groups, ymax, DEFAULT.maxQueryDocuments());
    }

    /** The same options reading group sizes from {@code file} (null: look beside the data). */
    public LetorOptions withGroups(Path file) {
        return new LetorOptions(file, ymax, maxQueryDocuments);
    }

    /** The same options refusing labels above {@code newYmax}. */
    public LetorOptions withYmax(double newYmax) {
        return new LetorOptions(groups, newYmax, maxQueryDocuments);
    }

    /** The same options refusing a query of more than {@code documents} documents. */
    public LetorOptions withMaxQueryDocuments(int documents) {
        return new LetorOptions(groups, ymax, documents);
    }
}
