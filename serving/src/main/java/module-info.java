/**
 * What an application needs to load a {@code model.json} and score: models, ensembles, the
 * thread-safe {@link rankgrad.ltr.model.Scorer}, feature transforms and normalization, and the Solr
 * export; no trainer, readers or checkpoints. Atomic file writes and the JSON reader ({@code
 * rankgrad.ltr.io}) serve every module that writes files.
 */
module rankgrad.serving {
    requires transitive rankgrad.ranking;
    requires transitive rankgrad.nn;

    exports rankgrad.ltr.model;
    exports rankgrad.ltr.io;
}
