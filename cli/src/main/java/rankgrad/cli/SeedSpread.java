package rankgrad.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import rankgrad.ltr.io.Json;

/**
 * {@code eval}'s seed spread: models of one recipe (model files equal in everything but their seeds,
 * weights and results) are grouped, and each group's spread of per-model means is printed, because
 * on small data sets the seed moves a score more than the choice of recipe does.
 *
 * <p>Per group and metric: the mean over models of each model's mean, the sample standard
 * deviation s = sqrt(sum (m_i - mean)^2 / (n - 1)), and the range.
 */
final class SeedSpread {
    private SeedSpread() {
    }

    /**
     * The recipe of a single-model file as one string (its architecture and training settings
     * without seeds, its normalization's kind, its loss); null for any other file (an ensemble).
     */
    static String recipe(Path model) throws IOException {
        if (!(Json.parse(Files.readString(model)) instanceof Map<?, ?> file) || !(file.get("version") instanceof Number v)
                || v.intValue() != 1) {
            return null;
        }
        Map<String, Object> arch = withoutSeed(file.get("architecture"));
        if (arch.get("context") != null) {
            arch.put("context", withoutSeed(arch.get("context")));
        }
        Map<String, Object> info = withoutSeed(file.get("info"));
        Object normalization = file.get("normalization") instanceof Map<?, ?> n ? n.get("kind") : null;
        List<Object> key = new ArrayList<>();
        key.add(arch);
        key.add(normalization);
        key.add(info.get("loss"));
        key.add(withoutSeed(info.get("training")));
        return Json.write(key);
    }

    private static Map<String, Object> withoutSeed(Object section) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (section instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(k.toString(), v));
        }
        out.remove("seed");
        return out;
    }

    /**
     * The spread table, or null when no two models share a recipe; {@code recipes.get(i)} is
     * input i's recipe (null: none), {@code perQuery[input][metric][query]} its values.
     */
    static String markdown(List<String> names, List<String> recipes, List<String> metrics, double[][][] perQuery) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < recipes.size(); i++) {
            if (recipes.get(i) != null) {
                groups.computeIfAbsent(recipes.get(i), k -> new ArrayList<>()).add(i);
            }
        }
        List<String[]> text = new ArrayList<>();
        String[] header = new String[metrics.size() + 2];
        header[0] = "recipe (first model)";
        header[1] = "models";
        for (int c = 0; c < metrics.size(); c++) {
            header[c + 2] = metrics.get(c);
        }
        text.add(header);
        for (List<Integer> group : groups.values()) {
            if (group.size() < 2) {
                continue;
            }
            String[] line = new String[metrics.size() + 2];
            line[0] = names.get(group.get(0));
            line[1] = Integer.toString(group.size());
            for (int c = 0; c < metrics.size(); c++) {
                double[] means = new double[group.size()];
                for (int g = 0; g < means.length; g++) {
                    means[g] = mean(perQuery[group.get(g)][c]);
                }
                line[c + 2] = spread(means);
            }
            text.add(line);
        }
        return text.size() == 1 ? null : MarkdownTable.of(text);
    }

    /** "mean ± s [min, max]" of the models' means. */
    static String spread(double[] means) {
        double m = 0;
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double v : means) {
            m += v;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        m /= means.length;
        double ss = 0;
        for (double v : means) {
            ss += (v - m) * (v - m);
        }
        return String.format(Locale.ROOT, "%.4f ± %.4f [%.4f, %.4f]", m, Math.sqrt(ss / (means.length - 1)), lo, hi);
    }

    private static double mean(double[] values) {
        double s = 0;
        int n = 0;
        for (double v : values) {
            if (!Double.isNaN(v)) {
                s += v;
                n++;
            }
        }
        return n == 0 ? Double.NaN : s / n;
    }

    /** What the table says. */
    static String legend() {
        return "Seed spread: models whose files differ only in seeds and weights, per metric the mean of the models'"
                + " means ± their sample standard deviation [lowest, highest].";
    }
}
