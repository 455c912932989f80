package rankgrad.testkit;

import java.util.Arrays;
import java.util.Comparator;
import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * QuickTheories generators of ragged query batches with scores ({@link RankingCase}), for
 * properties of ranking losses, rank operators and metrics.
 *
 * <p>Every generator draws 1 to {@code maxQueries} queries of 0 to {@code maxDocs} documents each
 * (so batches are ragged, and empty and one-document queries occur), labels that are grades 0 to 4,
 * one query in eight with no relevant document at all (every label 0), the scores of the
 * generator's kind (below, all float32 values), and a seed. Every number comes from QuickTheories'
 * randomness source, so a failing case shrinks towards few queries, few documents, label 0, score
 * 0 and seed 0, and is printed with the seed that reproduces the run.
 *
 * <table>
 *   <caption>Score kinds</caption>
 *   <tr><th>generator</th><th>scores</th><th>for laws that</th></tr>
 *   <tr><td>{@link #distinctScores}</td><td>a shuffled ladder on the grid of multiples of 1/16,
 *       neighbours 1/16 to 24/16 apart</td><td>need a locally constant ranking: finite
 *       differences with a step below 1e-3 never swap two documents or cross a hinge at 0</td></tr>
 *   <tr><td>{@link #tiedScores}</td><td>{-1, -3/4, ..., 1}, zero sometimes -0.0</td><td>must hold
 *       for any tie-break (many ties, signed zeros)</td></tr>
 *   <tr><td>{@link #gridScores}</td><td>multiples of 1/8 in [-4, 4], zero sometimes -0.0</td>
 *       <td>shift or scale scores: sums and differences stay exact</td></tr>
 *   <tr><td>{@link #moderateScores}</td><td>in [-range, range], half on the 1/8 grid</td><td>check
 *       gradients where sigmoids are not saturated, ties included</td></tr>
 *   <tr><td>{@link #anyScores}</td><td>any finite float: the 1/4 grid, +-0, subnormals, the ends
 *       of the float range, continuous values</td><td>concern exact ranks and metrics on any
 *       input</td></tr>
 * </table>
 *
 * <pre>{@code
 * qt().withExamples(200).forAll(RankingCases.anyScores(4, 40))
 *         .checkAssert(c -> RankLaws.assertSortRanks(MyRanks::apply, c, TieKeys.INPUT_ORDER));
 * }</pre>
 */
public final class RankingCases {
    /** Scores that stress exact ranking: signed zeros, subnormals, the float range's ends. */
    private static final float[] SPECIAL = {
        0.0f, -0.0f, 1.0f, -1.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 1e-30f, -1e-30f,
        1e30f, -1e30f, Float.MAX_VALUE, -Float.MAX_VALUE, Math.nextUp(1.0f), Math.nextDown(1.0f),
    };
    /** The highest grade drawn (grades 0..4, as MSLR-WEB and Yahoo! LTR). */
    private static final int MAX_GRADE = 4;
    /** A query has no relevant document when this draw is at its maximum: one query in eight. */
    private static final int NO_RELEVANT_ONE_IN = 8;

    private RankingCases() {
    }

    /**
     * Scores pairwise at least 1/16 apart within each query (a shuffled ladder with gaps of 1/16
     * to 24/16, centred on 0): no ties, and no pair closer than 1/16 to a hinge or kink at a score
     * difference of 0.
     */
    public static Gen<RankingCase> distinctScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, RankingCases::ladder);
    }

    /** Scores in {-1, -0.75, ..., 1}, the zero drawn as -0.0 half the time: many ties. */
    public static Gen<RankingCase> tiedScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, perDocument(src -> signedZero(src, step(src, 4) / 4.0)));
    }

    /** Multiples of 1/8 in [-4, 4], the zero sometimes -0.0: differences and dyadic shifts are exact. */
    public static Gen<RankingCase> gridScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, perDocument(src -> signedZero(src, step(src, 32) / 8.0)));
    }

    /**
     * Scores in [-range, range] where the sigmoids of rank operators are not saturated: half of them
     * multiples of 1/8 (so ties occur), half uniform with 24-bit resolution.
     */
    public static Gen<RankingCase> moderateScores(int maxQueries, int maxDocs, double range) {
        if (!(range > 0) || Double.isInfinite(range)) {
            throw new IllegalArgumentException("range must be finite and > 0, got " + range);
        }
        return in -> draw(in, maxQueries, maxDocs, perDocument(src -> moderateScore(src, range)));
    }

    /**
     * Any finite float, from five sources with equal odds: the 1/4 grid in [-2, 2] (ties),
     * special values (+-0, +-MIN_VALUE, MIN_NORMAL, +-1e-30, +-1e30, +-MAX_VALUE, the neighbours of
     * 1), continuous values in [-8, 8], huge values (2^90 to 2^127) and tiny ones (2^-149 to 2^-90).
     */
    public static Gen<RankingCase> anyScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, perDocument(RankingCases::anyScore));
    }

    /** Draws the scores of one query of m documents. */
    private interface QueryScores {
        double[] draw(RandomnessSource in, int m);
    }

    /** Draws one score. */
    private interface Score {
        double draw(RandomnessSource in);
    }

    private static QueryScores perDocument(Score score) {
        return (in, m) -> {
            double[] s = new double[m];
            for (int i = 0; i < m; i++) {
                s[i] = (float) score.draw(in);
            }
            return s;
        };
    }

    private static RankingCase draw(RandomnessSource in, int maxQueries, int maxDocs, QueryScores scores) {
        if (maxQueries < 1 || maxDocs < 1) {
            throw new IllegalArgumentException("need maxQueries >= 1 and maxDocs >= 1, got " + maxQueries + ", " + maxDocs);
        }
        // The shape is drawn first and in full (maxQueries sizes and flags, used or not), so every
        // shape draw keeps its place in the stream while QuickTheories shrinks any other one: one
        // query can lose documents without shifting the next query's size.
        int queries = (int) in.next(Constraint.between(1, maxQueries));
        long seed = in.next(Constraint.between(0, Integer.MAX_VALUE));
        int[] sizes = new int[maxQueries];
        boolean[] noRelevant = new boolean[maxQueries];
        for (int q = 0; q < maxQueries; q++) {
            sizes[q] = (int) in.next(Constraint.between(0, maxDocs));
            noRelevant[q] = in.next(Constraint.between(0, NO_RELEVANT_ONE_IN - 1)) == NO_RELEVANT_ONE_IN - 1;
        }
        float[][] labels = new float[queries][];
        double[][] values = new double[queries][];
        for (int q = 0; q < queries; q++) {
            labels[q] = new float[sizes[q]];
            for (int i = 0; i < sizes[q]; i++) {
                labels[q][i] = noRelevant[q] ? 0 : in.next(Constraint.between(0, MAX_GRADE));
            }
            values[q] = scores.draw(in, sizes[q]);
        }
        return RankingCase.of(labels, values, seed);
    }

    /** Gaps of 1..24 sixteenths stacked in the order of a drawn slot per document, centred on 0. */
    private static double[] ladder(RandomnessSource in, int m) {
        int[] gap = new int[m];
        int[] slot = new int[m];
        for (int i = 0; i < m; i++) {
            gap[i] = (int) in.next(Constraint.between(1, 24));
            slot[i] = (int) in.next(Constraint.between(0, 99));
        }
        Integer[] bySlot = new Integer[m];
        for (int i = 0; i < m; i++) {
            bySlot[i] = i;
        }
        Arrays.sort(bySlot, Comparator.comparingInt(i -> slot[i]));
        double[] s = new double[m];
        int level = 0;
        for (int r = 0; r < m; r++) {
            level += gap[r];
            s[bySlot[r]] = level;
        }
        int centre = level / 2;
        for (int i = 0; i < m; i++) {
            s[i] = (s[i] - centre) / 16.0;
        }
        return s;
    }

    /** An integer in [-n, n], shrinking towards 0. */
    private static int step(RandomnessSource in, int n) {
        return (int) in.next(Constraint.between(-n, n));
    }

    /** x, or -0.0 instead of a zero x when the next draw says so. */
    private static double signedZero(RandomnessSource in, double x) {
        boolean negative = in.next(Constraint.between(0, 1)) == 1;
        return x == 0 && negative ? -0.0 : x;
    }

    private static double moderateScore(RandomnessSource in, double range) {
        if (in.next(Constraint.between(0, 1)) == 0) {
            return Math.max(-range, Math.min(range, step(in, 64) / 8.0));
        }
        return (in.next(Constraint.between(0, 1 << 24)) * 0x1.0p-24 * 2 - 1) * range;
    }

    private static double anyScore(RandomnessSource in) {
        return switch ((int) in.next(Constraint.between(0, 4))) {
            case 0 -> step(in, 8) / 4.0;
            case 1 -> SPECIAL[(int) in.next(Constraint.between(0, SPECIAL.length - 1))];
            case 2 -> (in.next(Constraint.between(0, 1 << 24)) - (1 << 23)) * 0x1.0p-20;
            case 3 -> sign(in) * Math.scalb(1.0 + in.next(Constraint.between(0, (1 << 20) - 1)) * 0x1.0p-20,
                    (int) in.next(Constraint.between(90, 127)));
            default -> sign(in) * Math.scalb(1.0 + in.next(Constraint.between(0, (1 << 20) - 1)) * 0x1.0p-20,
                    (int) in.next(Constraint.between(-149, -90)));
        };
    }

    private static double sign(RandomnessSource in) {
        return in.next(Constraint.between(0, 1)) == 0 ? 1.0 : -1.0;
    }
}
