package rankgrad.ltr.data;

import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The MSLR / LETOR 4.0 layout of a cross-validation fold: {@code FoldK/train.txt},
 * {@code FoldK/vali.txt}, {@code FoldK/test.txt} (or the same names with {@code .gz}).
 *
 * @param train training file
 * @param valid validation file
 * @param test test file
 */
public record Folds(Path train, Path valid, Path test) {

    /** Fold {@code k} (1-based) under {@code root}; throws naming the first file that is missing. */
    public static Folds of(Path root, int k) throws NoSuchFileException {
        Path dir = root.resolve("Fold" + k);
        return new Folds(find(dir, "train"), find(dir, "vali"), find(dir, "test"));
    }

    /** The files {@code train.txt}, {@code vali.txt}, {@code test.txt} (or {@code .gz}) directly in {@code dir}. */
    public static Folds plain(Path dir) throws NoSuchFileException {
        return new Folds(find(dir, "train"), find(dir, "vali"), find(dir, "test"));
    }

    /** Whether {@code dir} holds a training file directly (a single split, not FoldK/ folders). */
    public static boolean isPlain(Path dir) {
        return Files.isRegularFile(dir.resolve("train.txt")) || Files.isRegularFile(dir.resolve("train.txt.gz"));
    }

    private static Path find(Path dir, String base) throws NoSuchFileException {
        Path plain = dir.resolve(base + ".txt");
        if (Files.isRegularFile(plain)) {
            return plain;
        }
        Path gz = dir.resolve(base + ".txt.gz");
        if (Files.isRegularFile(gz)) {
            return gz;
        }
        throw new NoSuchFileException(plain.toString(), null, "missing fold file (also looked for " + gz.getFileName() + ")");
    }
}
