package rankgrad.ltr.loss;

import java.util.List;
import java.util.Locale;
import java.util.regex.MatchResult;
import java.util.stream.Collectors;
import rankgrad.ltr.loss.LossFamily.Property;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.RankMetric;

/**
 * The loss registry: every ranking loss by the name the papers use (and the command line takes),
 * one {@link LossFamily} row per family. {@link #parse} reads a name; the command line's help and
 * every loss-wide test iterate {@link #families()}, so adding a loss is one class plus one row here.
 *
 * <p>Losses whose value follows a schedule over the training run (REG-SHF-SDCG) take its length
 * from {@link RankingLoss#forRun}, which the trainer calls; a name carries no run length.
 */
public final class Losses {
    private static final List<LossFamily> FAMILIES = List.of(
            LossFamily.of("ndcg-typeT", "ndcg-type([123])",
                    "minus nDCG of the twin-sigmoid ranks, backward type T = 1, 2 or 3 (Yu et al. 2020)", "ndcg-type3",
                    (n, seed) -> TwinSigmoidLoss.of(RankMetric.ndcg(), type(n, 1), seed))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("ap-typeT", "ap-type([123])", "minus average precision of the twin-sigmoid ranks (Yu et al.)",
                    "ap-type1", (n, seed) -> TwinSigmoidLoss.of(RankMetric.averagePrecision(), type(n, 1), seed))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("precision@k-typeT", "(?:precision|pre)@(\\d+)-type([123])",
                    "minus Pre@k of the twin-sigmoid ranks (Yu et al.); pre@k-typeT is the same", "precision@5-type2",
                    (n, seed) -> TwinSigmoidLoss.of(RankMetric.precision(integer(n, 1)), type(n, 2), seed))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("nerr@k-typeT", "nerr@(\\d+)-type([123])",
                    "minus nERR@k of the twin-sigmoid ranks, grades 0..4 (Yu et al.)", "nerr@10-type3",
                    (n, seed) -> TwinSigmoidLoss.of(RankMetric.nerr(integer(n, 1)), type(n, 2), seed))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("approx-ndcg[:ALPHA]", "approx-ndcg(?::(.+))?",
                    "minus nDCG of the approximate ranks, sigmoid steepness ALPHA (default 10; Qin et al.; Bruch et al.)",
                    "approx-ndcg", (n, seed) -> ApproxNdcgLoss.of(n.group(1) == null ? ApproxNdcgLoss.DEFAULT_ALPHA
                            : number(n, 1))),
            LossFamily.of("sdcg@k", "sdcg@(\\d+)", "minus smoothed DCG@k / IDCG@k on approximate ranks (Wu et al. 2009)",
                    "sdcg@10", (n, seed) -> SmoothedDcgLoss.sdcg(integer(n, 1))),
            LossFamily.of("shf-sdcg@k", "shf-sdcg@(\\d+)", "smoothed DCG@k on smoothed-hinge ranks (Wu et al. Eq. 12-16)",
                    "shf-sdcg@10", (n, seed) -> SmoothedDcgLoss.shfSdcg(integer(n, 1))),
            LossFamily.of("shf-sdcg-annealed@k", "shf-sdcg-annealed@(\\d+)",
                    "SHF-SDCG@k with the annealed cutoff weight (Wu et al. Eq. 17)", "shf-sdcg-annealed@10",
                    (n, seed) -> SmoothedDcgLoss.shfSdcg(integer(n, 1)).annealed(seed))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("reg-shf-sdcg@k", "reg-shf-sdcg@(\\d+)",
                    "regression blended into SHF-SDCG@k over the training run (Wu et al. Eq. 18-19)", "reg-shf-sdcg@10",
                    (n, seed) -> RegShfSdcgLoss.overRun(SmoothedDcgLoss.shfSdcg(integer(n, 1))))
                    .without(Property.SHIFT_INVARIANT),
            LossFamily.of("lambdarank", "lambdarank", "LambdaRank for NDCG (Burges et al. 2006)", "lambdarank",
                    (n, seed) -> LambdaRankLoss.create(seed)),
            LossFamily.of("lambdarank@k", "lambdarank@(\\d+)", "LambdaRank for NDCG@k", "lambdarank@5",
                    (n, seed) -> LambdaRankLoss.create(seed).withTruncation(integer(n, 1))),
            LossFamily.of("lambdarank-lgbm@k", "lambdarank-lgbm(?:@(\\d+))?",
                    "LambdaRank as LightGBM computes it: pairs with a document in the top k (@k optional: 30, "
                    + "LightGBM's lambdarank_truncation_level), lambdarank_norm",
                    "lambdarank-lgbm@5", (n, seed) -> n.group(1) == null ? LightGbmLambdaRankLoss.create()
                            : LightGbmLambdaRankLoss.create().withTruncation(integer(n, 1)))
                    .without(Property.GRADIENT_OF_VALUE),
            LossFamily.of("ranknet", "ranknet", "pairwise logistic loss (Burges et al. 2005)", "ranknet",
                    (n, seed) -> RankNetLoss.create()),
            LossFamily.of("listnet", "listnet", "top-one cross-entropy of the score and label softmaxes (Cao et al. 2007)",
                    "listnet", (n, seed) -> ListNetLoss.create()),
            LossFamily.of("listmle", "listmle", "Plackett-Luce likelihood of the label order (Xia et al. 2008)",
                    "listmle", (n, seed) -> ListMleLoss.create(seed)),
            LossFamily.of("softmax-ce", "softmax-ce",
                    "cross-entropy of the grades normalized to sum 1 and the score softmax (TF-Ranking's softmax loss)",
                    "softmax-ce", (n, seed) -> SoftmaxCrossEntropyLoss.create()),
            LossFamily.of("ndcgloss1@k", "ndcgloss1(?:@(\\d+))?",
                    "LambdaLoss NDCG-Loss1 over the top k positions, @k optional (Wang et al. 2018; allRank)",
                    "ndcgloss1", (n, seed) -> truncated(LambdaLoss.ndcgLoss1(seed), n)),
            LossFamily.of("ndcgloss2@k", "ndcgloss2(?:@(\\d+))?",
                    "LambdaLoss NDCG-Loss2 over the top k positions, @k optional (Wang et al. 2018; allRank)",
                    "ndcgloss2@5", (n, seed) -> truncated(LambdaLoss.ndcgLoss2(seed), n)),
            LossFamily.of("ndcgloss2++@k:MU", "ndcgloss2\\+\\+(?:@(\\d+))?(?::(.+))?",
                    "LambdaLoss NDCG-Loss2++ with mixing weight MU, @k and :MU optional (MU = 10; Wang et al. 2018)",
                    "ndcgloss2++:2.5", (n, seed) -> truncated(LambdaLoss.ndcgLoss2PlusPlus(
                            n.group(2) == null ? LambdaLoss.DEFAULT_MU : number(n, 2), seed), n)));

    private Losses() {
    }

    /** The registry: one row per family of losses, in the order the help lists them. */
    public static List<LossFamily> families() {
        return FAMILIES;
    }

    /**
     * The loss called {@code name} (case and surrounding blanks ignored); {@code seed} seeds its
     * random tie-breaks.
     *
     * @throws IllegalArgumentException for an unknown name or a parameter out of range, saying which
     */
    public static RankingLoss parse(String name, long seed) {
        String n = name.strip().toLowerCase(Locale.ROOT);
        for (LossFamily family : FAMILIES) {
            RankingLoss loss = family.parse(n, seed);
            if (loss != null) {
                return loss;
            }
        }
        throw new IllegalArgumentException("unknown loss '" + name + "'; the losses are " + FAMILIES.stream()
                .map(LossFamily::syntax).collect(Collectors.joining(", "))
                + " (spsa:F and fdsa are trainers, see train --help)");
    }

    /** One line per family: syntax, description and an example. */
    public static String help() {
        return FAMILIES.stream().map(LossFamily::toString).collect(Collectors.joining(System.lineSeparator()));
    }

    private static LambdaLoss truncated(LambdaLoss loss, MatchResult name) {
        return name.group(1) == null ? loss : loss.withTruncation(integer(name, 1));
    }

    private static BackwardType type(MatchResult name, int group) {
        return BackwardType.of(Integer.parseInt(name.group(group)));
    }

    private static int integer(MatchResult name, int group) {
        try {
            return Integer.parseInt(name.group(group));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss '" + name.group() + "': " + name.group(group) + " is too large");
        }
    }

    private static double number(MatchResult name, int group) {
        try {
            return Double.parseDouble(name.group(group));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss '" + name.group() + "': '" + name.group(group)
                    + "' is not a number");
        }
    }
}
