package rankgrad.solr;

import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.model.Ensemble;
import rankgrad.ltr.model.RankingModel;

/**
 * What Solr can serve: Solr LTR scores each document from its own feature values, never seeing the
 * rest of the query, so a model whose score of a document depends on the other documents of its
 * query cannot be served there. Two rankgrad models do: query-level z-score normalization (each
 * feature standardized over the query's documents) and {@code attn} (self-attention over the query).
 */
final class SolrServable {
    private SolrServable() {
    }

    /** Why Solr cannot serve {@code ensemble} (a single model is an ensemble of one), or null when it can. */
    static String refusal(Ensemble ensemble) {
        RankingModel first = ensemble.members().get(0);
        if (first.normalization() instanceof Normalization.QueryZScore) {
            return "it uses query-level z-score normalization, which needs the other documents of the query, but Solr"
                    + " scores each document alone; train with --normalization standardize or none to serve it in Solr";
        }
        for (RankingModel m : ensemble.members()) {
            if (m.isListwise()) {
                return m.architecture() + " scores each document against the other documents of its query"
                        + " (self-attention), but Solr scores each document alone; serve a per-document architecture"
                        + " (linear, R4.L, B64, ...)";
            }
        }
        return null;
    }

    /** One line for Solr's explain output: architecture, members, transform and normalization. */
    static String describe(Ensemble ensemble) {
        RankingModel first = ensemble.members().get(0);
        int k = ensemble.members().size();
        return (k == 1 ? first.architecture() : "an ensemble of " + k + " " + first.architecture()) + ", transform "
                + first.transform().kind() + ", normalization " + first.normalization().kind();
    }
}
