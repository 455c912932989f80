package rankgrad.cli;

import java.util.ArrayList;
import java.util.List;
import rankgrad.ltr.metric.Metric;

/**
 * Parses metric lists like {@code ndcg@1,3,5,10,map@10,err@10}: a bare cutoff repeats the metric
 * named before it. The {@code --metrics} syntax of {@code rankgrad eval} and of the Spark
 * module's {@code eval}.
 */
public final class MetricList {
    private MetricList() {
    }

    /**
     * The metrics of {@code text} in order, each token read by {@link Metric#parse}.
     *
     * @throws IllegalArgumentException for an unknown metric, a cutoff with no metric before it, or
     *     a list without a metric
     */
    public static List<Metric> parse(String text) {
        List<Metric> out = new ArrayList<>();
        String last = null;
        for (String token : text.split(",")) {
            String t = token.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.chars().allMatch(Character::isDigit)) {
                if (last == null) {
                    throw new IllegalArgumentException("cutoff " + t + " has no metric before it in '" + text + "'");
                }
                t = last + "@" + t;
            }
            Metric m = Metric.parse(t);
            int at = t.indexOf('@');
            last = at < 0 ? t : t.substring(0, at);
            out.add(m);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no metric in '" + text + "'");
        }
        return out;
    }
}
