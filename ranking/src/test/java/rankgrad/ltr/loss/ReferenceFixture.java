package rankgrad.ltr.loss;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import rankgrad.ltr.QueryBatch;

/**
 * A fixture of reference values (test resources {@code reference/*.txt}, written by the scripts
 * beside them): blocks of {@code case key=value ...}, then {@code query key=v1,v2,...} lines, then
 * {@code end}; {@code #} starts a comment line.
 */
final class ReferenceFixture {
    /** One case: its settings and its queries, each a map from key to values. */
    record Case(String line, Map<String, String> settings, List<Map<String, double[]>> queries) {
        double number(String key) {
            return Double.parseDouble(settings.get(key));
        }

        String text(String key) {
            return settings.get(key);
        }
    }

    private ReferenceFixture() {
    }

    static List<Case> read(String resource) {
        InputStream in = ReferenceFixture.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("missing test resource " + resource);
        }
        List<Case> cases = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            Case current = null;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                String[] words = line.strip().split(" ");
                switch (words[0]) {
                    case "case" -> {
                        Map<String, String> settings = new LinkedHashMap<>();
                        for (String w : Arrays.copyOfRange(words, 1, words.length)) {
                            String[] kv = w.split("=", 2);
                            settings.put(kv[0], kv.length == 2 ? kv[1] : "");
                        }
                        current = new Case(line, settings, new ArrayList<>());
                    }
                    case "query" -> {
                        Map<String, double[]> query = new LinkedHashMap<>();
                        for (String w : Arrays.copyOfRange(words, 1, words.length)) {
                            String[] kv = w.split("=", 2);
                            query.put(kv[0], Arrays.stream(kv[1].split(",")).mapToDouble(Double::parseDouble).toArray());
                        }
                        current.queries().add(query);
                    }
                    case "end" -> cases.add(current);
                    default -> {
                        // comments and blank lines
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cases;
    }

    /** The batch of a case's queries: offsets and float32 labels. */
    static QueryBatch batch(Case c) {
        int[] offsets = new int[c.queries().size() + 1];
        for (int q = 0; q < c.queries().size(); q++) {
            offsets[q + 1] = offsets[q] + c.queries().get(q).get("labels").length;
        }
        float[] labels = new float[offsets[offsets.length - 1]];
        for (int q = 0; q < c.queries().size(); q++) {
            double[] y = c.queries().get(q).get("labels");
            for (int i = 0; i < y.length; i++) {
                labels[offsets[q] + i] = (float) y[i];
            }
        }
        return new QueryBatch(offsets, labels);
    }

    /** The values of {@code key} of every query of a case, concatenated. */
    static double[] flat(Case c, String key) {
        return c.queries().stream().flatMapToDouble(q -> Arrays.stream(q.get(key))).toArray();
    }
}
