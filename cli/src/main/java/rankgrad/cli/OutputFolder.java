package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import picocli.CommandLine;

/**
 * Checks an output folder option before any work: it must be a folder, or not exist yet under a
 * folder that can be written (so that a run never fails after its first epoch on a bad path).
 *
 * <p>Links: an output folder that is itself a symbolic link is resolved once, at the start, and
 * the command says where it writes; the run then uses the real folder, so a link swapped during
 * the run redirects nothing. Inside it, the subfolders a command makes (ensemble members, folds)
 * must be real folders: a link there would send a run's files into another folder.
 */
final class OutputFolder {
    private OutputFolder() {
    }

    /**
     * The folder to write into: {@code folder}, or where it links to (said on the command's error
     * stream). Throws a {@link CommandLine.ParameterException} naming {@code option} when
     * {@code folder} cannot be written.
     */
    static Path check(CommandLine command, String option, Path folder) {
        if (Files.isSymbolicLink(folder)) {
            Path real;
            try {
                real = folder.toRealPath();
            } catch (IOException e) {
                throw new CommandLine.ParameterException(command, option + ": " + folder + " is a symbolic link to a"
                        + " missing folder");
            }
            command.getErr().println("rankgrad: " + option + " " + folder + " is a symbolic link; writing into " + real);
            folder = real;
        }
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
        return folder;
    }

    /**
     * The subfolder {@code name} of an output folder, refused when it is a symbolic link (or a
     * file) rather than a folder or nothing yet.
     */
    static Path subfolder(Path parent, String name) throws IOException {
        Path dir = parent.resolve(name);
        if (Files.isSymbolicLink(dir)) {
            throw new IOException(dir + " is a symbolic link; rankgrad writes a run's files only into real folders inside"
                    + " its output folder: remove the link (rm " + dir + ") or write to another folder");
        }
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is a file, not a folder; remove it or write to another folder");
        }
        return dir;
    }
}
