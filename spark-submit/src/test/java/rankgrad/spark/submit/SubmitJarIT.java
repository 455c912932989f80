package rankgrad.spark.submit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The jar {@code spark-submit} runs, as {@code package} built it: picocli inside but relocated (a
 * cluster's class path may hold another picocli, whose classes would otherwise shadow or be
 * shadowed by ours), Spark left out, and the main running from the jar alone with the relocated
 * picocli (its option parsing is reflection over relocated annotations).
 */
class SubmitJarIT {
    private static final Path JAR = Path.of(System.getProperty("rankgrad.submit.jar"));
    private static final String SHADED = System.getProperty("rankgrad.shaded.picocli").replace('.', '/') + "/";

    @Test
    void picocliIsRelocatedAndSparkLeftOut() throws IOException {
        try (JarFile jar = new JarFile(JAR.toFile())) {
            List<String> names = jar.stream().map(ZipEntry::getName).toList();
            assertEquals(List.of(), names.stream().filter(n -> n.startsWith("picocli/")).toList(), "unrelocated picocli");
            assertTrue(names.contains(SHADED + "CommandLine.class"), "relocated picocli under " + SHADED);
            assertTrue(names.contains("rankgrad/spark/submit/SparkMain.class"));
            assertTrue(names.contains("rankgrad/spark/RankgradRanker.class"), "the library inside");
            assertEquals(List.of(), names.stream().filter(n -> n.startsWith("org/apache/spark/")
                    || n.startsWith("scala/")).limit(3).toList(), "Spark and Scala are the cluster's");
        }
    }

    /**
     * The submit jar and what a cluster adds (Spark and its dependencies, from this test's class
     * path), without any picocli jar or rankgrad's own classes: whatever the main needs of those
     * must come from the jar.
     */
    private static String clusterClassPath() {
        StringBuilder cp = new StringBuilder(JAR.toString());
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            if (!e.contains("picocli") && !name.startsWith("rankgrad-") && !e.endsWith("classes")) {
                cp.append(File.pathSeparator).append(e);
            }
        }
        return cp.toString();
    }

    private static String run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                clusterClassPath(), "rankgrad.spark.submit.SparkMain"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        return out;
    }

    @Test
    void theMainParsesItsOptionsWithTheRelocatedPicocli() throws IOException, InterruptedException {
        assertTrue(run("--version").startsWith("rankgrad-spark 0"), "the jar's version line");
        String usage = run("score", "--help");
        assertTrue(usage.contains("--model") && usage.contains("--docid-key") && usage.contains("--tag"), usage);
    }
}
