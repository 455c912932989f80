package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of README.md and docs/*.md resolves (the file, and the heading it names), and
 * every citation of the design document in the sources names a section it has.
 */
class DocsLinksTest {
    /** "docs/design.md §3.2", also "§3.3-3.4", "§3.2 and 3.3" and "section 3.2", possibly across a comment's line break. */
    private static final Pattern CITATION = Pattern.compile(
            "docs/design\\.md(?:\\s|\\*|//|#)*(?:§|sections?\\s+)(\\d+(?:\\.\\d+)?)(?:\\s*(?:-|and)\\s*(\\d+\\.\\d+))?");
    private static final Pattern SECTION = Pattern.compile("^#{2,3} (\\d+(?:\\.\\d+)?)\\.? ", Pattern.MULTILINE);
    private static final Pattern OLD_CITATION = Pattern.compile("\\bDESIGN(?:\\.md|\\s+(?:sections?|§|\\d))");
    @TempDir
    Path dir;

    @Test
    void everyRelativeLinkOfTheDocumentationResolves() {
        LinkChecker checker = new LinkChecker();
        List<String> broken = new ArrayList<>();
        for (MarkdownPage page : DocPages.all()) {
            broken.addAll(checker.broken(page));
        }
        assertEquals(List.of(), broken, "broken links");
        // The pages link to each other and to sections throughout (67 links when this was
        // written); far fewer would mean the link pattern stopped matching, not that links are fine.
        assertTrue(checker.checked() >= 50, "only " + checker.checked() + " relative links found");
    }

    @Test
    void everyCitationOfTheDesignDocumentNamesOneOfItsSections() throws IOException {
        Path root = DocPages.root();
        Matcher headings = SECTION.matcher(Files.readString(root.resolve("docs/design.md")));
        Set<String> sections = headings.results().map(r -> r.group(1)).collect(Collectors.toSet());
        List<String> wrong = new ArrayList<>();
        int citations = 0;
        for (Path source : sources(root)) {
            String text = Files.readString(source);
            Matcher m = CITATION.matcher(text);
            while (m.find()) {
                citations++;
                for (String section : new String[] {m.group(1), m.group(2)}) {
                    if (section != null && !sections.contains(section)) {
                        wrong.add(root.relativize(source) + ": cites docs/design.md §" + section + ", which it does not have");
                    }
                }
            }
            if (OLD_CITATION.matcher(text).find()) {
                wrong.add(root.relativize(source) + ": cites the design document by another name than docs/design.md");
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(citations >= 30, "only " + citations + " citations of docs/design.md found");
    }

    /** The repository's Java sources, poms and scripts, outside build output. */
    private static List<Path> sources(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> !p.toString().contains("/target/") && !p.toString().contains("/.git/"))
                    .filter(p -> {
                        String name = p.getFileName().toString();
                        return name.endsWith(".java") || name.equals("pom.xml") || name.endsWith(".py")
                                || p.getParent().getFileName().toString().equals("scripts");
                    })
                    .filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aMissingFileOrHeadingIsReportedWithItsLine() throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Other page\n\n## Section: `code` & more\n");
        Files.writeString(dir.resolve("page.md"), String.join("\n",
                "# Page",
                "[fine](other.md#section-code--more) and [also fine](#page)",
                "[no file](missing.md), `[in code](missing.md)`",
                "```text",
                "[in a block](missing.md)",
                "```",
                "[no heading](other.md#section) [web](https://example.org/x)",
                "## Page"));
        List<String> broken = new LinkChecker().broken(MarkdownPage.read(dir, dir.resolve("page.md")));
        assertEquals(2, broken.size(), broken.toString());
        assertTrue(broken.get(0).startsWith("page.md:3: missing.md: no such file"), broken.get(0));
        assertTrue(broken.get(1).startsWith("page.md:7: other.md#section: no heading with the anchor #section"), broken.get(1));
    }

    @Test
    void anchorsFollowGithubsRules() {
        assertEquals("the-demos-comparison-of-losses-yu-et-al-tables-4-and-7",
                GithubAnchors.slug("The demo's comparison of losses (Yu et al. Tables 4 and 7)"));
        assertEquals("35-lambdarank-and-ranknet-burges-yue--burges-eq-2",
                GithubAnchors.slug("3.5 LambdaRank and RankNet (Burges; Yue & Burges Eq. 2)"));
        assertEquals("run-the-rankgrad-command", GithubAnchors.slug("Run the `rankgrad` command"));
    }
}
