package rankgrad.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a {@link JavaSnippet} with the JDK's compiler against this JVM's class path (the test
 * class path: every module the tests see) and runs it when it is a program. Failures are lines of
 * the form "page:line: problem".
 */
public final class SnippetCompiler {
    private final Path work;
    private final String classPath;

    /** Compiles into folders under {@code work}, against {@code classPath}. */
    public SnippetCompiler(Path work, String classPath) {
        this.work = work;
        this.classPath = classPath;
    }

    /** This JVM's class path (surefire sets java.class.path to the test class path). */
    public static SnippetCompiler forThisJvm(Path work) {
        return new SnippetCompiler(work, System.getProperty("java.class.path"));
    }

    /**
     * Checks every java block of the documentation that {@code which} selects, adding the failures
     * to {@code failures}; returns how many were checked.
     */
    public int checkAll(Predicate<JavaSnippet> which, List<String> failures) throws IOException {
        int checked = 0;
        for (JavaSnippet snippet : JavaSnippet.allIn(DocPages.all(), failures)) {
            if (which.test(snippet)) {
                failures.addAll(check(snippet));
                checked++;
            }
        }
        return checked;
    }

    /** Compiles the snippet, runs it if it is a program, and returns the failures (none: empty). */
    public List<String> check(JavaSnippet snippet) throws IOException {
        Path dir = Files.createTempDirectory(work, snippet.className());
        Path src = dir.resolve("src").resolve(snippet.className() + ".java");
        Path out = Files.createDirectories(dir.resolve("classes"));
        Files.createDirectories(src.getParent());
        Files.writeString(src, snippet.source());
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        List<String> failures = new ArrayList<>();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            List<String> options = List.of("-classpath", classPath, "-d", out.toString(), "-proc:none",
                    "--add-modules", "jdk.incubator.vector", "-Xlint:-options");
            StringWriter log = new StringWriter();
            boolean ok = javac.getTask(log, files, diagnostics, options, null, files.getJavaFileObjects(src.toFile())).call();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    failures.add(snippet.where(d.getLineNumber()) + ": "
                            + d.getMessage(Locale.ROOT).lines().map(String::strip).collect(Collectors.joining("; ")));
                }
            }
            if (!ok && failures.isEmpty()) {
                failures.add(snippet.where(0) + ": does not compile: " + log);
            }
        }
        Optional<String> shown = snippet.shownFile();
        if (shown.isPresent()) {
            sameAsFile(snippet, shown.get(), failures);
        } else if (failures.isEmpty() && snippet.isProgram()) {
            run(snippet, out, failures);
        }
        return failures;
    }

    /** A block marked {@code file PATH} is the repository's file PATH, line for line. */
    private static void sameAsFile(JavaSnippet snippet, String path, List<String> failures) throws IOException {
        Path file = DocPages.root().resolve(path);
        if (!Files.isRegularFile(file)) {
            failures.add(snippet.where(0) + ": shows " + path + ", which is not a file of the repository");
            return;
        }
        List<String> expected = Files.readAllLines(file);
        List<String> shown = snippet.block().lines();
        for (int i = 0; i < Math.max(expected.size(), shown.size()); i++) {
            String want = i < expected.size() ? expected.get(i) : "(end of file)";
            String got = i < shown.size() ? shown.get(i) : "(end of block)";
            if (!want.equals(got)) {
                failures.add(snippet.block().where(i) + ": differs from " + path + " line " + (i + 1) + ": " + want);
                return;
            }
        }
    }

    private static void run(JavaSnippet snippet, Path classes, List<String> failures) throws IOException {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                SnippetCompiler.class.getClassLoader())) {
            Class.forName(snippet.className(), true, loader).getMethod("main", String[].class)
                    .invoke(null, (Object) new String[0]);
        } catch (InvocationTargetException e) {
            failures.add(snippet.where(0) + ": the program throws " + e.getCause());
        } catch (ReflectiveOperationException e) {
            failures.add(snippet.where(0) + ": the program cannot be started: " + e);
        }
    }
}
