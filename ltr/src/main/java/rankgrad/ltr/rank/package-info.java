/**
 * Rank operators and the metric losses built on them: twin-sigmoid ranks with backward types 1, 2
 * and 3 (Yu et al. 2020), approximate ranks pi^- (Qin et al.; Bruch et al.), the differentiable
 * metrics of Yu Eq. 13-16 ({@link rankgrad.ltr.rank.RankMetric}), and the losses
 * {@link rankgrad.ltr.rank.TwinSigmoidLoss} and {@link rankgrad.ltr.rank.ApproxNdcgLoss}.
 * All are custom-gradient nodes whose pairwise work runs in a
 * {@link rankgrad.ltr.pairwise.PairwiseBackend}.
 */
package rankgrad.ltr.rank;
