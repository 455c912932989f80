package rankgrad.ltr.eval;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names the documents of a LETOR file (in {@code predict}'s output and when a run is matched to the
 * file's grades): by a {@code KEY = VALUE} pair of each line's
 * comment (LETOR 4.0 and MQ2007 write {@code # docid = GX000-00-0000000 inc = 1 prob = 0.02}), or,
 * in a file without such comments, by the document's position within its query (0-based).
 *
 * <p>Which of the two holds is decided once per file: by the first document when the key is the
 * default {@code docid}, always the comments when the caller named a key. From then on every
 * document must be named the same way, or the run stops naming the query and document.
 */
public final class DocIds {
    /** The key used when none is given. */
    public static final String DEFAULT_KEY = "docid";

    private final String key;
    private final Pattern pair;
    private Boolean fromComments;

    /** {@code key} null for the default; a given key must be a word without whitespace, '=' or '#'. */
    public DocIds(String key) {
        if (key != null && (key.isEmpty() || !key.matches("[^\\s=#]+"))) {
            throw new IllegalArgumentException("'" + key + "' is not a comment key (a word without spaces, '=' or '#',"
                    + " e.g. docid)");
        }
        this.key = key == null ? DEFAULT_KEY : key;
        this.pair = Pattern.compile("(?:^|\\s)" + Pattern.quote(this.key) + "\\s*=\\s*(\\S+)");
        this.fromComments = key == null ? null : Boolean.TRUE;
    }

    /** The names of query {@code qid}'s documents, whose comments (text after '#') are {@code comments}. */
    public String[] names(Path file, String qid, List<String> comments) {
        String[] out = new String[comments.size()];
        for (int i = 0; i < out.length; i++) {
            Matcher m = pair.matcher(comments.get(i));
            boolean found = m.find();
            if (fromComments == null) {
                fromComments = found;
            }
            if (fromComments && !found) {
                throw new IllegalArgumentException(file + ": query " + qid + ", document " + i + " (0-based) has no '"
                        + key + " = ...' in its comment" + (comments.get(i).isEmpty() ? "" : " '#" + comments.get(i) + "'")
                        + "; every document must name its id there (or name another key with --docid-key)");
            }
            out[i] = fromComments ? m.group(1) : Integer.toString(i);
        }
        return out;
    }

    /** Whether the names came from the comments (false: positions; null before the first document). */
    public Boolean fromComments() {
        return fromComments;
    }

    /** How the documents were named, for the summary line. */
    public String describe() {
        return Boolean.TRUE.equals(fromComments) ? "documents named by their '" + key + " = ...' comments"
                : "documents named by their position in the query (0-based; no '" + key + " = ...' comments)";
    }
}
