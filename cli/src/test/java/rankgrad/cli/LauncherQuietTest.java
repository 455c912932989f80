package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The {@code ./rankgrad} launcher as a user runs it: every command's {@code --help} and a short
 * {@code train} print neither the JVM's incubator-module notice nor the kernel-selection lines;
 * {@code --verbose} prints both; and whatever else the JVM or the command writes to stderr (a JVM
 * error, a bad argument) still comes through with its exit status. Runs after {@code package}
 * (the launcher runs the jar that phase builds; see this module's pom), without the ahead-of-time
 * cache so that no background JVM outlives the test.
 */
class LauncherQuietTest {
    private static final String NOTICE = "WARNING: Using incubator modules";
    private static final String KERNELS = "kernels:";

    @TempDir
    static Path dir;
    private static Path root;

    /** Exit status, standard output and standard error of one launcher run. */
    record Run(int code, String out, String err) {
        String all() {
            return "exit " + code + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    @BeforeAll
    static void findTheLauncher() throws IOException {
        root = Path.of("").toAbsolutePath().getParent();
        assertTrue(Files.isExecutable(root.resolve("rankgrad")), root + " has no executable ./rankgrad");
        Path jar = root.resolve("cli/target/rankgrad.jar");
        // Run by name (-Dtest=...) in the test phase, before package, the launcher would rebuild the
        // jar with Maven inside this test: skipped there. In `mvn verify` it runs after package.
        assumeTrue(Files.isRegularFile(jar) && newerThan(jar).isEmpty(),
                "cli/target/rankgrad.jar is missing or older than the sources: this test runs after package");
    }

    /** A source or pom newer than {@code jar}: the launcher's own rule for rebuilding it. */
    private static Optional<Path> newerThan(Path jar) throws IOException {
        FileTime built = Files.getLastModifiedTime(jar);
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(f -> !f.toString().contains("/target/") && !f.toString().contains("/.git/"))
                    .filter(f -> f.toString().contains("/src/main/") || f.getFileName().toString().equals("pom.xml"))
                    .filter(f -> {
                        try {
                            return Files.isRegularFile(f) && Files.getLastModifiedTime(f).compareTo(built) > 0;
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                    })
                    .findFirst();
        }
    }

    @Test
    void everyCommandsHelpIsQuiet() throws Exception {
        List<List<String>> helps = new ArrayList<>();
        helps.add(List.of("--help"));
        helps.add(List.of("--version"));
        for (String command : new CommandLine(new Main()).getSubcommands().keySet()) {
            helps.add(List.of(command, "--help"));
        }
        assertTrue(helps.size() >= 10, helps::toString);
        for (List<String> args : helps) {
            Run r = launch(Map.of(), args);
            assertEquals(0, r.code(), args + "\n" + r.all());
            assertEquals("", r.err(), args + ": nothing on stderr\n" + r.all());
            assertFalse(r.out().contains(NOTICE) || r.out().contains(KERNELS), args + "\n" + r.all());
        }
    }

    @Test
    void aShortTrainingPrintsItsResultsOnlyAndVerboseAddsTheDiagnostics() throws Exception {
        Path data = dir.resolve("data");
        Run g = launch(Map.of(), List.of("generate", "cubic", "--out", data.toString(), "--queries", "30,10,10",
                "--docs", "8", "--features", "4"));
        assertEquals(0, g.code(), g.all());
        List<String> train = List.of("train", "--train", data.resolve("Fold1/train.txt").toString(),
                "--valid", data.resolve("Fold1/vali.txt").toString(), "--epochs", "1", "--model", "linear",
                // A batch chosen for the 30 queries: the small-data warning is output a user needs, not noise.
                "--batch-queries", "8");

        Run quiet = launch(Map.of(), concat(train, "--out", dir.resolve("quiet").toString()));
        assertEquals(0, quiet.code(), quiet.all());
        assertTrue(quiet.out().contains("completed 1 epochs"), quiet.all());
        assertEquals("", quiet.err(), quiet.all());

        Run verbose = launch(Map.of(), concat(train, "--verbose", "--out", dir.resolve("verbose").toString()));
        assertEquals(0, verbose.code(), verbose.all());
        assertTrue(verbose.err().startsWith(NOTICE + ": jdk.incubator.vector"), verbose.all());
        assertTrue(verbose.err().contains("rankgrad kernels: vector("), verbose.all());
        assertTrue(verbose.err().contains("rankgrad pair kernels: vector("), verbose.all());
        // The results are the same with and without the diagnostics.
        assertEquals(Files.readString(dir.resolve("quiet/metrics.csv")), Files.readString(dir.resolve("verbose/metrics.csv")));
    }

    @Test
    void errorsStillReachStderrWithTheirExitStatus() throws Exception {
        Run badArgument = launch(Map.of(), List.of("train", "--epochs", "1"));
        assertEquals(2, badArgument.code(), badArgument.all());
        assertEquals("rankgrad train: Missing required option: '--train=<train>' (see 'rankgrad train --help')",
                badArgument.err().strip(), badArgument.all());

        // The JVM's own error, before the module system starts: the first line, not the notice, so it passes.
        Run badJvmOption = launch(Map.of("RANKGRAD_JAVA_OPTS", "-XX:+NoSuchRankgradOption"), List.of("--help"));
        assertNotEquals(0, badJvmOption.code(), badJvmOption.all());
        assertTrue(badJvmOption.err().contains("Unrecognized VM option 'NoSuchRankgradOption'"), badJvmOption.all());

        // A message after the notice: the notice goes, the rest stays.
        Run missingFile = launch(Map.of(), List.of("stats", dir.resolve("absent.txt").toString()));
        assertEquals(1, missingFile.code(), missingFile.all());
        assertEquals("rankgrad: no such file: " + dir.resolve("absent.txt"), missingFile.err().strip(), missingFile.all());
    }

    private static List<String> concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all;
    }

    private static Run launch(Map<String, String> env, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(root.resolve("rankgrad").toString());
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        pb.environment().put("RANKGRAD_AOT", "0");
        pb.environment().remove("RANKGRAD_JAVA_OPTS");
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), command + " did not finish in 120 s");
        Run r = new Run(p.exitValue(), out, err.join());
        assertFalse(r.err().contains("building the command-line jar"),
                "the launcher rebuilt the jar (sources newer than cli/target/rankgrad.jar): run 'mvn package' first\n" + r.all());
        return r;
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
