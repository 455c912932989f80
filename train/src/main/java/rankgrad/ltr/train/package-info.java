/**
 * Training: the mini-batch {@link rankgrad.ltr.train.Trainer} for any
 * {@link rankgrad.ltr.loss.RankingLoss} with its {@link rankgrad.ltr.train.TrainingConfig}, the
 * single-machine step, checkpoints and exact resume ({@link rankgrad.ltr.train.Checkpoint}, kept
 * beside the trainer whose state it is), the run lock and early stopping. Two sub-packages depend
 * on this one and never the reverse: {@code shards} (virtual shards, the seam a cluster trainer
 * plugs into) and {@code gradientfree} (SPSA and FDSA of Yue and Burges). All public types are API.
 */
package rankgrad.ltr.train;
