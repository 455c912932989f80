package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import rankgrad.ltr.data.Dataset;
import rankgrad.ltr.data.Query;
import rankgrad.ltr.io.AtomicWrite;

/**
 * The validation split of {@code --split-valid}, written for other tools: the held-out query ids,
 * one per line in the training file's order, in {@value #FILE} of the output folder (atomically).
 * A LETOR file names each query once ({@code LetorReader} refuses a qid that comes back after
 * other queries), so the ids identify the split: another tool (LightGBM, XGBoost) trains on the
 * other queries of the same file and validates on these.
 */
final class HeldOutQueries {
    /** The file's name in the output folder. */
    static final String FILE = "valid-qids.txt";

    private HeldOutQueries() {
    }

    /** The split as a model's info and the run fingerprint record it. */
    static String describe(double fraction, long seed) {
        return String.format(Locale.ROOT, "validation: %s of the training queries held out, seed %d", fraction, seed);
    }

    /** Writes the query ids of {@code valid} to {@code folder}/{@value #FILE} and returns that path. */
    static Path write(Path folder, Dataset valid) throws IOException {
        StringBuilder text = new StringBuilder();
        for (Query q : valid.queries()) {
            text.append(q.qid()).append('\n');
        }
        Path file = folder.resolve(FILE);
        AtomicWrite.writeString(file, text.toString());
        return file;
    }
}
