package rankgrad.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Resolves the relative links of Markdown pages: the file or folder must exist, and an anchor must
 * be a heading of the linked page (GitHub's anchors) or, on another file, a line anchor
 * ({@code #L12}, {@code #L12-L20}). Links with a scheme (https:, mailto:) are not followed.
 */
public final class LinkChecker {
    private final Map<Path, Set<String>> anchorsByPage = new HashMap<>();
    private int checked;

    /** The broken links of {@code page}, each "page:line: link: problem". */
    public List<String> broken(MarkdownPage page) {
        List<String> broken = new ArrayList<>();
        for (MarkdownPage.Link link : page.links()) {
            String target = link.target();
            if (target.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
                continue;
            }
            checked++;
            String problem = problem(page, target);
            if (problem != null) {
                broken.add(page.name() + ":" + link.line() + ": " + target + ": " + problem);
            }
        }
        return broken;
    }

    /** How many relative links {@link #broken} has checked so far. */
    public int checked() {
        return checked;
    }

    private String problem(MarkdownPage page, String target) {
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String anchor = hash < 0 ? null : target.substring(hash + 1);
        Path resolved = file.isEmpty() ? page.path() : page.path().getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
            return "no such file or folder " + resolved;
        }
        if (anchor == null) {
            return null;
        }
        if (!resolved.toString().endsWith(".md")) {
            return anchor.matches("L\\d+(-L\\d+)?") ? null : "an anchor on a file that is not Markdown";
        }
        Set<String> anchors = anchorsByPage.computeIfAbsent(resolved, p -> {
            try {
                return MarkdownPage.read(page.path().getRoot(), p).anchors();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return anchors.contains(anchor) ? null : "no heading with the anchor #" + anchor + " in " + resolved.getFileName();
    }
}
