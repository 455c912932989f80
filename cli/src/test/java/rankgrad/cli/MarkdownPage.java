package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One Markdown page of the documentation, read the way GitHub renders it as far as the doc tests
 * need: fenced code blocks (with their language and the {@code <!-- java: ... -->} marker on the
 * line before), headings (as GitHub's anchors) and links outside code.
 */
public final class MarkdownPage {
    private static final Pattern FENCE = Pattern.compile("^( *)(```+|~~~+)\\s*([\\w+-]*).*$");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*java:\\s*(.*?)\\s*-->\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern LINK = Pattern.compile("\\[((?:[^\\]\\[]|\\[[^\\]]*\\])*)\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    /** A fenced code block: the line of its opening fence (1-based), language, marker and lines. */
    public record CodeBlock(MarkdownPage page, int line, String language, String marker, List<String> lines) {
        /** "docs/cli.md:12", the place a failure names. */
        public String where(int lineInBlock) {
            return page.name() + ":" + (line + 1 + lineInBlock);
        }
    }

    /** A link written on a line of the page. */
    public record Link(int line, String target) {}

    private final Path root;
    private final Path path;
    private final List<String> lines;

    private MarkdownPage(Path root, Path path, List<String> lines) {
        this.root = root;
        this.path = path;
        this.lines = lines;
    }

    /** Reads {@code path}, named relative to {@code root} in failures. */
    public static MarkdownPage read(Path root, Path path) throws IOException {
        return new MarkdownPage(root, path, Files.readAllLines(path));
    }

    public Path path() {
        return path;
    }

    /** The page's path relative to the repository root, with '/' separators. */
    public String name() {
        return root.relativize(path).toString().replace('\\', '/');
    }

    /** Every fenced code block, in page order. */
    public List<CodeBlock> codeBlocks() {
        List<CodeBlock> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            int indent = open.group(1).length();
            String fence = open.group(2);
            List<String> body = new ArrayList<>();
            int j = i + 1;
            while (j < lines.size() && !lines.get(j).strip().startsWith(fence)) {
                String l = lines.get(j);
                body.add(l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l.strip());
                j++;
            }
            blocks.add(new CodeBlock(this, i + 1, open.group(3), markerBefore(i), List.copyOf(body)));
            i = j;
        }
        return blocks;
    }

    private String markerBefore(int fenceIndex) {
        for (int k = fenceIndex - 1; k >= 0; k--) {
            if (!lines.get(k).isBlank()) {
                Matcher m = MARKER.matcher(lines.get(k));
                return m.matches() ? m.group(1) : null;
            }
        }
        return null;
    }

    /** The anchors of the page's headings, as GitHub makes them (duplicates numbered -1, -2, ...). */
    public Set<String> anchors() {
        Set<String> anchors = new LinkedHashSet<>();
        for (String l : proseLines()) {
            Matcher h = HEADING.matcher(l);
            if (h.matches()) {
                String slug = GithubAnchors.slug(h.group(2));
                String unique = slug;
                for (int n = 1; anchors.contains(unique); n++) {
                    unique = slug + "-" + n;
                }
                anchors.add(unique);
            }
        }
        return anchors;
    }

    /** Every link and image outside code blocks and inline code. */
    public List<Link> links() {
        List<Link> links = new ArrayList<>();
        List<String> prose = proseLines();
        for (int i = 0; i < prose.size(); i++) {
            Matcher m = LINK.matcher(INLINE_CODE.matcher(prose.get(i)).replaceAll("``"));
            while (m.find()) {
                links.add(new Link(i + 1, m.group(2)));
            }
        }
        return links;
    }

    /** The page's lines with those inside fenced blocks blanked, so line numbers stay true. */
    private List<String> proseLines() {
        List<String> prose = new ArrayList<>(lines);
        for (CodeBlock b : codeBlocks()) {
            for (int k = b.line() - 1; k <= b.line() + b.lines().size() && k < prose.size(); k++) {
                prose.set(k, "");
            }
        }
        return prose;
    }
}
