package rankgrad.spark;

import java.io.Serializable;
import java.util.List;
import rankgrad.ltr.letor.LetorOptions;

/**
 * What {@link QueryFrames#readLetor} reads and how.
 *
 * <pre>{@code
 * LetorInput in = LetorInput.of("hdfs:///letor/test.txt.gz").withWidth(scorer.features());
 * }</pre>
 *
 * @param paths files, directories (their files, by name) or globs, local or any Hadoop file system;
 *        gzip recognized by its magic bytes
 * @param width feature columns per document; 0 to use the largest feature index in the data
 *        (one more pass over it)
 * @param ymax the grade scale's maximum: a label above it fails naming file and line
 *        ({@link Double#POSITIVE_INFINITY}: only {@code LetorReader.MAX_GRADE})
 * @param dropWider skip feature indices above {@code width} instead of refusing them (a model
 *        trained on a feature subset reads its columns only, as {@code predict} does)
 * @param docIdKey the comment key naming documents ({@code KEY = VALUE}), or null for
 *        {@code docid} where the file's first document has it, else positions (as {@code predict})
 * @param splitBytes the most bytes of one file one first-pass task scans; 0 for the session's
 *        {@code spark.sql.files.maxPartitionBytes}. Queries are never cut: a query belongs to the
 *        split where its first line starts.
 */
public record LetorInput(List<String> paths, int width, double ymax, boolean dropWider, String docIdKey,
        long splitBytes) implements Serializable {

    public LetorInput {
        paths = List.copyOf(paths);
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("no input path");
        }
        if (width < 0) {
            throw new IllegalArgumentException("width must be >= 0 (0: from the data), got " + width);
        }
        if (splitBytes < 0) {
            throw new IllegalArgumentException("splitBytes must be >= 0 (0: the session's), got " + splitBytes);
        }
        new LetorOptions(null, ymax);
    }

    /** The paths, width from the data, no grade limit, {@code docid} comments, the session's split size. */
    public static LetorInput of(String... paths) {
        return new LetorInput(List.of(paths), 0, Double.POSITIVE_INFINITY, false, null, 0);
    }

    /** The same input densified to {@code newWidth} columns. */
    public LetorInput withWidth(int newWidth) {
        return new LetorInput(paths, newWidth, ymax, dropWider, docIdKey, splitBytes);
    }

    /** The same input refusing grades above {@code newYmax}. */
    public LetorInput withYmax(double newYmax) {
        return new LetorInput(paths, width, newYmax, dropWider, docIdKey, splitBytes);
    }

    /** The same input skipping (true) or refusing feature indices above the width. */
    public LetorInput withDropWider(boolean drop) {
        return new LetorInput(paths, width, ymax, drop, docIdKey, splitBytes);
    }

    /** The same input naming documents by comment key {@code key}. */
    public LetorInput withDocIdKey(String key) {
        return new LetorInput(paths, width, ymax, dropWider, key, splitBytes);
    }

    /** The same input scanned in splits of at most {@code bytes}. */
    public LetorInput withSplitBytes(long bytes) {
        return new LetorInput(paths, width, ymax, dropWider, docIdKey, bytes);
    }

    LetorOptions options() {
        return LetorOptions.DEFAULT.withYmax(ymax);
    }
}
