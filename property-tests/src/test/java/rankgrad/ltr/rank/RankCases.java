package rankgrad.ltr.rank;

import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;

/**
 * Generators of {@link RankCase}s. Every value is drawn from the QuickTheories randomness source,
 * so failing cases shrink towards fewer queries, fewer documents, label 0 and the first score kind.
 */
final class RankCases {
    /** Scores that stress exact ranking: signed zeros, subnormals, the float range's ends. */
    private static final float[] SPECIAL = {
        0.0f, -0.0f, 1.0f, -1.0f, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 1e-30f, -1e-30f,
        1e30f, -1e30f, Float.MAX_VALUE, -Float.MAX_VALUE, Math.nextUp(1.0f), Math.nextDown(1.0f),
    };

    private RankCases() {
    }

    /** Any finite scores: a coarse grid (many ties), special values, continuous, huge and tiny. */
    static Gen<RankCase> anyScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, RankCases::anyScore);
    }

    /**
     * Scores in [-range, range] where the sigmoids are not saturated, half of them on the grid of
     * multiples of 1/8 so that ties occur.
     */
    static Gen<RankCase> moderateScores(int maxQueries, int maxDocs, double range) {
        return in -> draw(in, maxQueries, maxDocs, src -> moderateScore(src, range));
    }

    /** Dyadic scores (multiples of 1/8 in [-4, 4]) whose differences and shifts are exact. */
    static Gen<RankCase> gridScores(int maxQueries, int maxDocs) {
        return in -> draw(in, maxQueries, maxDocs, src -> (int) src.next(Constraint.between(-32, 32)) / 8.0);
    }

    /** Pairwise distinct scores within each query: a shuffled ladder with spacing 1/4 plus jitter. */
    static Gen<RankCase> distinctScores(int maxQueries, int maxDocs) {
        return in -> {
            RankCase c = draw(in, maxQueries, maxDocs, src -> 0.0);
            for (double[] s : c.scores()) {
                for (int i = 0; i < s.length; i++) {
                    s[i] = (float) (0.25 * i - 0.125 * s.length + in.next(Constraint.between(0, 99)) / 1000.0);
                }
                for (int i = s.length - 1; i > 0; i--) {
                    int j = (int) in.next(Constraint.between(0, i));
                    double t = s[i];
                    s[i] = s[j];
                    s[j] = t;
                }
            }
            return c;
        };
    }

    /** A uniformly drawn score source. */
    interface ScoreSource {
        double next(RandomnessSource in);
    }

    private static RankCase draw(RandomnessSource in, int maxQueries, int maxDocs, ScoreSource scores) {
        int queries = (int) in.next(Constraint.between(1, maxQueries));
        float[][] labels = new float[queries][];
        double[][] values = new double[queries][];
        for (int q = 0; q < queries; q++) {
            int m = (int) in.next(Constraint.between(0, maxDocs));
            labels[q] = new float[m];
            values[q] = new double[m];
            for (int i = 0; i < m; i++) {
                labels[q][i] = in.next(Constraint.between(0, 4));
                values[q][i] = (float) scores.next(in);
            }
        }
        long seed = in.next(Constraint.between(0, Integer.MAX_VALUE));
        return new RankCase(labels, values, seed);
    }

    private static double anyScore(RandomnessSource in) {
        return switch ((int) in.next(Constraint.between(0, 4))) {
            case 0 -> (int) in.next(Constraint.between(-8, 8)) / 4.0;
            case 1 -> SPECIAL[(int) in.next(Constraint.between(0, SPECIAL.length - 1))];
            case 2 -> (in.next(Constraint.between(0, 1 << 24)) - (1 << 23)) * 0x1.0p-20;
            case 3 -> sign(in) * Math.scalb(1.0 + in.next(Constraint.between(0, (1 << 20) - 1)) * 0x1.0p-20,
                    (int) in.next(Constraint.between(90, 127)));
            default -> sign(in) * Math.scalb(1.0 + in.next(Constraint.between(0, (1 << 20) - 1)) * 0x1.0p-20,
                    (int) in.next(Constraint.between(-149, -90)));
        };
    }

    private static double moderateScore(RandomnessSource in, double range) {
        if (in.next(Constraint.between(0, 1)) == 0) {
            return Math.max(-range, Math.min(range, (int) in.next(Constraint.between(-64, 64)) / 8.0));
        }
        return (in.next(Constraint.between(0, 1 << 24)) * 0x1.0p-24 * 2 - 1) * range;
    }

    private static double sign(RandomnessSource in) {
        return in.next(Constraint.between(0, 1)) == 0 ? 1.0 : -1.0;
    }
}
