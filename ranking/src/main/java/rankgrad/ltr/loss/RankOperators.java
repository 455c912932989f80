package rankgrad.ltr.loss;

import rankgrad.ltr.rank.NeuralSort;
import rankgrad.ltr.rank.PrilloSoftSort;
import java.util.List;
import java.util.Objects;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.rank.ApproxRanks;
import rankgrad.ltr.rank.DifferentiableRanks;
import rankgrad.ltr.rank.Regularization;
import rankgrad.ltr.rank.SoftRank;

/**
 * The registry of differentiable rank operators by name, the OPERATOR of the loss names
 * {@code METRIC~OPERATOR} ({@link Losses}): each row makes one loss family, so a new operator (a
 * {@link DifferentiableRanks} class) is one row here, and every metric, the {@code --loss} help and
 * every loss-wide test reach it.
 */
public final class RankOperators {

    /**
     * One row: a family of operators by name.
     *
     * @param syntax the names as the help shows them, e.g. {@code softrank-q[:EPS]}
     * @param pattern the lower-case names, matched against the whole operator name
     * @param description what the operator is, for the help
     * @param lossExample a whole loss name through this operator, e.g. {@code ndcg@10~softrank-q:0.1},
     *     the family's example in the loss registry
     * @param gradientOfValue whether the backward is the gradient of the forward ranks (false for the
     *     twin-sigmoid's straight-through and label-directed backwards)
     * @param factory makes the operator from the matched name, on a pairwise backend
     */
    public record Family(String syntax, Pattern pattern, String description, String lossExample,
            boolean gradientOfValue, Factory factory) {
        public Family {
            Objects.requireNonNull(syntax, "syntax");
            Objects.requireNonNull(pattern, "pattern");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(lossExample, "lossExample");
            Objects.requireNonNull(factory, "factory");
        }
    }

    /** Makes an operator from its parsed name. */
    @FunctionalInterface
    public interface Factory {
        /**
         * The operator called by the matched name ({@code name.group(i)}: the pattern's groups).
         *
         * @throws IllegalArgumentException if a parameter in the name is out of range
         */
        DifferentiableRanks create(MatchResult name, PairwiseBackend backend);
    }

    private static final List<Family> FAMILIES = List.of(
            new Family("twinT[:ALPHA_B]", Pattern.compile("twin([123])(?::(.+))?"),
                    "twin-sigmoid ranks, exact forward, backward type T = 1, 2, 3 with steepness ALPHA_B (default 1;"
                            + " Yu et al. 2020)", "nerr@5~twin3", false,
                    (n, backend) -> DifferentiableRanks.twinSigmoid(BackwardType.of(Integer.parseInt(n.group(1))),
                            n.group(2) == null ? 1.0 : Losses.number(n, 2), backend)),
            new Family("sigmoid[:ALPHA]", Pattern.compile("sigmoid(?::(.+))?"),
                    "approximate ranks 1 + sum_j sigma(ALPHA (s_j - s_i)) (default 10; Qin et al.; Bruch et al.)",
                    "ap~sigmoid:10", true, (n, backend) -> DifferentiableRanks.sigmoid(
                            n.group(1) == null ? ApproxRanks.DEFAULT_ALPHA : Losses.number(n, 1), backend)),
            softRank(Regularization.QUADRATIC, "quadratic", "ndcg@10~softrank-q:0.1"),
            softRank(Regularization.ENTROPIC, "entropic", "mrr~softrank-e:0.5"),
            new Family("neuralsort[:TAU], softsort[:TAU]", Pattern.compile("(neuralsort|softsort)(?::(.+))?"),
                    "soft ranks sum_i (i+1) P_ij / sum_i P_ij of NeuralSort's (Grover et al. 2019) or SoftSort's"
                            + " (Prillo & Eisenschlos 2020) matrix P at temperature TAU (default 1)",
                    "ndcg@10~neuralsort:1", true, (n, backend) -> {
                        double tau = n.group(2) == null ? 1.0 : Losses.number(n, 2);
                        return DifferentiableRanks.relaxedSort(n.group(1).equals("softsort") ? PrilloSoftSort.of(tau)
                                : NeuralSort.of(tau));
                    }));

    private RankOperators() {
    }

    /** The registry: one row per family of operators, in the order the help lists them. */
    public static List<Family> families() {
        return FAMILIES;
    }

    /** The row whose pattern matches {@code name} (lower case), or null. */
    static Family familyOf(String name) {
        return FAMILIES.stream().filter(f -> f.pattern().matcher(name).matches()).findFirst().orElse(null);
    }

    /** The operators' syntaxes, comma-separated, for messages. */
    static String syntaxes() {
        return FAMILIES.stream().map(Family::syntax).collect(Collectors.joining(", "));
    }

    private static Family softRank(Regularization regularization, String what, String example) {
        return new Family("softrank-" + regularization.letter() + "[:EPS]",
                Pattern.compile("softrank-" + regularization.letter() + "(?::(.+))?"),
                "soft ranks, projection onto the permutahedron with " + what + " regularization of strength EPS"
                        + " (default 1; Blondel et al. 2020)", example, true,
                (n, backend) -> DifferentiableRanks.softRank(regularization,
                        n.group(1) == null ? SoftRank.DEFAULT_EPSILON : Losses.number(n, 1)));
    }
}
