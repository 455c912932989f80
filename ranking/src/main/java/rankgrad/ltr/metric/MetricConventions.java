package rankgrad.ltr.metric;

import java.util.Objects;

/**
 * The conventions of exact metric evaluation, as one immutable value that every report prints with
 * {@link #describe()}.
 *
 * <p>Fixed for all conventions (DESIGN section 3.1): discount D(r) =
 * 1 / log2(1 + r) for the 1-based rank r, relevant = label &gt; 0. Short lists (cutoff k larger than
 * the query's m documents): DCG@k sums the m documents, IDCG@k the top min(k, m) labels, P@k still
 * divides by k, AP@k divides by min(k, |relevant|).
 *
 * <pre>{@code
 * MetricConventions lightGbmLike = MetricConventions.defaults().withNoRelevant(NoRelevantPolicy.ONE);
 * }</pre>
 *
 * @param ties how equal scores are ordered
 * @param noRelevant what a query without relevant documents contributes to a mean
 * @param ymax the grade scale's maximum for ERR's R(y) = (2^y - 1) / 2^ymax (4 for MSLR / Yahoo);
 *        labels above it are rejected by ERR and nERR
 * @param gain DCG's and nDCG's gain: 2^y - 1 (the default) or y (trec_eval)
 */
public record MetricConventions(Ties ties, NoRelevantPolicy noRelevant, double ymax, Gain gain) {

    /** The default grade-scale maximum (MSLR-WEB and Yahoo LTR grade 0..4). */
    public static final double DEFAULT_YMAX = 4.0;

    private static final MetricConventions DEFAULTS =
            new MetricConventions(Ties.STABLE, NoRelevantPolicy.EXCLUDE, DEFAULT_YMAX, Gain.EXPONENTIAL);

    public MetricConventions {
        Objects.requireNonNull(ties, "ties");
        Objects.requireNonNull(noRelevant, "noRelevant");
        Objects.requireNonNull(gain, "gain");
        if (!(ymax > 0) || Double.isInfinite(ymax)) {
            throw new IllegalArgumentException("ymax (the grade scale's maximum) must be finite and > 0, got " + ymax);
        }
    }

    /** The same conventions without a gain: the three-value form of earlier versions, gain 2^y - 1. */
    public MetricConventions(Ties ties, NoRelevantPolicy noRelevant, double ymax) {
        this(ties, noRelevant, ymax, Gain.EXPONENTIAL);
    }

    /** Stable ties, queries without relevant documents excluded, ymax = 4, gain 2^y - 1. */
    public static MetricConventions defaults() {
        return DEFAULTS;
    }

    public MetricConventions withTies(Ties newTies) {
        return new MetricConventions(newTies, noRelevant, ymax, gain);
    }

    public MetricConventions withNoRelevant(NoRelevantPolicy policy) {
        return new MetricConventions(ties, policy, ymax, gain);
    }

    public MetricConventions withYmax(double newYmax) {
        return new MetricConventions(ties, noRelevant, newYmax, gain);
    }

    /** The same conventions with DCG's and nDCG's gain {@code newGain} (ERR keeps 2^y - 1). */
    public MetricConventions withGain(Gain newGain) {
        return new MetricConventions(ties, noRelevant, ymax, newGain);
    }

    /** One line stating every convention, for the header of a report. */
    public String describe() {
        String tieText = switch (ties) {
            case STABLE -> "stable (input order)";
            case PESSIMISTIC -> "pessimistic (less relevant first)";
        };
        String policyText = switch (noRelevant) {
            case EXCLUDE -> "excluded from the mean";
            case ZERO -> "count as 0";
            case ONE -> "count as 1";
        };
        return "ties=" + tieText + "; queries without relevant docs: " + policyText
                + "; gain=" + (gain == Gain.LINEAR ? "y (linear)" : "2^y-1") + ", discount=1/log2(1+r); k>m: DCG sums m docs, IDCG top min(k,m), P@k divides by k,"
                + " AP@k by min(k,|rel|); ERR ymax=" + formatYmax();
    }

    private String formatYmax() {
        return ymax == Math.rint(ymax) ? Long.toString((long) ymax) : Double.toString(ymax);
    }
}
