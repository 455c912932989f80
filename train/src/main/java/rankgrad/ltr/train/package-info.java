/**
 * Training: the mini-batch {@link rankgrad.ltr.train.Trainer} for any
 * {@link rankgrad.ltr.loss.RankingLoss} (checkpoints, exact resume, early stopping) with its
 * {@link rankgrad.ltr.train.TrainingConfig}, and the gradient-free trainers of Yue and Burges
 * ({@link rankgrad.ltr.train.Spsa}, {@link rankgrad.ltr.train.Fdsa} with Spall's
 * {@link rankgrad.ltr.train.SpsaGains}). All public types are API.
 */
package rankgrad.ltr.train;
