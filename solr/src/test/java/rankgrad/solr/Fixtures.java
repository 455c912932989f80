package rankgrad.solr;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.ltr.data.Query;

/**
 * The files {@code scripts/solr-fixtures} writes with the command line: the test queries (a LETOR
 * file of dense rows), the model files and {@code rankgrad predict --format scores} of each model.
 */
final class Fixtures {
    /** Features per document of the fixture data. */
    static final int FEATURES = 6;

    private Fixtures() {
    }

    /** A fixture file's path (the test resources are plain files on the test class path). */
    static Path file(String name) {
        try {
            return Path.of(Fixtures.class.getResource("/fixtures/" + name).toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("fixture " + name + " is missing: run scripts/solr-fixtures", e);
        }
    }

    /**
     * The test file's queries in file order, each with its documents' raw features in file order
     * (lines {@code label qid:Q 1:v1 ... 6:v6 # comment}, every feature present, as generate writes).
     */
    static List<Query> queries() {
        Map<String, List<float[]>> byQuery = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file("test.txt"))) {
                String[] tokens = line.split("#", 2)[0].trim().split("\\s+");
                float[] row = new float[FEATURES];
                for (int f = 0; f < FEATURES; f++) {
                    String[] idValue = tokens[f + 2].split(":");
                    if (Integer.parseInt(idValue[0]) != f + 1) {
                        throw new IllegalStateException("test.txt: expected feature " + (f + 1) + " in " + line);
                    }
                    row[f] = Float.parseFloat(idValue[1]);
                }
                byQuery.computeIfAbsent(tokens[1].substring("qid:".length()), q -> new ArrayList<>()).add(row);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Query> out = new ArrayList<>();
        byQuery.forEach((qid, rows) -> {
            float[] x = new float[rows.size() * FEATURES];
            for (int d = 0; d < rows.size(); d++) {
                System.arraycopy(rows.get(d), 0, x, d * FEATURES, FEATURES);
            }
            out.add(new Query(qid, FEATURES, x, new float[rows.size()]));
        });
        return out;
    }

    /** {@code predict --format scores} of a model: one score per document, in the test file's order. */
    static float[] predicted(String model) {
        try {
            List<String> lines = Files.readAllLines(file(model + ".scores"));
            float[] out = new float[lines.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = Float.parseFloat(lines.get(i).trim());
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
