package rankgrad.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Checks an output folder option before any work: it must be a folder, or not exist yet under a
 * folder that can be written (so that a run never fails after its first epoch on a bad path).
 */
final class OutputFolder {
    private OutputFolder() {
    }

    /** Throws a {@link CommandLine.ParameterException} naming {@code option} when {@code folder} cannot be written. */
    static void check(CommandLine command, String option, Path folder) {
        Path abs = folder.toAbsolutePath().normalize();
        Path existing = abs;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            throw new CommandLine.ParameterException(command, option + ": " + folder + " has no existing parent folder");
        }
        if (!Files.isDirectory(existing)) {
            throw new CommandLine.ParameterException(command, option + ": " + (existing.equals(abs) ? folder + " is a file,"
                    + " not a folder" : folder + " cannot be created: " + existing + " is a file, not a folder"));
        }
        if (!Files.isWritable(existing)) {
            throw new CommandLine.ParameterException(command, option + ": " + (existing.equals(abs) ? "cannot write into "
                    + folder : folder + " cannot be created: " + existing + " is not writable") + " (permission denied)");
        }
    }
}
