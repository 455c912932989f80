package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Every snippet of README.md and docs/*.md is checked: {@code java} blocks compile against the test
 * class path and run where they are programs ({@link JavaSnippet} says how statements are
 * wrapped); every {@code rankgrad} command line of a shell block or transcript parses against the
 * command's options; other commands name only scripts and modules that exist; Maven coordinates
 * name this build's artifacts and version. Blocks that need Spark are compiled by the spark
 * module's {@code SparkDocsSnippetsTest}, where Spark is on the class path.
 */
class DocsSnippetsTest {
    private static final Set<String> CHECKED_LANGUAGES = Set.of("java", "bash", "sh", "shell", "console", "text", "xml");
    private static final Pattern REPOSITORY_FILE = Pattern.compile("(?:\\./)?(?:scripts|benchmarks/reference|benchmarks/python)/\\S+|\\./\\S+");
    private static final Pattern ARTIFACT = Pattern.compile("<artifactId>(rankgrad-[^<]+)</artifactId>\\s*<version>([^<]+)</version>");

    @TempDir
    Path work;

    @Test
    void everyBlockHasALanguageThatATestChecks() {
        List<String> failures = new ArrayList<>();
        for (MarkdownPage page : DocPages.all()) {
            for (MarkdownPage.CodeBlock b : page.codeBlocks()) {
                if (!CHECKED_LANGUAGES.contains(b.language())) {
                    failures.add(b.where(-1) + ": a block of language '" + b.language() + "', which no test checks; use one of "
                            + CHECKED_LANGUAGES);
                }
            }
        }
        assertEquals(List.of(), failures);
    }

    @Test
    void everyJavaSnippetCompilesAndEveryProgramRuns() throws IOException {
        SnippetCompiler compiler = SnippetCompiler.forThisJvm(work);
        List<String> failures = new ArrayList<>();
        int compiled = compiler.checkAll(snippet -> !snippet.imports(JavaSnippet.SPARK_PACKAGES), failures);
        assertEquals(List.of(), failures);
        // README's program, the library's training, custom op and testkit blocks, serving, GPU.
        assertTrue(compiled >= 6, "only " + compiled + " java blocks compiled");
    }

    @Test
    void everyRankgradCommandLineParsesAndEveryOtherCommandNamesFilesThatExist() {
        Path root = DocPages.root();
        List<String> failures = new ArrayList<>();
        int parsed = 0;
        for (MarkdownPage page : DocPages.all()) {
            for (MarkdownPage.CodeBlock b : page.codeBlocks()) {
                if (!ShellCommand.holdsCommands(b.language())) {
                    continue;
                }
                for (ShellCommand c : ShellCommand.of(b)) {
                    Optional<List<String>> args = rankgradArguments(c.words());
                    if (args.isPresent()) {
                        parse(c, args.get()).ifPresent(failures::add);
                        parsed++;
                    } else {
                        failures.addAll(missingFiles(root, c));
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
        // The tour, the run messages, compare, regularization, eval, the reproductions, ...
        assertTrue(parsed >= 30, "only " + parsed + " rankgrad command lines found");
    }

    @Test
    void mavenCoordinatesNameThisBuildsArtifactsAtItsVersion() throws IOException {
        Path root = DocPages.root();
        String version = projectVersion(root);
        List<String> failures = new ArrayList<>();
        int found = 0;
        for (MarkdownPage page : DocPages.all()) {
            for (MarkdownPage.CodeBlock b : page.codeBlocks()) {
                if (!b.language().equals("xml")) {
                    continue;
                }
                Matcher m = ARTIFACT.matcher(String.join("\n", b.lines()));
                while (m.find()) {
                    found++;
                    if (!artifactExists(root, m.group(1))) {
                        failures.add(b.where(-1) + ": no module of this build is the artifact " + m.group(1));
                    }
                    if (!m.group(2).equals(version)) {
                        failures.add(b.where(-1) + ": " + m.group(1) + " at version " + m.group(2) + ", but the build is " + version);
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
        assertTrue(found >= 3, "only " + found + " rankgrad dependencies found");
    }

    @Test
    void aMisspelledOptionOrAnUnknownCommandFails() {
        ShellCommand bad = new ShellCommand("page.md:1", List.of("./rankgrad", "train", "--train", "a.txt", "--epoch", "5"));
        Optional<String> failure = parse(bad, rankgradArguments(bad.words()).orElseThrow());
        assertTrue(failure.isPresent() && failure.get().startsWith("page.md:1: ") && failure.get().contains("--epoch"),
                failure.toString());
        ShellCommand unknown = new ShellCommand("page.md:2", List.of("java", "-jar", "cli/target/rankgrad.jar", "fit", "--train", "a.txt"));
        assertTrue(parse(unknown, rankgradArguments(unknown.words()).orElseThrow()).isPresent());
        ShellCommand fine = new ShellCommand("page.md:3", List.of("./rankgrad", "eval", "--model", "m.json", "--data", "t.txt",
                "--metrics", "ndcg@1,5", "--ties", "pessimistic"));
        assertEquals(Optional.empty(), parse(fine, rankgradArguments(fine.words()).orElseThrow()));
    }

    @Test
    void aJavaSnippetThatDoesNotCompileOrThrowsIsReportedAtItsLine() throws IOException {
        Files.writeString(work.resolve("page.md"), String.join("\n",
                "# Page",
                "<!-- java: members -->",
                "```java",
                "import java.util.List;",
                "",
                "static int size(List<String> xs) {",
                "    return xs.length;",
                "}",
                "```",
                "",
                "```java",
                "int x = 1;",
                "```",
                "<!-- java: members -->",
                "```java",
                "public static void main(String[] args) {",
                "    throw new IllegalStateException(\"planted\");",
                "}",
                "```"));
        List<MarkdownPage.CodeBlock> blocks = MarkdownPage.read(work, work.resolve("page.md")).codeBlocks();
        StringBuilder problem = new StringBuilder();
        List<String> failures = SnippetCompiler.forThisJvm(work).check(JavaSnippet.of(blocks.get(0), 0, problem));
        assertEquals(1, failures.size(), failures.toString());
        assertTrue(failures.get(0).startsWith("page.md:7: cannot find symbol"), failures.get(0));
        assertEquals(null, JavaSnippet.of(blocks.get(1), 1, problem));
        assertTrue(problem.toString().contains("needs a marker"), problem.toString());
        List<String> thrown = SnippetCompiler.forThisJvm(work).check(JavaSnippet.of(blocks.get(2), 2, new StringBuilder()));
        assertEquals(1, thrown.size(), thrown.toString());
        assertTrue(thrown.get(0).contains("planted"), thrown.get(0));
    }

    @Test
    void aBlockThatShowsARepositoryFileMustBeThatFile() throws IOException {
        String path = "examples/src/main/java/example/RankDocuments.java";
        List<String> file = Files.readAllLines(DocPages.root().resolve(path));
        List<String> page = new ArrayList<>(List.of("# Page", "<!-- java: file " + path + " -->", "```java"));
        page.addAll(file);
        page.add("```");
        page.add("<!-- java: file " + path + " -->");
        page.add("```java");
        List<String> edited = new ArrayList<>(file);
        edited.set(2, edited.get(2) + " // edited");
        page.addAll(edited);
        page.add("```");
        Files.writeString(work.resolve("page.md"), String.join("\n", page));
        List<MarkdownPage.CodeBlock> blocks = MarkdownPage.read(work, work.resolve("page.md")).codeBlocks();
        SnippetCompiler compiler = SnippetCompiler.forThisJvm(work);
        assertEquals(List.of(), compiler.check(JavaSnippet.of(blocks.get(0), 0, new StringBuilder())));
        List<String> failures = compiler.check(JavaSnippet.of(blocks.get(1), 1, new StringBuilder()));
        int thirdLine = file.size() + 9; // "# Page", marker, fence, the file, fence, marker, fence, then line 3
        assertEquals(List.of("page.md:" + thirdLine + ": differs from " + path + " line 3: " + file.get(2)), failures);
    }

    /** The arguments given to the rankgrad command, if {@code words} runs it (script, main class or jar). */
    static Optional<List<String>> rankgradArguments(List<String> words) {
        String program = words.get(0);
        if (program.equals("./rankgrad") || program.equals("rankgrad")) {
            return Optional.of(words.subList(1, words.size()));
        }
        int main = words.indexOf("rankgrad.cli.Main");
        if (main >= 0) {
            return Optional.of(words.subList(main + 1, words.size()));
        }
        int jar = words.indexOf("-jar");
        if (program.equals("java") && jar >= 0 && jar + 1 < words.size() && words.get(jar + 1).endsWith("rankgrad.jar")) {
            return Optional.of(words.subList(jar + 2, words.size()));
        }
        return Optional.empty();
    }

    /** Parses as {@link Main#run} does (without running): an unknown command or option is a failure. */
    private static Optional<String> parse(ShellCommand command, List<String> args) {
        try {
            new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args.toArray(String[]::new));
            return Optional.empty();
        } catch (CommandLine.ParameterException e) {
            return Optional.of(command.where() + ": " + String.join(" ", command.words()) + ": " + e.getMessage());
        }
    }

    /** Scripts and files of the repository that the command names but that do not exist; mvn's -pl modules. */
    static List<String> missingFiles(Path root, ShellCommand command) {
        List<String> missing = new ArrayList<>();
        List<String> words = command.words();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (REPOSITORY_FILE.matcher(w).matches() && !Files.exists(root.resolve(w))) {
                missing.add(command.where() + ": " + w + " is not a file of the repository");
            }
            if (command.program().equals("mvn") && w.equals("-pl") && i + 1 < words.size()) {
                for (String module : words.get(i + 1).split(",")) {
                    if (!Files.isRegularFile(root.resolve(module).resolve("pom.xml"))) {
                        missing.add(command.where() + ": -pl names " + module + ", which is not a module");
                    }
                }
            }
        }
        return missing;
    }

    private static String projectVersion(Path root) throws IOException {
        Matcher m = Pattern.compile("<artifactId>rankgrad-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(root.resolve("pom.xml")));
        assertTrue(m.find(), "the parent pom's version");
        return m.group(1);
    }

    private static boolean artifactExists(Path root, String artifactId) throws IOException {
        try (var dirs = Files.list(root)) {
            for (Path pom : dirs.map(d -> d.resolve("pom.xml")).filter(Files::isRegularFile).toList()) {
                String text = Files.readString(pom);
                String own = text.substring(text.indexOf("</parent>") + 1);
                if (own.contains("<artifactId>" + artifactId + "</artifactId>")) {
                    return true;
                }
            }
        }
        return false;
    }
}
