package rankgrad.ltr.loss;

import java.util.List;
import java.util.Locale;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import rankgrad.ltr.loss.LossFamily.Property;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.rank.NeuralSort;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.RankMetric;
import rankgrad.ltr.rank.RelaxedSort;
import rankgrad.ltr.rank.SinkhornScaling;
import rankgrad.ltr.rank.PrilloSoftSort;
import rankgrad.ltr.rank.SortingNetwork;
import rankgrad.ltr.rank.SwapSigmoid;

/**
 * The loss registry: every ranking loss by the name the papers use (and the command line takes),
 * one {@link LossFamily} row per family. {@link #parse} reads a name; the command line's help and
 * every loss-wide test iterate {@link #families()}, so adding a loss is one class plus one row here.
 *
 * <p>Every differentiable metric through every rank operator: {@code METRIC~OPERATOR}, with METRIC
 * one of {@code ndcg}, {@code ndcg@k}, {@code ap}, {@code precision@k} ({@code pre@k}, {@code p@k}),
 * {@code nerr@k}, {@code mrr} and OPERATOR a name of {@link RankOperators} ({@code twin3},
 * {@code sigmoid:10}, {@code softrank-q:0.1}, ...): one row per operator family, made from that
 * registry ({@link ComposedLoss}).
 *
 * <p>Losses whose value follows a schedule over the training run (REG-SHF-SDCG) take its length
 * from {@link RankingLoss#forRun}, which the trainer calls; a name carries no run length.
 */
public final class Losses {
    /** The metrics of {@code METRIC~OPERATOR} names, as the help lists them (a constant, so that an option's help can name it). */
    public static final String METRICS = "ndcg, ndcg@k, ap, precision@k, nerr@k, mrr";
    private static final Pattern METRIC = Pattern.compile("(ndcg|ap|mrr)|ndcg@(\\d+)|(?:precision|pre|p)@(\\d+)|nerr@(\\d+)");

    private static final List<LossFamily> NAMED = List.of(
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
            LossFamily.of("neuralsort[@k]:TAU", "neuralsort(?:@(\\d+))?:(.+)",
                    "minus nDCG@k of the gains sorted by NeuralSort's matrix at temperature TAU (Grover et al. 2019)",
                    "neuralsort:1.0", (n, seed) -> NeuralNdcgLoss.of(NeuralSort.of(number(n, 2)), cutoff(n, 1),
                            SinkhornScaling.none())),
            LossFamily.of("softsort[@k]:TAU", "softsort(?:@(\\d+))?:(.+)",
                    "minus nDCG@k of the gains sorted by SoftSort's matrix at temperature TAU (Prillo & Eisenschlos 2020)",
                    "softsort@3:0.5", (n, seed) -> NeuralNdcgLoss.of(PrilloSoftSort.of(number(n, 2)), cutoff(n, 1),
                            SinkhornScaling.none())),
            LossFamily.of("neural-ndcg[@k][:TAU[:ITER[:softsort]]]",
                    "neural-ndcg(?:@(\\d+))?(?::([^:]+)(?::(\\d+)(?::(softsort))?)?)?",
                    "NeuralNDCG@k: NeuralSort (or SoftSort) at TAU (default 1), then at most ITER (default 50) Sinkhorn"
                            + " iterations to tolerance 1e-6 (Pobrotyn & Bialobrzeski 2021; allRank)",
                    "neural-ndcg@5:0.5:20", (n, seed) -> NeuralNdcgLoss.neuralNdcg(
                            relaxedSort(n.group(4) != null, n.group(2) == null ? 1.0 : number(n, 2)), cutoff(n, 1),
                            n.group(3) == null ? NeuralNdcgLoss.SINKHORN_ITERATIONS : integer(n, 3))),
            LossFamily.of("diffsort-oddeven[-SIGMOID][@k]:STEEPNESS",
                    "diffsort-oddeven(?:-(logistic|cauchy|optimal))?(?:@(\\d+))?:(.+)",
                    "BCE of the odd-even sorting network's relaxed permutation vs the grade order, top k wires;"
                            + " SIGMOID logistic, cauchy (default) or optimal (Petersen et al. 2021, 2022)",
                    "diffsort-oddeven-logistic:1", (n, seed) -> diffsort(SortingNetwork.Kind.ODD_EVEN, n))
                    .without(Property.PERMUTATION_EQUIVARIANT).without(Property.LINEAR_MEMORY),
            LossFamily.of("diffsort-bitonic[-SIGMOID][@k]:STEEPNESS",
                    "diffsort-bitonic(?:-(logistic|cauchy|optimal))?(?:@(\\d+))?:(.+)",
                    "the same on the bitonic sorting network (Petersen et al. 2021, 2022)",
                    "diffsort-bitonic@3:10", (n, seed) -> diffsort(SortingNetwork.Kind.BITONIC, n))
                    .without(Property.PERMUTATION_EQUIVARIANT).without(Property.LINEAR_MEMORY),
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

    private static final List<LossFamily> FAMILIES = Stream.concat(NAMED.stream(),
            RankOperators.families().stream().map(Losses::composed)).toList();

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

    private static RelaxedSort relaxedSort(boolean softSort, double tau) {
        return softSort ? PrilloSoftSort.of(tau) : NeuralSort.of(tau);
    }

    private static DiffSortLoss diffsort(SortingNetwork.Kind kind, MatchResult name) {
        SwapSigmoid sigmoid = name.group(1) == null ? SwapSigmoid.CAUCHY : SwapSigmoid.of(name.group(1));
        return DiffSortLoss.of(kind, sigmoid, number(name, 3), cutoff(name, 2));
    }

    /** The cutoff k of group {@code group}, or the whole list when the name has none. */
    private static int cutoff(MatchResult name, int group) {
        return name.group(group) == null ? Integer.MAX_VALUE : integer(name, group);
    }

    /** The loss family METRIC~OPERATOR of one operator family. */
    private static LossFamily composed(RankOperators.Family op) {
        LossFamily family = LossFamily.of("METRIC~" + op.syntax(), "([a-z0-9@]+)~(" + op.pattern().pattern() + ")",
                "minus METRIC (" + METRICS + ") of the " + op.description(), op.lossExample(), (n, seed) -> {
                    Matcher o = op.pattern().matcher(n.group(2));
                    if (!o.matches()) {
                        throw new IllegalStateException("operator '" + n.group(2) + "' matched " + op.syntax()
                                + " in the loss name but not alone");
                    }
                    return ComposedLoss.of(metric(n.group(), n.group(1)),
                            op.factory().create(o.toMatchResult(), PairwiseBackends.selected()), seed);
                });
        return op.gradientOfValue() ? family : family.without(Property.GRADIENT_OF_VALUE);
    }

    /** The metric of a METRIC~OPERATOR name. */
    private static RankMetric metric(String loss, String name) {
        Matcher m = METRIC.matcher(name);
        if (!m.matches()) {
            throw new IllegalArgumentException("loss '" + loss + "': unknown metric '" + name + "'; the metrics are "
                    + METRICS + " (the operators: " + RankOperators.syntaxes() + ")");
        }
        if (m.group(1) != null) {
            return switch (m.group(1)) {
                case "ndcg" -> RankMetric.ndcg();
                case "ap" -> RankMetric.averagePrecision();
                default -> RankMetric.reciprocalRank();
            };
        }
        if (m.group(2) != null) {
            return RankMetric.ndcg(integer(loss, m.group(2)));
        }
        return m.group(3) != null ? RankMetric.precision(integer(loss, m.group(3)))
                : RankMetric.nerr(integer(loss, m.group(4)));
    }

    private static LambdaLoss truncated(LambdaLoss loss, MatchResult name) {
        return name.group(1) == null ? loss : loss.withTruncation(integer(name, 1));
    }

    private static BackwardType type(MatchResult name, int group) {
        return BackwardType.of(Integer.parseInt(name.group(group)));
    }

    private static int integer(MatchResult name, int group) {
        return integer(name.group(), name.group(group));
    }

    private static int integer(String loss, String digits) {
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss '" + loss + "': " + digits + " is too large");
        }
    }

    /** The number in group {@code group} of a matched name, or an error naming the name. */
    static double number(MatchResult name, int group) {
        try {
            return Double.parseDouble(name.group(group));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("loss '" + name.group() + "': '" + name.group(group)
                    + "' is not a number");
        }
    }
}
