package rankgrad.ltr.metric;

import java.util.List;
import java.util.Locale;

/** The exact IR metrics (DESIGN section 3.1), with the names they are parsed from. */
public enum MetricKind {
    /** Normalized discounted cumulative gain, DCG@k / IDCG@k. */
    NDCG("ndcg"),
    /** Discounted cumulative gain, sum_{r&lt;=k} (2^{y_(r)} - 1) / log2(1 + r). */
    DCG("dcg"),
    /** Precision, (1/k) sum_{r&lt;=k} b_(r) with b = [y &gt; 0]. */
    PRECISION("p", "precision", "prec"),
    /** Average precision, sum_{r&lt;=k} b_(r) P@r / min(k, |relevant|); its mean over queries is MAP. */
    AP("map", "ap"),
    /**
     * trec_eval's {@code map_cut}: sum_{r&lt;=k} b_(r) P@r / |relevant|, the divisor all relevant
     * documents of the query (so a query with more relevant documents than k cannot reach 1).
     */
    AP_ALL_RELEVANT("map_cut"),
    /** Expected reciprocal rank, sum_{r&lt;=k} R_(r) / r prod_{i&lt;r} (1 - R_(i)), R = (2^y - 1) / 2^ymax. */
    ERR("err"),
    /** ERR@k divided by the ideal ERR@k. */
    NERR("nerr"),
    /** Reciprocal rank of the first relevant document within the cutoff (0 if none); mean = MRR. */
    MRR("mrr", "rr", "recip_rank");

    private final List<String> names;

    MetricKind(String canonical, String... aliases) {
        this.names = List.of(concat(canonical, aliases));
    }

    /** The name used in metric strings, e.g. "ndcg" in "ndcg@10". */
    public String canonicalName() {
        return names.get(0);
    }

    /** The kind named {@code name} (canonical name or alias, any case). */
    public static MetricKind fromName(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (MetricKind k : values()) {
            if (k.names.contains(n)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + name + "'; known: ndcg, dcg, p (precision), map (ap), "
                + "map_cut, err, nerr, mrr, each optionally with @k, e.g. ndcg@10, or trec_eval's names ndcg_cut.10, map_cut.10, P.5,"
                + " recip_rank, map, ndcg");
    }

    private static String[] concat(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
