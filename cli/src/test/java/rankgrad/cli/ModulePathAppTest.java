package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * An application that embeds rankgrad, compiled here and run in child JVMs as a user would run it:
 * as a named module ({@code requires rankgrad.ltr}) on the module path and as plain classes on the
 * class path, each with and without {@code --add-modules jdk.incubator.vector}. The autodiff and
 * ltr modules come from where this test loads them (their classes folders or jars, both carry
 * module-info). It trains 20 Adam steps of ApproxNDCG on two queries and prints the loss.
 */
class ModulePathAppTest {
    private static final String MODULE_INFO = "module app {\n    requires rankgrad.ltr;\n}\n";
    private static final String MAIN = """
            package app;

            import java.util.Map;
            import rankgrad.autodiff.Tensor;
            import rankgrad.autodiff.Var;
            import rankgrad.nn.optim.Adam;
            import rankgrad.nn.optim.Optimizer;
            import rankgrad.ltr.QueryBatch;
            import rankgrad.ltr.loss.RankingLoss;
            import rankgrad.ltr.loss.Losses;

            public class Main {
                public static void main(String[] args) throws Exception {
                    QueryBatch batch = QueryBatch.of(new float[] {2, 0, 1, 0, 3, 1, 0, 2, 1},
                            new float[] {0, 1, 4, 2, 0, 1, 3, 0, 1});
                    float[] s = new float[batch.documents()];
                    for (int i = 0; i < s.length; i++) {
                        s[i] = (float) Math.sin(i);
                    }
                    Var scores = Var.param(Tensor.vector(s));
                    RankingLoss loss = Losses.parse("approx-ndcg", 1);
                    Optimizer adam = Adam.create(Map.of("scores", scores), Adam.Settings.defaults().withLearningRate(0.05));
                    double value = Double.NaN;
                    for (int step = 0; step < 20; step++) {
                        adam.zeroGrad();
                        Var l = loss.loss(scores, batch);
                        l.backward();
                        adam.step();
                        value = l.value().item();
                    }
                    String internal;
                    try {
                        Class.forName("rankgrad.simd.Parallel").getMethod("threads").invoke(null);
                        internal = "open";
                    } catch (IllegalAccessException e) {
                        internal = "refused";
                    }
                    System.out.println("internal: " + internal);
                    System.out.println(value);
                }
            }
            """;

    @TempDir
    static Path dir;
    private static String libraries;
    private static Path app;

    @BeforeAll
    static void compileTheApp() throws IOException, URISyntaxException {
        libraries = location(Tensor.class) + File.pathSeparator + location(QueryBatch.class);
        app = dir.resolve("app");
        String errors = compile(dir.resolve("src"), "Main", MAIN, app);
        assertEquals("", errors, "the app compiles against the exported API");
    }

    @Test
    void sameLossOnTheModulePathAndTheClassPathWithAndWithoutTheVectorApi() throws Exception {
        String moduleVector = run(true, true);
        String modulePlain = run(true, false);
        String classVector = run(false, true);
        String classPlain = run(false, false);
        // Same kernels, same arithmetic: the module system changes nothing in the numbers.
        assertEquals(classVector, moduleVector);
        assertEquals(classPlain, modulePlain);
        double vector = Double.parseDouble(moduleVector);
        double plain = Double.parseDouble(modulePlain);
        assertTrue(vector < 0 && vector >= -1, "ApproxNDCG loss is -NDCG in [-1, 0): " + vector);
        // Vector and scalar kernels differ by reassociation and 1-3 ulp exp/sigmoid per float32
        // operation; over 20 steps on 18 scores that stays far below 1e-4 of a loss of size ~1.
        assertEquals(plain, vector, 1e-4);
    }

    @Test
    void internalPackagesAreNotVisibleToAModule() throws IOException {
        String peek = """
                package app;

                public class Peek {
                    public static void main(String[] args) {
                        System.out.println(rankgrad.simd.Parallel.threads());
                        System.out.println(rankgrad.ltr.internal.pairwise.CpuPairwiseBackend.create());
                        System.out.println(rankgrad.ltr.io.Json.class);
                    }
                }
                """;
        String errors = compile(dir.resolve("peek"), "Peek", peek, dir.resolve("peek-out"));
        assertTrue(errors.contains("package rankgrad.simd is not visible"), errors);
        assertTrue(errors.contains("package rankgrad.ltr.internal.pairwise is not visible"), errors);
        assertTrue(errors.contains("package rankgrad.ltr.io is not visible"), errors);
    }

    /** Runs the app and returns its loss line, after checking which kernels it chose and its access. */
    private static String run(boolean modulePath, boolean vector) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        if (vector) {
            command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        if (modulePath) {
            command.addAll(List.of("--module-path", libraries + File.pathSeparator + app, "-m", "app/app.Main"));
        } else {
            command.addAll(List.of("-cp", libraries + File.pathSeparator + app, "app.Main"));
        }
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String what = command + "\nstdout:\n" + out + "\nstderr:\n" + err;
        assertEquals(0, p.exitValue(), what);
        // The vector classes are found through each kernel family's own lookup, also inside a
        // named module whose kernel packages are not exported.
        String chosen = vector ? "vector(" : "scalar (module jdk.incubator.vector is not readable";
        assertTrue(err.contains("rankgrad kernels: " + chosen), what);
        assertTrue(err.contains("rankgrad pair kernels: " + chosen), what);
        String[] lines = out.strip().split("\\R");
        assertEquals("internal: " + (modulePath ? "refused" : "open"), lines[lines.length - 2], what);
        return lines[lines.length - 1];
    }

    /** Compiles module app (module-info plus one class) against the libraries; returns javac's errors. */
    private static String compile(Path src, String className, String code, Path out) throws IOException {
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), MODULE_INFO);
        Path source = src.resolve("app").resolve(className + ".java");
        Files.writeString(source, code);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter errors = new StringWriter();
        List<String> options = List.of("--module-path", libraries, "-d", out.toString(), "-proc:none");
        boolean ok = javac.getTask(errors, null, null, options, null, javac.getStandardFileManager(null, null,
                StandardCharsets.UTF_8).getJavaFileObjects(src.resolve("module-info.java"), source)).call();
        assertEquals(ok, errors.toString().isEmpty() || !errors.toString().contains("error"), errors.toString());
        return ok ? "" : errors.toString();
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
