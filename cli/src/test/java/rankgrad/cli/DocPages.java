package rankgrad.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The documentation the doc tests check: README.md and every docs/*.md of the repository. */
public final class DocPages {
    private DocPages() {}

    /** The repository root, found from a module folder (the tests' working directory). */
    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("README.md")) && Files.isDirectory(d.resolve("docs"))) {
                return d;
            }
        }
        throw new IllegalStateException("no README.md with a docs/ folder above " + dir);
    }

    /** README.md and docs/*.md, in name order after the README. */
    public static List<MarkdownPage> all() {
        Path root = root();
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            List<MarkdownPage> pages = new ArrayList<>();
            pages.add(MarkdownPage.read(root, root.resolve("README.md")));
            for (Path p : docs.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
                pages.add(MarkdownPage.read(root, p));
            }
            return pages;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
