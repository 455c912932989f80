/**
 * Training: the {@link rankgrad.ltr.train.Trainer} (epochs, selection, early stopping),
 * checkpoints and resume, the run lock; the sharding seam used by Spark
 * ({@code rankgrad.ltr.train.shards}) and the gradient-free trainers (SPSA, FDSA:
 * {@code rankgrad.ltr.train.gradientfree}).
 */
module rankgrad.train {
    requires transitive rankgrad.serving;

    exports rankgrad.ltr.train;
    exports rankgrad.ltr.train.gradientfree;
    exports rankgrad.ltr.train.shards;
}
