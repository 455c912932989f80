/**
 * Training: the {@link rankgrad.ltr.train.Trainer} (epochs, selection, early stopping),
 * checkpoints and resume, the run lock, the sharding seam used by Spark, and the gradient-free
 * trainers (SPSA, FDSA).
 */
module rankgrad.train {
    requires transitive rankgrad.serving;

    exports rankgrad.ltr.train;
}
