package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads back what {@code train --folds K} wrote to {@code cv.csv} ({@link CrossValidation}). */
final class CvSummary {
    private CvSummary() {
    }

    /** The held-out value of the selection metric of folds 1..K: the last column of cv.csv's rows "1" to "K". */
    static double[] perFold(Path cvCsv, int k) throws IOException {
        List<String> lines = Files.readAllLines(cvCsv);
        double[] values = new double[k];
        for (int i = 1; i <= k; i++) {
            if (i >= lines.size() || !lines.get(i).startsWith(i + ",")) {
                throw new IOException(cvCsv + ": line " + (i + 1) + " is not fold " + i);
            }
            String line = lines.get(i);
            values[i - 1] = Double.parseDouble(line.substring(line.lastIndexOf(',') + 1));
        }
        return values;
    }
}
