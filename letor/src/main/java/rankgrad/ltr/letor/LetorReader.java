package rankgrad.ltr.letor;

import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.FeatureSubset;
import rankgrad.ltr.data.Query;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads LETOR / SVMlight ranking files: one document per line,
 * {@code label qid:Q index:value ... # comment}, indices 1-based, sparse (missing = 0), a query's
 * lines contiguous; or grouped libsvm, {@code label index:value ...} without {@code qid:}, with
 * the group sizes in LightGBM's {@code FILE.query} or XGBoost's {@code FILE.group} beside the file
 * (or named in {@link LetorOptions#groups()}): the queries are the consecutive groups, their ids
 * 1, 2, ... Gzip-compressed files are recognized by their magic bytes; a UTF-8 byte-order mark is
 * skipped.
 *
 * <p>Everything malformed is rejected with a {@link LetorFormatException}, one line naming file,
 * line and problem: a label that is not a number, negative, above {@link #MAX_GRADE} or above the
 * options' ymax; a missing or empty {@code qid:}; a feature index that is not an ASCII integer
 * from 1 to {@link #MAX_FEATURES} or appears twice on a line; a value that is not a finite float32
 * number; a value missing after the colon; a query whose lines are not contiguous; a file without
 * data lines; group sizes that do not add up to the file's documents. Numbers use ASCII digits
 * only. A file that is not text (zip, bzip2, xz, UTF-16, binary data), damaged gzip data, a
 * directory or an unreadable file is named with what it is. Blank lines and comment-only lines are
 * skipped; white space is spaces, tabs, carriage returns, form feeds and vertical tabs.
 *
 * <p>Features are stored densely (every document has one float per index up to the largest), so
 * data whose dense size would exceed the JVM's memory is refused up front with the numbers.
 *
 * <p>Streaming: files are read line by line; {@link #stream} hands over each query as soon as its
 * last line is read, so files larger than memory can be scored.
 */
public final class LetorReader {
    /**
     * The largest grade read. The gain 2^y - 1 overflows float32 at y = 128 and loses integer
     * precision above y = 24; LightGBM's default gains stop at grade 30 and XGBoost's exponential
     * gain at 31.
     */
    public static final float MAX_GRADE = 31;

    /** The largest feature index read ({@link FeatureSubset#MAX_FEATURES}): every document gets one float per index. */
    public static final int MAX_FEATURES = FeatureSubset.MAX_FEATURES;

    /** The largest Java array. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;
    /**
     * A held query's objects beyond its arrays' contents (object headers, qid string, the query and
     * its lists), as estimated for the memory check; generous, so that millions of tiny queries are
     * refused before they exhaust the heap rather than after.
     */
    private static final double QUERY_BYTES = 512;

    /** Receives queries as they are read. */
    @FunctionalInterface
    public interface QuerySink {
        void accept(Query query) throws IOException;
    }

    /** Receives queries as they are read, with each document's comment. */
    @FunctionalInterface
    public interface CommentedQuerySink {
        /**
         * @param comments one per document: the text after {@code #} on its line, stripped (empty
         *     when the line has none), e.g. {@code docid = GX000-00-0000000 inc = 1}
         */
        void accept(Query query, List<String> comments) throws IOException;
    }

    /** Receives each query's grades and comments as they are read. */
    @FunctionalInterface
    public interface LabelSink {
        /** @param comments one per document, as {@link CommentedQuerySink} gets them */
        void accept(String qid, float[] labels, List<String> comments) throws IOException;
    }

    private LetorReader() {
    }

    /** Reads a whole file; the feature count is the largest index in the file. */
    public static Dataset read(Path file) throws IOException {
        return read(file, 0, LetorOptions.DEFAULT);
    }

    /**
     * Reads a whole file with at least {@code minFeatures} feature columns (more if the file uses
     * larger indices).
     */
    public static Dataset read(Path file, int minFeatures) throws IOException {
        return read(file, minFeatures, LetorOptions.DEFAULT);
    }

    /** Reads a whole file with at least {@code minFeatures} feature columns, as {@code options} say. */
    public static Dataset read(Path file, int minFeatures, LetorOptions options) throws IOException {
        return read(file, minFeatures, options, Runtime.getRuntime().maxMemory());
    }

    /** {@link #read(Path, int, LetorOptions)} as if the heap could grow to {@code maxMemory} bytes (tests). */
    static Dataset read(Path file, int minFeatures, LetorOptions options, long maxMemory) throws IOException {
        List<SparseQuery> sparse = new ArrayList<>();
        Parser p = new Parser(file, 0, options, true, sparse::add);
        p.maxMemory = maxMemory;
        p.run();
        int features = Math.max(p.maxIndex, minFeatures);
        checkDenseFits(file.toString(), p.documents, p.maxDocs, features, p.maxIndexLine, maxMemory);
        List<Query> queries = new ArrayList<>(sparse.size());
        for (int i = 0; i < sparse.size(); i++) {
            queries.add(sparse.get(i).densify(features));
            sparse.set(i, null);
        }
        return new Dataset(file.toString(), features, queries);
    }

    /**
     * Streams a file whose feature count is known (e.g. a model's input width): each query is
     * densified to {@code features} columns and handed to {@code sink}; an index above
     * {@code features} is an error.
     */
    public static void stream(Path file, int features, QuerySink sink) throws IOException {
        stream(file, features, LetorOptions.DEFAULT, sink);
    }

    /** {@link #stream(Path, int, QuerySink)} as {@code options} say. */
    public static void stream(Path file, int features, LetorOptions options, QuerySink sink) throws IOException {
        if (features < 1) {
            throw new IllegalArgumentException("features must be >= 1 for streaming, got " + features);
        }
        String name = file.toString();
        new Parser(file, features, options, false, q -> {
            if ((long) q.docs() * features > MAX_ARRAY) {
                throw new LetorFormatException(name, q.firstLine, "query " + q.qid + " has " + q.docs() + " documents of "
                        + features + " features, more floats than one Java array holds");
            }
            sink.accept(q.densify(features));
        }).run();
    }

    /**
     * As {@link #stream(Path, int, QuerySink)}, handing over each document's comment too (where
     * LETOR 4.0 and MQ2007 files name the document: {@code # docid = ...}).
     */
    public static void streamWithComments(Path file, int features, CommentedQuerySink sink) throws IOException {
        streamWithComments(file, features, LetorOptions.DEFAULT, false, sink);
    }

    /**
     * As {@link #streamWithComments(Path, int, CommentedQuerySink)}, as {@code options} say; with
     * {@code dropWider} the features above {@code features} are skipped instead of refused (a model
     * trained on a feature subset reads only its columns, so the rest of a wide file need not be held).
     */
    public static void streamWithComments(Path file, int features, LetorOptions options, boolean dropWider,
            CommentedQuerySink sink)
            throws IOException {
        if (features < 1) {
            throw new IllegalArgumentException("features must be >= 1 for streaming, got " + features);
        }
        String name = file.toString();
        Parser parser = new Parser(file, features, options, false, q -> {
            if ((long) q.docs() * features > MAX_ARRAY) {
                throw new LetorFormatException(name, q.firstLine, "query " + q.qid + " has " + q.docs() + " documents of "
                        + features + " features, more floats than one Java array holds");
            }
            sink.accept(q.densify(features), q.comments());
        });
        parser.keepComments = true;
        parser.dropWider = dropWider;
        parser.run();
    }

    /**
     * Streams each query's grades and comments without storing features (they are parsed and
     * checked like {@link #read}'s), for matching another system's scores to the file's grades.
     */
    public static void streamLabels(Path file, LetorOptions options, LabelSink sink) throws IOException {
        Parser parser = new Parser(file, 0, options, false, q -> sink.accept(q.qid, q.labels(), q.comments()));
        parser.keepComments = true;
        parser.run();
    }

    /**
     * Refuses data whose dense form cannot be allocated: more floats in one query than a Java array
     * holds, or more bytes in all than {@code maxMemory}. The message names the line of the largest
     * feature index, which is what usually makes the data wide.
     */
    static void checkDenseFits(String name, long documents, int maxDocs, int features, long maxIndexLine, long maxMemory)
            throws LetorFormatException {
        double bytes = 4.0 * documents * features;
        if ((long) maxDocs * features > MAX_ARRAY || bytes > maxMemory) {
            throw new LetorFormatException(name, maxIndexLine, String.format(Locale.ROOT,
                    "%d documents of %d features (the largest feature index) take %s as dense float32, more than the %s"
                            + " this JVM may use; features are stored densely, so number them compactly from 1 (or raise -Xmx)",
                    documents, features, size(bytes), size(maxMemory)));
        }
    }

    private static String size(double bytes) {
        return bytes >= 1e9 ? String.format(Locale.ROOT, "%.1f GB", bytes / 1e9) : String.format(Locale.ROOT, "%.0f MB", bytes / 1e6);
    }

    /** White space between fields. */
    static boolean isSpace(byte c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == 0x0b;
    }

    private interface SparseSink {
        void accept(SparseQuery q) throws IOException;
    }

    /** One pass over one file. */
    private static final class Parser {
        private static final byte[] QID = "qid:".getBytes(StandardCharsets.US_ASCII);

        private final Path file;
        private final String name;
        private final int maxFeatures;
        private final LetorOptions options;
        private final SparseSink sink;
        private final Map<String, Long> finished = new HashMap<>();
        private int[] idx = new int[64];
        private float[] val = new float[64];
        private boolean modeKnown;
        private GroupFile groups;
        private int group = -1;
        private int leftInGroup;
        private long excess = -1;
        private SparseQuery current;
        /** Whether each document keeps the text after '#' on its line. */
        private boolean keepComments;
        /** Whether indices above maxFeatures are dropped (by densify) rather than refused. */
        private boolean dropWider;
        private byte[] currentQid = new byte[16];
        private int currentQidLength = -1;
        private long lastLine;
        /** The largest feature index (1-based) and the first line holding it. */
        private int maxIndex;
        private long maxIndexLine;
        /** Documents and the most documents in one query, over the queries handed to the sink. */
        private long documents;
        private int maxDocs;

        /** Whether the sink keeps every query (a whole-file read) rather than one at a time. */
        private final boolean holdsAll;
        /** Documents and feature values held now: all so far when {@link #holdsAll}, else the current query's. */
        private long heldDocs;
        private long heldValues;
        private long heldQueries;
        /** The heap this JVM may grow to, what the held data are checked against. */
        private long maxMemory = Runtime.getRuntime().maxMemory();

        private Parser(Path file, int maxFeatures, LetorOptions options, boolean holdsAll, SparseSink sink) {
            this.holdsAll = holdsAll;
            this.file = file;
            this.name = file.toString();
            this.maxFeatures = maxFeatures;
            this.options = options;
            this.sink = sink;
        }

        void run() throws IOException {
            try (ByteLines lines = ByteLines.open(file)) {
                try {
                    while (lines.next()) {
                        line(lines.bytes(), lines.start(), lines.end(), lines.line());
                    }
                } catch (LetorFormatException e) {
                    String damage = e.file().equals(name) && e.line() == lines.line() ? lines.damageAhead() : null;
                    if (damage != null) {
                        throw new LetorFormatException(name, e.line(), damage + ", so this line reads wrong: " + e.problem());
                    }
                    throw e;
                }
            }
            if (excess >= 0) {
                throw groupMismatch(documents + current.docs() + excess);
            }
            if (current == null) {
                throw new LetorFormatException(name, 0, "the file has no data lines");
            }
            if (groups != null && (group < groups.sizes().length - 1 || leftInGroup > 0)) {
                throw groupMismatch(documents + current.docs());
            }
            finish();
        }

        private void line(byte[] b, int from, int to, long line) throws IOException {
            int p = skipSpace(b, from, to);
            if (p == to || b[p] == '#') {
                return;
            }
            if (excess >= 0) {
                excess++;
                return;
            }
            int labelEnd = tokenEnd(b, p, to);
            float label = label(b, p, labelEnd, line);
            p = skipSpace(b, labelEnd, to);
            boolean more = p < to && b[p] != '#';
            int second = p;
            int secondEnd = more ? tokenEnd(b, p, to) : p;
            boolean hasQid = more && startsWith(b, second, secondEnd, QID);
            if (!modeKnown) {
                chooseMode(hasQid, more, b, second, secondEnd, line);
            }
            if (groups == null) {
                if (!more) {
                    throw new LetorFormatException(name, line, "truncated line: expected 'label qid:<id> index:value ...'");
                }
                if (!hasQid || secondEnd - second == QID.length) {
                    throw new LetorFormatException(name, line, "expected qid:<id> as the second field, found '"
                            + Printable.of(b, second, secondEnd) + "'");
                }
                p = secondEnd;
            } else if (hasQid) {
                throw new LetorFormatException(name, line, "a qid: field in a file whose queries come from the group sizes in "
                        + groups.file() + "; use one or the other");
            }
            int n = features(b, p, to, line);
            if (groups == null) {
                int qidFrom = second + QID.length;
                if (current == null || !Arrays.equals(currentQid, 0, currentQidLength, b, qidFrom, secondEnd)) {
                    startQuery(qid(b, qidFrom, secondEnd, line), line);
                    remember(b, qidFrom, secondEnd);
                }
            } else {
                if (leftInGroup == 0) {
                    if (group + 1 == groups.sizes().length) {
                        excess = 1;
                        return;
                    }
                    group++;
                    leftInGroup = groups.sizes()[group];
                    startQuery(Integer.toString(group + 1), line);
                }
                leftInGroup--;
            }
            current.add(label, idx, val, n);
            checkMemory(n, line);
            if (keepComments) {
                current.addComment(comment(b, from, to));
            }
            lastLine = line;
        }

        /**
         * Refuses, at the line that crosses it, a query over the options' limit of documents, or data
         * whose held form would not fit the heap: the sparse pairs as read (an int index and a float
         * value, up to three times that while an array grows into its double), a label and an offset
         * per document (as much again while growing), each query's objects, and the dense float32
         * rows they become. Checked while reading, so that a huge input ends in
         * one line instead of an OutOfMemoryError after minutes.
         */
        private void checkMemory(int values, long line) throws LetorFormatException {
            if (current.docs() > options.maxQueryDocuments()) {
                throw new LetorFormatException(name, line, String.format(Locale.ROOT, "query %s has more than %d documents,"
                        + " the limit per query; split the query, or raise the limit with -D%s=N (RANKGRAD_JAVA_OPTS="
                        + "-D%s=N ./rankgrad ...) and the heap with it", current.qid, options.maxQueryDocuments(),
                        LetorOptions.MAX_QUERY_DOCUMENTS_PROPERTY, LetorOptions.MAX_QUERY_DOCUMENTS_PROPERTY));
            }
            if (current.docs() == 1) {
                heldQueries++;
            }
            heldDocs++;
            heldValues += values;
            if ((heldDocs & 1023) != 0) {
                return;
            }
            double bytes = 24.0 * heldValues + 16.0 * heldDocs + QUERY_BYTES * heldQueries
                    + 4.0 * heldDocs * Math.max(maxIndex, maxFeatures);
            if (bytes > maxMemory) {
                throw new LetorFormatException(name, line, String.format(Locale.ROOT, "%d documents%s read so far (%d"
                        + " feature values) need about %s of memory, more than this JVM's heap of at most %s; raise the heap"
                        + " (RANKGRAD_JAVA_OPTS=-Xmx<size> ./rankgrad ..., or java -Xmx<size>) or split the data",
                        heldDocs, holdsAll ? "" : " of query " + current.qid, heldValues, size(bytes), size(maxMemory)));
            }
        }

        private void chooseMode(boolean hasQid, boolean more, byte[] b, int second, int secondEnd, long line) throws IOException {
            modeKnown = true;
            if (hasQid) {
                if (options.groups() != null) {
                    throw new LetorFormatException(name, line, "the lines have qid: fields, and group sizes were given in "
                            + options.groups() + "; use one or the other");
                }
                return;
            }
            Path g = options.groups() != null ? options.groups() : GroupFile.beside(file);
            if (g != null) {
                groups = GroupFile.read(g);
            } else if (more) {
                throw new LetorFormatException(name, line, "expected qid:<id> as the second field, found '"
                        + Printable.of(b, second, secondEnd) + "'; a libsvm file without qid: needs its group sizes (one"
                        + " per line) in " + file.getFileName() + ".query or " + file.getFileName() + ".group beside it"
                        + " (the LightGBM / XGBoost layout)");
            }
        }

        private float label(byte[] b, int from, int to, long line) throws LetorFormatException {
            float label = number(b, from, to, line, "label");
            if (label < 0) {
                throw new LetorFormatException(name, line, "label " + Printable.of(b, from, to) + " is negative; grades must be >= 0");
            }
            if (label > MAX_GRADE) {
                throw new LetorFormatException(name, line, "label " + Printable.of(b, from, to) + " is above " + (int) MAX_GRADE
                        + ", the largest grade read (the gain 2^y - 1 overflows float32 at y = 128; LightGBM's and XGBoost's"
                        + " exponential gains stop at 30 and 31)");
            }
            if (label > options.ymax()) {
                throw new LetorFormatException(name, line, "label " + Printable.of(b, from, to)
                        + " is above the grade scale's maximum ymax = " + format(options.ymax())
                        + " (ERR's R(y) = (2^y - 1) / 2^ymax needs y <= ymax); set ymax to the data's largest grade");
            }
            return label;
        }

        /** Parses the index:value pairs from {@code p} into idx/val; returns their count. */
        private int features(byte[] b, int p, int to, long line) throws LetorFormatException {
            int n = 0;
            boolean ascending = true;
            while (true) {
                p = skipSpace(b, p, to);
                if (p == to || b[p] == '#') {
                    break;
                }
                int from = p;
                int end = tokenEnd(b, p, to);
                p = end;
                int colon = from;
                while (colon < end && b[colon] != ':') {
                    colon++;
                }
                if (colon == end) {
                    throw new LetorFormatException(name, line, "feature '" + Printable.of(b, from, end) + "' is not index:value");
                }
                int index = index(b, from, colon, line);
                if (colon == end - 1) {
                    throw new LetorFormatException(name, line, "feature " + index + " has no value (truncated line?)");
                }
                float v = number(b, colon + 1, end, line, "value of feature " + index);
                if (n == idx.length) {
                    idx = Arrays.copyOf(idx, 2 * n);
                    val = Arrays.copyOf(val, 2 * n);
                }
                if (n > 0 && index <= idx[n - 1] + 1) {
                    if (index == idx[n - 1] + 1) {
                        throw new LetorFormatException(name, line, "feature index " + index + " appears twice");
                    }
                    ascending = false;
                }
                idx[n] = index - 1;
                val[n] = v;
                n++;
                if (index > maxIndex) {
                    maxIndex = index;
                    maxIndexLine = line;
                }
            }
            if (!ascending) {
                checkNoDuplicates(n, line);
            }
            return n;
        }

        private int index(byte[] b, int from, int to, long line) throws LetorFormatException {
            long index = AsciiNumbers.parseIndex(b, from, to);
            if (index == AsciiNumbers.NOT_AN_INTEGER) {
                throw new LetorFormatException(name, line, "feature index '" + Printable.of(b, from, to) + "' is not an integer >= 1"
                        + Printable.nonAsciiDigitHint(b, from, to));
            }
            if (index == 0) {
                throw new LetorFormatException(name, line, "feature index 0: indices are 1-based (scikit-learn writes 1-based"
                        + " files with dump_svmlight_file(..., zero_based=False))");
            }
            if (maxFeatures > 0 && index > maxFeatures && !dropWider) {
                throw new LetorFormatException(name, line, "feature index " + shown(index, b, from, to) + " exceeds the "
                        + maxFeatures + " features expected");
            }
            if (index > MAX_FEATURES) {
                throw new LetorFormatException(name, line, "feature index " + shown(index, b, from, to) + " is above " + MAX_FEATURES
                        + " (2^20), the largest read: features are stored densely, one float per index up to the largest;"
                        + " number them compactly from 1");
            }
            return (int) index;
        }

        /** An index as an error message shows it; made only for the message (formatting every index showed in profiles). */
        private static String shown(long index, byte[] b, int from, int to) {
            return index == AsciiNumbers.TOO_LARGE ? Printable.of(b, from, to) : Long.toString(index);
        }

        private float number(byte[] b, int from, int to, long line, String what) throws LetorFormatException {
            float v = AsciiNumbers.parseFloat(b, from, to);
            if (Float.isNaN(v)) {
                throw new LetorFormatException(name, line, what + " '" + Printable.of(b, from, to) + "' is not a number"
                        + Printable.nonAsciiDigitHint(b, from, to));
            }
            if (Float.isInfinite(v)) {
                throw new LetorFormatException(name, line, what + " " + Printable.of(b, from, to) + " is not finite in float32");
            }
            return v;
        }

        private String qid(byte[] b, int from, int to, long line) throws LetorFormatException {
            boolean ascii = true;
            for (int i = from; i < to; i++) {
                int c = b[i] & 0xff;
                if (c < 0x20 || c == 0x7f) {
                    throw new LetorFormatException(name, line, "qid '" + Printable.of(b, from, to)
                            + "' holds a control character (binary data?)");
                }
                ascii &= c < 0x80;
            }
            if (ascii) {
                return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
            }
            String s = Printable.strictUtf8(b, from, to);
            if (s == null) {
                throw new LetorFormatException(name, line, "qid '" + Printable.of(b, from, to) + "' is not UTF-8 text");
            }
            return s;
        }

        private void remember(byte[] b, int from, int to) {
            int n = to - from;
            if (currentQid.length < n) {
                currentQid = new byte[n];
            }
            System.arraycopy(b, from, currentQid, 0, n);
            currentQidLength = n;
        }

        private void startQuery(String qid, long line) throws IOException {
            if (current != null) {
                finished.put(current.qid, lastLine);
                finish();
            }
            Long earlierEnd = finished.get(qid);
            if (earlierEnd != null) {
                throw new LetorFormatException(name, line, "qid " + qid + " appears again after other queries (its earlier"
                        + " lines end at line " + earlierEnd + "); a query's lines must be contiguous: sort the file by qid");
            }
            current = new SparseQuery(qid, line);
        }

        private void finish() throws IOException {
            if (holdsAll) {
                current.trim();
            } else {
                heldDocs = 0;
                heldValues = 0;
                heldQueries = 0;
            }
            documents += current.docs();
            maxDocs = Math.max(maxDocs, current.docs());
            sink.accept(current);
        }

        private LetorFormatException groupMismatch(long dataDocuments) {
            return new LetorFormatException(name, 0, String.format(Locale.ROOT,
                    "%d documents, but the group sizes in %s add up to %d (%d groups); the two files must describe the same"
                            + " documents in the same order", dataDocuments, groups.file(), groups.documents(), groups.sizes().length));
        }

        private void checkNoDuplicates(int n, long line) throws LetorFormatException {
            int[] sorted = Arrays.copyOf(idx, n);
            Arrays.sort(sorted);
            for (int t = 1; t < n; t++) {
                if (sorted[t] == sorted[t - 1]) {
                    throw new LetorFormatException(name, line, "feature index " + (sorted[t] + 1) + " appears twice");
                }
            }
        }
    }

    /** The text after the first '#' of the line, stripped; empty when there is none. */
    private static String comment(byte[] b, int from, int to) {
        for (int p = from; p < to; p++) {
            if (b[p] == '#') {
                return new String(b, p + 1, to - p - 1, StandardCharsets.UTF_8).strip();
            }
        }
        return "";
    }

    private static int skipSpace(byte[] b, int p, int to) {
        while (p < to && isSpace(b[p])) {
            p++;
        }
        return p;
    }

    /** The end of the field starting at {@code p}: the next white space or comment sign. */
    private static int tokenEnd(byte[] b, int p, int to) {
        while (p < to && !isSpace(b[p]) && b[p] != '#') {
            p++;
        }
        return p;
    }

    private static boolean startsWith(byte[] b, int from, int to, byte[] prefix) {
        return to - from >= prefix.length && Arrays.equals(b, from, from + prefix.length, prefix, 0, prefix.length);
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
