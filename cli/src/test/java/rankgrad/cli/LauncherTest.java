package rankgrad.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The jar's entry point: one line on a JVM older than 21, the command on 21 and newer. */
class LauncherTest {

    @Test
    void anOlderJavaGetsOneLineSayingWhatToInstall() {
        String line = Launcher.problem("17", "/usr/lib/jvm/java-17");
        assertTrue(line.startsWith("rankgrad needs Java 21 or newer, and this is Java 17 (/usr/lib/jvm/java-17): install a JDK 21+"), line);
        assertTrue(Launcher.problem("1.8", "/opt/jre8").contains("this is Java 1.8 (/opt/jre8)"));
        assertTrue(Launcher.problem("20", "/x") != null);
    }

    @Test
    void java21AndNewerAndUnknownVersionsRunTheCommand() {
        assertNull(Launcher.problem("21", "/x"));
        assertNull(Launcher.problem("25", "/x"));
        assertNull(Launcher.problem("not-a-version", "/x"));
        assertNull(Launcher.problem(null, "/x"));
    }

    @Test
    void theLauncherIsJava8ClassFilesAndMainIsNot() throws IOException {
        assertEquals(52, majorVersion(Launcher.class), "Launcher must load on Java 8 and newer");
        assertEquals(65, majorVersion(Main.class), "the rest is compiled for Java 21");
    }

    /** With a JDK older than 21 installed (the build machine's default is often 17): the real thing. */
    @Test
    void onAnInstalledOlderJavaTheLauncherSaysSoAndExits1() throws Exception {
        Optional<Path> old = olderJava();
        assumeTrue(old.isPresent(), "no JDK older than 21 in /usr/lib/jvm");
        String classes = Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process p = new ProcessBuilder(old.get().toString(), "-cp", classes, "rankgrad.cli.Launcher", "--help")
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue(), out);
        List<String> lines = out.strip().lines().toList();
        assertEquals(1, lines.size(), out);
        assertTrue(lines.get(0).startsWith("rankgrad needs Java 21 or newer, and this is Java "), out);
    }

    private static int majorVersion(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            DataInputStream data = new DataInputStream(in);
            data.readInt(); // 0xCAFEBABE
            data.readUnsignedShort(); // minor
            return data.readUnsignedShort();
        }
    }

    private static Optional<Path> olderJava() throws IOException {
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> h.getFileName().toString().matches(".*(-|^)(1[1-9]|20|1\\.8\\.0|8)(-|$).*"))
                    .map(h -> h.resolve("bin/java")).filter(Files::isExecutable).findFirst();
        }
    }
}
