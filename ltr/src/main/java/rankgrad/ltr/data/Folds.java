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
