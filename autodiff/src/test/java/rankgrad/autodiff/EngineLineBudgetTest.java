package rankgrad.autodiff;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine core stays small enough to read in one sitting: at most {@value #BUDGET} code lines
 * (lines with code, counted by {@link JavaCodeLines}: no blank, comment-only or Javadoc lines;
 * package and import lines count). It measured 429 at the time the budget was set, so the budget
 * leaves room for about 70 lines of growth before the core must be reconsidered.
 *
 * <p>The core is the graph, the backward walk and the node API, the five types a reader needs to
 * understand reverse-mode differentiation here:
 * <ul>
 *   <li>{@link Tensor}: the values and gradients the graph carries;</li>
 *   <li>{@link Var}: the graph node, its leaves and {@code backward()} (topological order, gradient
 *       accumulation, residual release);</li>
 *   <li>{@link Op}: the node API every differentiable op implements (forward, residuals,
 *       backward);</li>
 *   <li>{@link NoGrad}: the scope that stops graph recording;</li>
 *   <li>{@link DType}: the element types a tensor holds.</li>
 * </ul>
 * Not core: {@link Ops} (the catalogue of ops built on the core), {@link GradientCheck} (a testing
 * tool over the core), {@code KernelInfo} (a report on the kernel choice), the op classes and the
 * kernels.
 *
 * <p>Sources are found from the classes, not from a fixed path: each type's file is
 * {@code <source root>/<package as folders>/<SimpleName>.java}, the source root being the
 * {@code rankgrad.sources} system property the module's pom sets to its source directory (or,
 * outside Maven, {@code src/main/java} under the working directory, which Surefire sets to the
 * module's basedir). So the test follows the types through a package rename and, moved along
 * with them, through a move to another module.
 */
class EngineLineBudgetTest {
    /** The most code lines the engine core may have. */
    static final int BUDGET = 500;

    private static final List<Class<?>> CORE = List.of(Tensor.class, Var.class, Op.class, NoGrad.class, DType.class);

    @Test
    void engineCoreStaysWithinItsLineBudget() {
        Map<String, Integer> lines = new LinkedHashMap<>();
        for (Class<?> type : CORE) {
            lines.put(type.getSimpleName(), JavaCodeLines.count(read(sourceOf(type))));
        }
        int total = lines.values().stream().mapToInt(Integer::intValue).sum();
        if (total > BUDGET) {
            throw new AssertionError("the engine core has " + total + " code lines, over its budget of " + BUDGET
                    + " (" + lines + "); keep the core small or raise the budget in EngineLineBudgetTest and the README");
        }
    }

    /**
     * The counter counts what a reader sees as code: a plausible miscount (Javadoc or block
     * comment lines counted, a trailing comment hiding code, a comment marker inside a string
     * taken as a comment, a quote inside a char literal opening a string) changes the figure.
     */
    @Test
    void counterSkipsCommentsAndBlanksButNotCodeLikeLiterals() {
        String source = String.join("\n",
                "package p;",                          // 1
                "",
                "/**",
                " * Javadoc with code-like text: int x = 1;",
                " */",
                "final class A { // trailing comment",  // 2
                "    // a comment line",
                "    /* block */",
                "    int a = 1; /* opened after code",   // 3
                "       still comment */",
                "    String s = \"// not a comment /*\";", // 4
                "    char q = '\"';",                     // 5
                "    String t = \"\"\"",                  // 6
                "        text /* in a block */",         // 7
                "        \"\"\";",                        // 8
                "    /* one */ int b; /* two */",        // 9
                "}",                                     // 10
                "   ");
        assertEquals(10, JavaCodeLines.count(source));
    }

    private static Path sourceOf(Class<?> type) {
        String configured = System.getProperty("rankgrad.sources");
        Path root = configured != null ? Path.of(configured) : Path.of("src", "main", "java");
        Path file = root.resolve(type.getPackageName().replace('.', '/')).resolve(type.getSimpleName() + ".java");
        if (!Files.isRegularFile(file)) {
            throw new AssertionError(file.toAbsolutePath() + ": no source for engine core type " + type.getName()
                    + "; run from the module's basedir or set -Drankgrad.sources to its source root");
        }
        return file;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(file + ": " + e.getMessage(), e);
        }
    }
}
