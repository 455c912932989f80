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
import rankgrad.ltr.data.CubicData;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.ModelFile;
import rankgrad.ltr.model.RankingModel;
import rankgrad.nn.Mlp;
import rankgrad.simd.Kernels;

/**
 * An application that embeds rankgrad, compiled here and run in child JVMs as a user would run it:
 * as a named module ({@code requires rankgrad.ranking}) on the module path and as plain classes on
 * the class path, each with and without {@code --add-modules jdk.incubator.vector}. The core
 * modules come from where this test loads them (their classes folders or jars, both carry
 * module-info). It trains 20 Adam steps of ApproxNDCG on two queries and prints the loss. A
 * second app requires only {@code rankgrad.serving} and scores a model file with the serving
 * floors alone on its module path (no trainer, readers or checkpoints).
 */
class ModulePathAppTest {
    private static final String MODULE_INFO = "module app {\n    requires rankgrad.ranking;\n    requires rankgrad.nn;\n}\n";
    private static final String SERVING_MODULE_INFO = "module app {\n    requires rankgrad.serving;\n}\n";
    /** The serving app: load a model file, score one query given on the command line, print the scores. */
    private static final String SERVING_MAIN = """
            package app;

            import java.nio.file.Path;
            import rankgrad.ltr.model.ModelFile;
            import rankgrad.ltr.model.Scorer;

            public class Serve {
                public static void main(String[] args) throws Exception {
                    Scorer scorer = ModelFile.read(Path.of(args[0])).scorer();
                    int docs = Integer.parseInt(args[1]);
                    float[] rows = new float[args.length - 2];
                    for (int i = 0; i < rows.length; i++) {
                        rows[i] = Float.parseFloat(args[i + 2]);
                    }
                    for (float s : scorer.score(rows, docs)) {
                        System.out.println(s);
                    }
                }
            }
            """;
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
                    // The engine's kernels too (the steps below run nn's and the pair kernels only).
                    rankgrad.simd.KernelProvider.kernels();
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
                        Class.forName("rankgrad.ltr.internal.pairwise.CpuPairwiseBackend").getMethod("create").invoke(null);
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

    /** java.util.logging settings that print rankgrad's DEBUG (FINE) records: kernel selection. */
    private static Path debugLogging;

    @BeforeAll
    static void compileTheApp() throws IOException, URISyntaxException {
        debugLogging = dir.resolve("debug-logging.properties");
        Files.writeString(debugLogging, """
                handlers=java.util.logging.ConsoleHandler
                java.util.logging.ConsoleHandler.level=FINE
                java.util.logging.SimpleFormatter.format=%5$s%n
                rankgrad.level=FINE
                """);
        libraries = String.join(File.pathSeparator, location(Kernels.class), location(Tensor.class),
                location(Mlp.class), location(QueryBatch.class));
        app = dir.resolve("app");
        String errors = compile(dir.resolve("src"), MODULE_INFO, "Main", MAIN, app, libraries);
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
                        System.out.println(rankgrad.simd.internal.VectorSupport.class);
                        System.out.println(rankgrad.ltr.internal.pairwise.CpuPairwiseBackend.create());
                        System.out.println(rankgrad.autodiff.ops.Add.INSTANCE);
                    }
                }
                """;
        String errors = compile(dir.resolve("peek"), MODULE_INFO, "Peek", peek, dir.resolve("peek-out"), libraries);
        assertTrue(errors.contains("package rankgrad.simd.internal is not visible"), errors);
        assertTrue(errors.contains("package rankgrad.ltr.internal.pairwise is not visible"), errors);
        assertTrue(errors.contains("package rankgrad.autodiff.ops is not visible"), errors);
    }

    @Test
    void aServingAppScoresAModelFileWithTheServingFloorsAlone() throws Exception {
        // A trained-shaped model (the default network, standardization fitted on cubic data), written as model.json.
        Dataset train = CubicData.create(5, 3).sample("train", 20, 10, 4);
        RankingModel model = RankingModel.create("R4.L", 5, Normalization.Standardization.fit(train), 7);
        Path file = dir.resolve("model.json");
        ModelFile.write(model, file);
        float[] rows = train.queries().get(0).x();
        int docs = train.queries().get(0).docs();

        String serving = String.join(File.pathSeparator, libraries, location(ModelFile.class));
        Path out = dir.resolve("serve-out");
        assertEquals("", compile(dir.resolve("serve"), SERVING_MODULE_INFO, "Serve", SERVING_MAIN, out, serving));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--add-modules", "jdk.incubator.vector", "--module-path", serving + File.pathSeparator + out,
                "-m", "app/app.Serve", file.toString(), Integer.toString(docs)));
        for (float v : rows) {
            command.add(Float.toString(v));
        }
        Process p = new ProcessBuilder(command).start();
        p.getOutputStream().close();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        String printed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), err);
        // The same file scored here: the same kernels (vector in both JVMs), so the same bits.
        StringBuilder expected = new StringBuilder();
        for (float s : ModelFile.read(file).scorer().score(rows, docs)) {
            expected.append(s).append(System.lineSeparator());
        }
        assertEquals(expected.toString(), printed);
        // Quiet by default: kernel selection is logged at DEBUG, below java.util.logging's default INFO.
        assertFalse(err.contains("rankgrad"), err);
        for (String absent : List.of("train", "letor", "eval")) {
            assertFalse(serving.contains(File.separator + absent + File.separator), serving);
        }
    }

    /** Runs the app and returns its loss line, after checking which kernels it chose and its access. */
    private static String run(boolean modulePath, boolean vector) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElseThrow());
        if (vector) {
            command.addAll(List.of("--add-modules", "jdk.incubator.vector"));
        }
        // On the module path java.logging is not resolved and System.Logger falls back to the JDK's
        // console logger, whose threshold is a system property; on the class path it is java.util.logging.
        command.addAll(List.of("-Djava.util.logging.config.file=" + debugLogging, "-Djdk.system.logger.level=DEBUG"));
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
        // named module whose kernel packages are not exported (the DEBUG lines, shown by debugLogging).
        String chosen = vector ? "vector(" : "scalar (module jdk.incubator.vector is not readable";
        assertTrue(err.contains("rankgrad kernels: " + chosen), what);
        assertTrue(err.contains("rankgrad nn kernels: " + chosen), what);
        assertTrue(err.contains("rankgrad pair kernels: " + chosen), what);
        String[] lines = out.strip().split("\\R");
        assertEquals("internal: " + (modulePath ? "refused" : "open"), lines[lines.length - 2], what);
        return lines[lines.length - 1];
    }

    /** Compiles module app (module-info plus one class) against the libraries; returns javac's errors. */
    private static String compile(Path src, String moduleInfo, String className, String code, Path out, String libraries)
            throws IOException {
        Files.createDirectories(src.resolve("app"));
        Files.writeString(src.resolve("module-info.java"), moduleInfo);
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
