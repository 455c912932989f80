package rankgrad.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import rankgrad.ltr.io.AtomicWrite;

/**
 * The plans that {@code tune --budget TIME} ran, kept per command, data and machine, so that the
 * same command run again trains the same plan ({@link TunePlan}) and chooses the same winner
 * instead of re-measuring rates that differ from run to run with the machine's load.
 *
 * <p>One file per plan in {@code $XDG_CACHE_HOME/rankgrad/tune} (else {@code ~/.cache/rankgrad/tune};
 * the system property {@code rankgrad.cache} names another folder), named by a SHA-256 of its key:
 * everything the measured rates depend on that does not change between two runs of one command
 * (rankgrad's and Java's versions, processors and processor model, the budget and search options,
 * the training data's content, the validation file's path, size and time). The file is written
 * atomically after the run, so a run stopped halfway leaves none; an unreadable one is measured
 * again. {@code tune --recalibrate} measures and replaces it.
 */
final class TunePlans {
    private final Path folder;

    TunePlans(Path folder) {
        this.folder = folder;
    }

    /** The default folder: the system property {@code rankgrad.cache}, else the user's cache folder, + "tune". */
    static TunePlans standard() {
        String own = System.getProperty("rankgrad.cache");
        String xdg = System.getenv("XDG_CACHE_HOME");
        Path base = own != null ? Path.of(own)
                : xdg != null && !xdg.isBlank() ? Path.of(xdg, "rankgrad")
                : Path.of(System.getProperty("user.home"), ".cache", "rankgrad");
        return new TunePlans(base.resolve("tune"));
    }

    /** The file of the plan of {@code key}'s lines. */
    Path file(List<String> key) {
        return folder.resolve(sha256(String.join("\n", key)).substring(0, 32) + ".plan");
    }

    /** The plan kept for {@code key}, if any was (and it reads as one). */
    Optional<TunePlan> read(List<String> key) {
        Path f = file(key);
        try {
            if (Files.isRegularFile(f)) {
                return Optional.of(TunePlan.parse(Files.readString(f).strip()));
            }
        } catch (IOException | IllegalArgumentException e) {
            // A damaged plan file costs only a new measurement.
        }
        return Optional.empty();
    }

    /** Keeps {@code plan} for {@code key} (atomically; a failure to write costs only the next run a measurement). */
    boolean write(List<String> key, TunePlan plan) {
        try {
            Files.createDirectories(folder);
            AtomicWrite.writeString(file(key), plan.text() + "\n");
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** What identifies a machine's speed for a plan: versions, processors and the processor's model name. */
    static List<String> machine() {
        String cpu = "unknown";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .findFirst().orElse(cpu);
        } catch (IOException | RuntimeException e) {
            // Not Linux: the other lines still separate machines by processors and versions.
        }
        return List.of("rankgrad " + new Version().getVersion()[0], "processors " + Runtime.getRuntime()
                .availableProcessors(), "cpu " + cpu, "os " + System.getProperty("os.name") + " " + System.getProperty(
                "os.arch"));
    }

    /** A file's identity without reading it: absolute path, size and modification time. */
    static String fileIdentity(Path file) {
        try {
            return file.toAbsolutePath().normalize() + " " + Files.size(file) + " " + Files.getLastModifiedTime(file)
                    .toMillis();
        } catch (IOException e) {
            return file.toAbsolutePath().normalize() + " unreadable";
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(
                    StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
