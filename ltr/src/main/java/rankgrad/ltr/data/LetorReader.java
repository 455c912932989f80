package rankgrad.ltr.data;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;

/**
 * Reads LETOR / SVMlight ranking files: one document per line,
 * {@code label qid:Q index:value ... # comment}, indices 1-based, sparse (missing = 0), a query's
 * lines contiguous. Gzip-compressed files are recognized by their magic bytes.
 *
 * <p>Everything malformed is rejected with a {@link LetorFormatException} naming file, line and
 * problem: a label that is not a finite number >= 0, a missing or empty {@code qid:}, a feature
 * index that is not an integer >= 1 or appears twice on a line, a value that is not a finite
 * number, a value missing after the colon, a query whose lines are not contiguous, a file without
 * data lines. Blank lines and comment-only lines are skipped.
 *
 * <p>Streaming: files are read line by line; {@link #stream} hands over each query as soon as its
 * last line is read, so files larger than memory can be scored.
 */
public final class LetorReader {

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

    private LetorReader() {
    }

    /** Reads a whole file; the feature count is the largest index in the file. */
    public static Dataset read(Path file) throws IOException {
        return read(file, 0);
    }

    /**
     * Reads a whole file with at least {@code minFeatures} feature columns (more if the file uses
     * larger indices).
     */
    public static Dataset read(Path file, int minFeatures) throws IOException {
        List<SparseQuery> sparse = new ArrayList<>();
        int max = parse(file, 0, false, sparse::add);
        int features = Math.max(max, minFeatures);
        List<Query> queries = new ArrayList<>(sparse.size());
        for (SparseQuery q : sparse) {
            queries.add(q.densify(features));
        }
        return new Dataset(file.toString(), features, queries);
    }

    /**
     * Streams a file whose feature count is known (e.g. a model's input width): each query is
     * densified to {@code features} columns and handed to {@code sink}; an index above
     * {@code features} is an error.
     */
    public static void stream(Path file, int features, QuerySink sink) throws IOException {
        if (features < 1) {
            throw new IllegalArgumentException("features must be >= 1 for streaming, got " + features);
        }
        parse(file, features, false, q -> sink.accept(q.densify(features)));
    }

    /**
     * As {@link #stream(Path, int, QuerySink)}, handing over each document's comment too (where
     * LETOR 4.0 and MQ2007 files name the document: {@code # docid = ...}).
     */
    public static void streamWithComments(Path file, int features, CommentedQuerySink sink) throws IOException {
        if (features < 1) {
            throw new IllegalArgumentException("features must be >= 1 for streaming, got " + features);
        }
        parse(file, features, true, q -> sink.accept(q.densify(features), List.copyOf(q.comments)));
    }

    private interface SparseSink {
        void accept(SparseQuery q) throws IOException;
    }

    /** One query's documents as read: per document the indices (0-based) and values. */
    private static final class SparseQuery {
        final String qid;
        final List<int[]> idx = new ArrayList<>();
        final List<float[]> val = new ArrayList<>();
        /** Each document's comment, kept only when the caller asked for comments. */
        final List<String> comments = new ArrayList<>();
        float[] labels = new float[8];

        SparseQuery(String qid) {
            this.qid = qid;
        }

        void add(float label, int[] i, float[] v, String comment) {
            if (idx.size() == labels.length) {
                labels = Arrays.copyOf(labels, labels.length * 2);
            }
            labels[idx.size()] = label;
            idx.add(i);
            val.add(v);
            if (comment != null) {
                comments.add(comment);
            }
        }

        Query densify(int features) {
            int m = idx.size();
            float[] x = new float[m * features];
            for (int d = 0; d < m; d++) {
                int[] i = idx.get(d);
                float[] v = val.get(d);
                for (int t = 0; t < i.length; t++) {
                    x[d * features + i[t]] = v[t];
                }
            }
            return new Query(qid, features, x, Arrays.copyOf(labels, m));
        }
    }

    /** Parses the file, returns the largest feature index seen (1-based). */
    private static int parse(Path file, int maxFeatures, boolean keepComments, SparseSink sink) throws IOException {
        String name = file.toString();
        Map<String, Long> finished = new HashMap<>();
        SparseQuery current = null;
        long lastLine = 0;
        long line = 0;
        int maxIndex = 0;
        int[] idxBuf = new int[64];
        float[] valBuf = new float[64];
        try (BufferedReader in = open(file)) {
            String text;
            while ((text = in.readLine()) != null) {
                line++;
                int hash = text.indexOf('#');
                String body = (hash >= 0 ? text.substring(0, hash) : text).strip();
                if (body.isEmpty()) {
                    continue;
                }
                String[] tok = body.split("\\s+");
                float label = parseNumber(tok[0], name, line, "label");
                if (label < 0) {
                    throw new LetorFormatException(name, line, "label " + tok[0] + " is negative; grades must be >= 0");
                }
                if (tok.length < 2) {
                    throw new LetorFormatException(name, line, "truncated line: expected 'label qid:<id> index:value ...'");
                }
                if (!tok[1].startsWith("qid:") || tok[1].length() == 4) {
                    throw new LetorFormatException(name, line, "expected qid:<id> as the second field, found '" + tok[1] + "'");
                }
                String qid = tok[1].substring(4);
                int n = tok.length - 2;
                if (idxBuf.length < n) {
                    idxBuf = new int[n];
                    valBuf = new float[n];
                }
                boolean ascending = true;
                for (int t = 0; t < n; t++) {
                    String f = tok[t + 2];
                    int colon = f.indexOf(':');
                    if (colon < 0) {
                        throw new LetorFormatException(name, line, "feature '" + f + "' is not index:value");
                    }
                    int index = parseIndex(f.substring(0, colon), name, line);
                    if (maxFeatures > 0 && index > maxFeatures) {
                        throw new LetorFormatException(name, line, "feature index " + index + " exceeds the " + maxFeatures
                                + " features expected");
                    }
                    if (colon == f.length() - 1) {
                        throw new LetorFormatException(name, line, "feature " + index + " has no value (truncated line?)");
                    }
                    float v = parseNumber(f.substring(colon + 1), name, line, "value of feature " + index);
                    if (t > 0 && index <= idxBuf[t - 1] + 1) {
                        if (index == idxBuf[t - 1] + 1) {
                            throw new LetorFormatException(name, line, "feature index " + index + " appears twice");
                        }
                        ascending = false;
                    }
                    idxBuf[t] = index - 1;
                    valBuf[t] = v;
                    maxIndex = Math.max(maxIndex, index);
                }
                if (!ascending) {
                    checkNoDuplicates(idxBuf, n, name, line);
                }
                if (current == null || !current.qid.equals(qid)) {
                    if (current != null) {
                        finished.put(current.qid, lastLine);
                        sink.accept(current);
                    }
                    Long earlierEnd = finished.get(qid);
                    if (earlierEnd != null) {
                        throw new LetorFormatException(name, line, "qid " + qid + " appears again after other queries (its earlier"
                                + " lines end at line " + earlierEnd + "); a query's lines must be contiguous: sort the file by qid");
                    }
                    current = new SparseQuery(qid);
                }
                current.add(label, Arrays.copyOf(idxBuf, n), Arrays.copyOf(valBuf, n),
                        keepComments ? (hash >= 0 ? text.substring(hash + 1).strip() : "") : null);
                lastLine = line;
            }
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(name, null, "no such file");
        }
        if (current == null) {
            throw new LetorFormatException(name, 0, "the file has no data lines");
        }
        sink.accept(current);
        return maxIndex;
    }

    private static BufferedReader open(Path file) throws IOException {
        InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
        raw.mark(2);
        int b0 = raw.read();
        int b1 = raw.read();
        raw.reset();
        InputStream in = b0 == 0x1f && b1 == 0x8b ? new GZIPInputStream(raw, 1 << 16) : raw;
        return new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8), 1 << 16);
    }

    private static void checkNoDuplicates(int[] idx, int n, String name, long line) throws LetorFormatException {
        int[] sorted = Arrays.copyOf(idx, n);
        Arrays.sort(sorted);
        for (int t = 1; t < n; t++) {
            if (sorted[t] == sorted[t - 1]) {
                throw new LetorFormatException(name, line, "feature index " + (sorted[t] + 1) + " appears twice");
            }
        }
    }

    private static int parseIndex(String s, String name, long line) throws LetorFormatException {
        if (s.isEmpty() || s.length() > 9 || !s.chars().allMatch(Character::isDigit)) {
            throw new LetorFormatException(name, line, "feature index '" + s + "' is not an integer >= 1");
        }
        int index = Integer.parseInt(s);
        if (index == 0) {
            throw new LetorFormatException(name, line, "feature index 0: indices are 1-based");
        }
        return index;
    }

    /** A decimal number (digits, sign, point, exponent); NaN, Infinity and overflow are rejected. */
    private static float parseNumber(String s, String name, long line, String what) throws LetorFormatException {
        boolean digit = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9') {
                digit = true;
            } else if (c != '.' && c != '-' && c != '+' && c != 'e' && c != 'E') {
                digit = false;
                break;
            }
        }
        float v;
        try {
            v = digit ? Float.parseFloat(s) : Float.NaN;
        } catch (NumberFormatException e) {
            v = Float.NaN;
            digit = false;
        }
        if (!digit) {
            throw new LetorFormatException(name, line, what + " '" + s + "' is not a number");
        }
        if (!Float.isFinite(v)) {
            throw new LetorFormatException(name, line, what + " " + s + " is not finite in float32");
        }
        return v;
    }
}
