package rankgrad.ltr.letor;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The group sizes of a libsvm file whose lines carry no {@code qid:}: LightGBM's {@code FILE.query}
 * and XGBoost's {@code FILE.group}, one positive integer per line, each the number of consecutive
 * documents that form one query.
 *
 * @param file where the sizes were read
 * @param sizes the group sizes in file order
 * @param documents their sum
 */
record GroupFile(Path file, int[] sizes, long documents) {

    /**
     * The group file beside {@code data}: {@code DATA.query} or {@code DATA.group}, and for a
     * {@code .gz} file also the names without {@code .gz}; null when there is none.
     */
    static Path beside(Path data) throws LetorFormatException {
        String name = data.getFileName().toString();
        List<String> bases = new ArrayList<>(List.of(name));
        if (name.endsWith(".gz")) {
            bases.add(name.substring(0, name.length() - 3));
        }
        List<Path> found = new ArrayList<>();
        for (String base : bases) {
            for (String suffix : List.of(".query", ".group")) {
                Path p = data.resolveSibling(base + suffix);
                if (Files.isRegularFile(p)) {
                    found.add(p);
                }
            }
        }
        if (found.size() > 1) {
            throw new LetorFormatException(data.toString(), 0, "its lines have no qid: and " + found.size()
                    + " group files sit beside it (" + found.get(0).getFileName() + ", " + found.get(1).getFileName()
                    + "); name the one to use");
        }
        return found.isEmpty() ? null : found.get(0);
    }

    /** Reads a group file; errors name it and the line. */
    static GroupFile read(Path file) throws IOException {
        String name = file.toString();
        int[] sizes = new int[1024];
        int n = 0;
        long documents = 0;
        try (ByteLines lines = ByteLines.open(file)) {
            while (lines.next()) {
                byte[] b = lines.bytes();
                int from = lines.start();
                int to = lines.end();
                while (from < to && LetorReader.isSpace(b[from])) {
                    from++;
                }
                while (to > from && LetorReader.isSpace(b[to - 1])) {
                    to--;
                }
                if (from == to) {
                    continue;
                }
                long size = AsciiNumbers.parseIndex(b, from, to);
                if (size < 1 || size > Integer.MAX_VALUE) {
                    throw new LetorFormatException(name, lines.line(), "group size '" + Printable.of(b, from, to)
                            + "' is not an integer from 1 to " + Integer.MAX_VALUE + Printable.nonAsciiDigitHint(b, from, to)
                            + " (a group file has one query's document count per line)");
                }
                if (n == sizes.length) {
                    sizes = Arrays.copyOf(sizes, 2 * n);
                }
                sizes[n++] = (int) size;
                documents += size;
            }
        }
        if (n == 0) {
            throw new LetorFormatException(name, 0, "the group file has no group sizes");
        }
        return new GroupFile(file, Arrays.copyOf(sizes, n), documents);
    }
}
