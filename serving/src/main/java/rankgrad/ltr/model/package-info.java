/**
 * Ranking models: {@link rankgrad.ltr.model.RankingModel} (a scoring network with its feature
 * normalization), the papers' networks by name ({@link rankgrad.ltr.model.Architectures}), the
 * versioned JSON model file ({@link rankgrad.ltr.model.ModelFile}) and the Solr LTR export
 * ({@link rankgrad.ltr.model.SolrExport}). All public types are API.
 */
package rankgrad.ltr.model;
