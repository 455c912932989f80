package rankgrad.ltr.data;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Summary of a dataset: sizes, documents per query, the label mix, and queries without a relevant
 * document (which the metrics' no-relevant policy excludes by default).
 *
 * @param name the dataset's name
 * @param queries number of queries
 * @param documents number of documents
 * @param features feature columns
 * @param minDocs fewest documents in a query
 * @param maxDocs most documents in a query
 * @param labelCounts documents per label value, ascending
 * @param queriesWithoutRelevant queries whose labels are all 0
 */
public record DatasetStats(String name, int queries, long documents, int features, int minDocs, int maxDocs,
        Map<Float, Long> labelCounts, int queriesWithoutRelevant) {

    /** Computes the statistics of {@code data}. */
    public static DatasetStats of(Dataset data) {
        Map<Float, Long> labels = new TreeMap<>();
        int min = Integer.MAX_VALUE;
        int max = 0;
        int noRelevant = 0;
        for (Query q : data.queries()) {
            min = Math.min(min, q.docs());
            max = Math.max(max, q.docs());
            noRelevant += q.hasRelevant() ? 0 : 1;
            for (float l : q.labels()) {
                labels.merge(l, 1L, Long::sum);
            }
        }
        return new DatasetStats(data.name(), data.size(), data.documents(), data.features(),
                data.size() == 0 ? 0 : min, max, labels, noRelevant);
    }

    /** Mean documents per query. */
    public double meanDocs() {
        return queries == 0 ? 0 : (double) documents / queries;
    }

    /** A human-readable report. */
    public String report() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%s: %d quer%s, %d document%s, %d feature%s%n", name, queries,
                queries == 1 ? "y" : "ies", documents, documents == 1 ? "" : "s", features, features == 1 ? "" : "s"));
        sb.append(String.format(Locale.ROOT, "documents per query: min %d, mean %.1f, max %d%n", minDocs, meanDocs(), maxDocs));
        sb.append("labels:");
        labelCounts.forEach((label, count) -> sb.append(String.format(Locale.ROOT, "  %s: %d (%.1f%%)",
                label == Math.rint(label) ? Long.toString(label.longValue()) : label.toString(), count,
                100.0 * count / Math.max(1, documents))));
        sb.append(String.format(Locale.ROOT, "%nqueries without a relevant document: %d (%.1f%%)%n", queriesWithoutRelevant,
                100.0 * queriesWithoutRelevant / Math.max(1, queries)));
        return sb.toString();
    }
}
