package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A run's {@code timings.csv}: {@code epoch,seconds,documents_per_second}, one row per epoch with
 * a known wall time (training and validation), documents/s the training documents over it. Kept
 * apart from {@code metrics.csv}, which holds the same bits for the same run; read back when a run
 * resumes so that the epochs of earlier invocations keep their times.
 */
final class EpochTimes {
    private static final String HEADER = "epoch,seconds,documents_per_second";

    private EpochTimes() {
    }

    /** The CSV of {@code seconds} (epoch to seconds, in epoch order) for {@code documents} training documents. */
    static String csv(Map<Integer, Double> seconds, long documents) {
        StringBuilder csv = new StringBuilder(HEADER + "\n");
        seconds.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> csv.append(String.format(Locale.ROOT,
                "%d,%.6f,%.0f%n", e.getKey(), e.getValue(), documents / e.getValue())));
        return csv.toString();
    }

    /**
     * Epoch to seconds from an earlier invocation's file; empty when there is none. The file is
     * informational (no result depends on it), so a row that does not parse, say one a user
     * edited, is left out rather than stopping the run: its epoch's time is then unknown.
     */
    static Map<Integer, Double> read(Path file) throws IOException {
        Map<Integer, Double> seconds = new HashMap<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return seconds;
        }
        for (String line : lines) {
            String[] f = line.split(",");
            if (f.length == 3 && f[0].matches("[0-9]{1,9}")) {
                try {
                    double s = Double.parseDouble(f[1]);
                    if (s > 0 && Double.isFinite(s)) {
                        seconds.put(Integer.parseInt(f[0]), s);
                    }
                } catch (NumberFormatException ignored) {
                    // An unparsable time: that epoch's time is unknown, as documented above.
                }
            }
        }
        return seconds;
    }
}
