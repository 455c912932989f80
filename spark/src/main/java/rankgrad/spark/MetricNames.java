package rankgrad.spark;

import java.util.ArrayList;
import java.util.List;
import rankgrad.ltr.metric.Metric;

/**
 * Metric lists as the {@code rankgrad} command reads them ({@code ndcg@1,3,5,10,map@10}): a bare
 * cutoff repeats the metric named before it.
 */
final class MetricNames {
    private MetricNames() {
    }

    static List<Metric> parse(String text) {
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
            out.add(Metric.parse(t));
            int at = t.indexOf('@');
            last = at < 0 ? t : t.substring(0, at);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no metric in '" + text + "'");
        }
        return out;
    }
}
