package rankgrad.ltr.data;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;

/**
 * The feature columns a model reads, as RankLib's {@code -feature} and LightGBM's
 * {@code ignore_column} choose them: LETOR feature ids (1-based), ascending, each once. A model
 * with a subset reads rows of at least {@link #width()} raw features (the highest id) and feeds
 * its network only the chosen columns, in id order: x' = (x[id_1 - 1], ..., x[id_k - 1]).
 *
 * <p>Written as a list or ranges ({@code 1-10,15}) or as a file of one id (or range) per line,
 * {@code #} starting a comment, as RankLib's feature files are. {@link #all(int)} is every column
 * of a width: a model trained without a subset, which reads rows of exactly that width; a chosen
 * subset, even {@code 1-4}, reads the first columns of rows that may be wider.
 */
public final class FeatureSubset {
    private final int[] ids;
    private final boolean all;

    private FeatureSubset(int[] ids, boolean all) {
        this.ids = ids;
        this.all = all;
    }

    /** Every feature 1..width, in order. */
    public static FeatureSubset all(int width) {
        if (width < 1) {
            throw new IllegalArgumentException("a model reads at least one feature, got " + width);
        }
        int[] ids = new int[width];
        Arrays.setAll(ids, i -> i + 1);
        return new FeatureSubset(ids, true);
    }

    /** The given 1-based ids (sorted here); throws on an empty list, an id below 1 or a repeated id. */
    public static FeatureSubset of(int... ids) {
        TreeSet<Integer> set = new TreeSet<>();
        for (int id : ids) {
            if (id < 1 || id > LetorReader.MAX_FEATURES) {
                throw new IllegalArgumentException("feature ids run from 1 to " + LetorReader.MAX_FEATURES + ", got " + id);
            }
            if (!set.add(id)) {
                throw new IllegalArgumentException("feature " + id + " is named twice");
            }
        }
        if (set.isEmpty()) {
            throw new IllegalArgumentException("no feature chosen");
        }
        return new FeatureSubset(set.stream().mapToInt(Integer::intValue).toArray(), false);
    }

    /**
     * Parses {@code 1-10,15}: comma-separated ids and inclusive ranges {@code a-b}; errors quote
     * the text and say what is wrong.
     */
    public static FeatureSubset parse(String text) {
        return of(parseIds(text, "'" + text + "'"));
    }

    /**
     * Reads a RankLib feature file: one id (or list or range) per line, {@code #} to the end of a
     * line a comment, blank lines skipped; errors name the file and line.
     */
    public static FeatureSubset read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        int[] ids = new int[0];
        for (int n = 0; n < lines.size(); n++) {
            String line = lines.get(n);
            int hash = line.indexOf('#');
            String content = (hash < 0 ? line : line.substring(0, hash)).strip();
            if (content.isEmpty()) {
                continue;
            }
            int[] more = parseIds(content, file + " line " + (n + 1));
            int at = ids.length;
            ids = Arrays.copyOf(ids, at + more.length);
            System.arraycopy(more, 0, ids, at, more.length);
        }
        if (ids.length == 0) {
            throw new IllegalArgumentException(file + " names no feature (one id per line, # for comments)");
        }
        try {
            return of(ids);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    private static int[] parseIds(String text, String where) {
        int[] out = new int[0];
        for (String token : text.split(",", -1)) {
            String t = token.strip();
            int dash = t.indexOf('-', 1);
            int from = number(dash < 0 ? t : t.substring(0, dash), where);
            int to = dash < 0 ? from : number(t.substring(dash + 1), where);
            if (to < from) {
                throw new IllegalArgumentException("reversed range '" + t + "' in " + where + "; write " + to + "-" + from);
            }
            if ((long) out.length + to - from + 1 > LetorReader.MAX_FEATURES) {
                throw new IllegalArgumentException("more than " + LetorReader.MAX_FEATURES + " features in " + where);
            }
            int at = out.length;
            out = Arrays.copyOf(out, at + to - from + 1);
            for (int id = from; id <= to; id++) {
                out[at + id - from] = id;
            }
        }
        return out;
    }

    private static int number(String s, String where) {
        String t = s.strip();
        if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException(where + " is not a feature list: '" + t + "' is not a feature id;"
                    + " write ids and ranges such as 1-10,15");
        }
        int id = Integer.parseInt(t);
        if (id < 1) {
            throw new IllegalArgumentException("feature ids start at 1, got " + id + " in " + where);
        }
        return id;
    }

    /** The chosen ids, ascending (a copy). */
    public int[] ids() {
        return ids.clone();
    }

    /** Number of chosen features: the network's input width. */
    public int size() {
        return ids.length;
    }

    /** The highest chosen id: raw features a row must have. */
    public int width() {
        return ids[ids.length - 1];
    }

    /** Whether this is {@link #all(int)}: no selection, rows of exactly {@link #width()} features. */
    public boolean isAll() {
        return all;
    }

    /** The chosen columns of one query's raw rows (at least {@link #width()} features). */
    public Query apply(Query q) {
        requireWidth(q.features(), "query " + q.qid());
        if (q.features() == ids.length) {
            return q;
        }
        float[] x = new float[q.docs() * ids.length];
        float[] src = q.x();
        for (int d = 0; d < q.docs(); d++) {
            int row = d * q.features();
            for (int j = 0; j < ids.length; j++) {
                x[d * ids.length + j] = src[row + ids[j] - 1];
            }
        }
        return new Query(q.qid(), ids.length, x, q.labels());
    }

    /** The chosen columns of every query. */
    public Dataset apply(Dataset data) {
        requireWidth(data.features(), data.name());
        if (data.features() == ids.length) {
            return data;
        }
        return new Dataset(data.name(), ids.length, data.queries().stream().map(this::apply).toList());
    }

    private void requireWidth(int given, String what) {
        if (given < width()) {
            throw new IllegalArgumentException(what + " has " + given + " features but feature " + width() + " is chosen");
        }
    }

    /** The ids in the shortest list-and-ranges form, e.g. {@code 1-10,15}; {@link #parse} reads it back. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ids.length; ) {
            int j = i;
            while (j + 1 < ids.length && ids[j + 1] == ids[j] + 1) {
                j++;
            }
            if (b.length() > 0) {
                b.append(',');
            }
            b.append(ids[i]);
            if (j > i) {
                b.append('-').append(ids[j]);
            }
            i = j + 1;
        }
        return b.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FeatureSubset f && all == f.all && Arrays.equals(ids, f.ids);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ids) * 2 + (all ? 1 : 0);
    }
}
