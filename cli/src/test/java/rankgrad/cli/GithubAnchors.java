package rankgrad.cli;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The anchor GitHub gives a Markdown heading (its slugger): the heading's rendered text in lower
 * case, without punctuation other than '-' and '_', each space a '-'. Inline code keeps its text,
 * a link its text, emphasis markers go.
 */
public final class GithubAnchors {
    private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");
    private static final Pattern PUNCTUATION = Pattern.compile("[^\\p{L}\\p{Nd}\\p{Mn}\\p{Pc} -]");

    private GithubAnchors() {}

    /** The anchor of a heading whose Markdown text (after the #s) is {@code heading}. */
    public static String slug(String heading) {
        String text = LINK.matcher(heading).replaceAll("$1").replace("`", "").replace("*", "");
        return PUNCTUATION.matcher(text.strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }
}
