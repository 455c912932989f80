/**
 * The rank operators, as custom-gradient nodes (the pairwise ones running their pair work in a
 * {@link rankgrad.ltr.pairwise.PairwiseBackend}): twin-sigmoid ranks pi^+ with backward types 1, 2
 * and 3 (Yu et al. 2020; {@link rankgrad.ltr.rank.TwinSigmoidRanks}), approximate ranks pi^- (Qin
 * et al.; Bruch et al.; {@link rankgrad.ltr.rank.ApproxRanks}), soft ranks and soft sorts by
 * projection onto the permutahedron (Blondel et al. 2020; {@link rankgrad.ltr.rank.SoftRank},
 * {@link rankgrad.ltr.rank.SoftSort}), the interface every differentiable rank operator implements
 * to be composed with every metric ({@link rankgrad.ltr.rank.DifferentiableRanks}), the three
 * modes of computing ranks and their gradients ({@link rankgrad.ltr.rank.RankMode}, which the losses of
 * {@code rankgrad.ltr.loss} build on), the differentiable metrics of ranks of Yu Eq. 13-16
 * ({@link rankgrad.ltr.rank.RankMetric}), the seeded tie-breaking every loss draws from
 * ({@link rankgrad.ltr.rank.TieBreak}) and the shared argument checks
 * ({@link rankgrad.ltr.rank.Inputs}). All public types are API.
 */
package rankgrad.ltr.rank;
