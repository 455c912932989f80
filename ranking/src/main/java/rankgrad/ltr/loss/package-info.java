/**
 * Every ranking loss, each a {@link rankgrad.ltr.loss.RankingLoss} whose per-query work runs inside one
 * custom-gradient node: the twin-sigmoid metric losses (Yu et al.), ApproxNDCG (Qin et al.; Bruch
 * et al.), SDCG, SHF-SDCG and REG-SHF-SDCG (Wu et al.), LambdaRank and RankNet (Burges et al.),
 * ListNet and ListMLE. The pairwise work runs in a {@link rankgrad.ltr.pairwise.PairwiseBackend}.
 *
 * <p>API: the loss classes, {@link rankgrad.ltr.loss.Losses} (the registry: names, {@code parse},
 * help) and {@link rankgrad.ltr.loss.LossFamily} (a registry row). The nodes are internal. A new
 * loss is one class plus one row in {@code Losses}; every loss-wide test then covers it.
 */
package rankgrad.ltr.loss;
