package rankgrad.ltr.internal.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.SourceDSL;
import org.quicktheories.impl.Constraint;
import rankgrad.simd.internal.VectorSupport;

/**
 * Laws of the vector pair-term kernels (the smoothed hinge of SHF-SDCG, the logistic pairs of
 * RankNet and LambdaRank): each equals its scalar oracle within a stated tolerance in float32 (float64
 * has only the scalar kernels), on query sizes around the float lane count (also in the 128-bit surefire
 * run), with ties, signed zeros and scores far apart; and a row's result does not depend on which
 * other rows share its vector.
 */
class PairTermKernelProperties {
    private static final double EPS_F32 = 0x1.0p-24;
    private static final int LANES = VectorSupport.LANES;
    private static final PairKernels VECTOR = PairKernelProvider.kernels();
    private static final PairKernels SCALAR = PairKernelProvider.scalar();

    /** Scores far from the rest: sigmoids saturate, tangents grow, z may overflow to infinity. */
    private static final double[] EXTREMES = {1e4, -1e4, 1e30, -1e30, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE};

    /**
     * One query of m documents at offset off of arrays padded on both sides, rows [rowFrom, rowTo);
     * c is the rank gradient of the hinge kernels; gain and disc are null for RankNet.
     */
    record Query(double[] s, float[] y, double[] c, double[] gain, double[] disc, int off, int m, int rowFrom,
            int rowTo, double alpha) {
        @Override
        public String toString() {
            return "Query[m=" + m + ", off=" + off + ", rows=" + rowFrom + ".." + rowTo + ", alpha=" + alpha + ", s="
                    + Arrays.toString(s) + ", y=" + Arrays.toString(y) + ", c=" + Arrays.toString(c) + ", gain="
                    + Arrays.toString(gain) + ", disc=" + Arrays.toString(disc) + "]";
        }
    }

    static Gen<Query> queries() {
        // Sizes around the lane count (and half of it) and a few larger.
        int[] sizes = {0, 1, 2, LANES / 2 - 1, LANES / 2, LANES / 2 + 1, LANES - 1, LANES, LANES + 1, 2 * LANES + 1,
            3 * LANES - 1, 37, 70};
        return in -> {
            int m = sizes[(int) in.next(Constraint.between(0, sizes.length - 1))];
            int off = (int) in.next(Constraint.between(0, 3));
            int n = off + m + 3;
            // A coarse grid gives many tied scores; a fine one few; 1e4 puts documents far apart.
            double step = new double[] {0.125, 0x1.0p-12, 1e4}[(int) in.next(Constraint.between(0, 2))];
            int levels = (int) in.next(Constraint.between(1, 1000));
            int maxLabel = (int) in.next(Constraint.between(0, 4));
            boolean rankNet = in.next(Constraint.between(0, 1)) == 0;
            double[] s = new double[n];
            float[] y = new float[n];
            double[] c = new double[n];
            double[] gain = rankNet ? null : new double[n];
            double[] disc = rankNet ? null : new double[n];
            for (int i = 0; i < n; i++) {
                int kind = (int) in.next(Constraint.between(0, 15));
                s[i] = switch (kind) {
                    case 0 -> 0.0;
                    case 1 -> -0.0;
                    case 2 -> EXTREMES[(int) in.next(Constraint.between(0, EXTREMES.length - 1))];
                    default -> (float) (in.next(Constraint.between(-levels, levels)) * step);
                };
                y[i] = in.next(Constraint.between(0, maxLabel));
                c[i] = (float) ((in.next(Constraint.between(0, 1 << 20)) - (1 << 19)) * 0x1.0p-19);
                if (!rankNet) {
                    gain[i] = Math.pow(2, y[i]) - 1;
                    disc[i] = (float) (1 / (Math.log(2 + in.next(Constraint.between(0, 100))) / Math.log(2)));
                }
            }
            int rowFrom = off + (int) in.next(Constraint.between(0, m));
            int rowTo = rowFrom + (int) in.next(Constraint.between(0, off + m - rowFrom));
            double alpha = new double[] {1, 0.5, 2, 10, 1000}[(int) in.next(Constraint.between(0, 4))];
            return new Query(s, y, c, gain, disc, off, m, rowFrom, rowTo, alpha);
        };
    }

    @Test
    void vectorHingeKernelsEqualScalar() {
        assertTrue(VECTOR.name().startsWith("vector"), "the Vector API kernels must be loaded, got " + VECTOR.name());
        qt().withExamples(300).forAll(queries()).checkAssert(q -> {
            F32 f = F32.of(q);
            int n = q.s().length;
            float[][] out32 = new float[2][n];
            SCALAR.hingeRanksF32(f.s, q.y(), q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha, out32[0]);
            VECTOR.hingeRanksF32(f.s, q.y(), q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha, out32[1]);
            assertClose(q, "hingeRanks", out32, Term.HINGE_RANK);
            out32 = new float[2][n];
            SCALAR.hingeRankGradientF32(f.s, q.y(), f.c, q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha, out32[0]);
            VECTOR.hingeRankGradientF32(f.s, q.y(), f.c, q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha, out32[1]);
            assertClose(q, "hingeRankGradient", out32, Term.HINGE_GRADIENT);
        });
    }

    @Test
    void vectorLogisticKernelsEqualScalar() {
        qt().withExamples(300).forAll(queries()).checkAssert(q -> {
            F32 f = F32.of(q);
            int n = q.s().length;
            float[][] grad32 = new float[2][n];
            float[][] cost32 = new float[2][n];
            SCALAR.logisticPairsF32(f.s, q.y(), f.gain, f.disc, q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha,
                    grad32[0], cost32[0]);
            VECTOR.logisticPairsF32(f.s, q.y(), f.gain, f.disc, q.off(), q.m(), q.rowFrom(), q.rowTo(), f.alpha,
                    grad32[1], cost32[1]);
            assertClose(q, "logisticPairs grad", grad32, Term.LOGISTIC_GRADIENT);
            assertClose(q, "logisticPairs cost", cost32, Term.LOGISTIC_COST);
        });
    }

    @Test
    void vectorTruncatedLambdaKernelsEqualScalar() {
        qt().withExamples(300).forAll(queries(), SourceDSL.integers().between(1, 40), SourceDSL.booleans().all())
                .checkAssert((q0, level, scoreDistance) -> {
                    Query q = withGains(q0);
                    F32 f = F32.of(q);
                    float[] ranks = positions(q);
                    int n = q.s().length;
                    float[][] grad32 = new float[2][n];
                    float[][] lambdas32 = new float[2][n];
                    SCALAR.truncatedLambdasF32(f.s, q.y(), f.gain, f.disc, ranks, level, scoreDistance, q.off(), q.m(),
                            q.rowFrom(), q.rowTo(), f.alpha, grad32[0], lambdas32[0]);
                    VECTOR.truncatedLambdasF32(f.s, q.y(), f.gain, f.disc, ranks, level, scoreDistance, q.off(), q.m(),
                            q.rowFrom(), q.rowTo(), f.alpha, grad32[1], lambdas32[1]);
                    Truncation t = new Truncation(ranks, level, scoreDistance);
                    assertClose(q, "truncatedLambdas grad", grad32, Term.LOGISTIC_GRADIENT, t);
                    assertClose(q, "truncatedLambdas lambdas", lambdas32, Term.LEAD_LAMBDAS, t);
                });
    }

    /** LightGBM's pair selection and normalization, for the bound of the truncated kernels. */
    private record Truncation(float[] ranks, int level, boolean scoreDistance) {
        boolean counts(int k, int j) {
            return ranks[k] <= level || ranks[j] <= level;
        }
    }

    /** The query with LambdaRank's gains and some discounts where it has RankNet's none. */
    private static Query withGains(Query q) {
        if (q.gain() != null) {
            return q;
        }
        int n = q.s().length;
        double[] gain = new double[n];
        double[] disc = new double[n];
        for (int i = 0; i < n; i++) {
            gain[i] = Math.pow(2, q.y()[i]) - 1;
            disc[i] = (float) (1 / (Math.log(2 + i) / Math.log(2)));
        }
        return new Query(q.s(), q.y(), q.c(), gain, disc, q.off(), q.m(), q.rowFrom(), q.rowTo(), q.alpha());
    }

    /** Positions 1..m in input order (any positions do: the kernels only compare them with the level). */
    private static float[] positions(Query q) {
        float[] ranks = new float[q.s().length];
        for (int i = 0; i < ranks.length; i++) {
            ranks[i] = i - q.off() + 1;
        }
        return ranks;
    }

    /**
     * A lane computes its row from that row's values and the broadcast column only, so a row gets
     * the same bits whether it is computed with the whole query or alone (in lane 0 of a masked
     * vector): a bug that lets lanes see each other's labels, weights or gradients breaks this.
     */
    @Test
    void rowResultDoesNotDependOnTheOtherRowsOfItsVector() {
        qt().withExamples(100).forAll(queries()).checkAssert(q -> {
            F32 f = F32.of(q);
            int n = q.s().length;
            float[][] whole = new float[6][n];
            float[][] alone = new float[6][n];
            computeRows(f, q, q.rowFrom(), q.rowTo(), whole);
            for (int k = q.rowFrom(); k < q.rowTo(); k++) {
                computeRows(f, q, k, k + 1, alone);
            }
            String[] names = {"hingeRanks", "hingeRankGradient", "logistic grad", "logistic cost",
                "truncated grad", "truncated lambdas"};
            for (int a = 0; a < names.length; a++) {
                for (int k = 0; k < n; k++) {
                    assertEquals(Float.floatToIntBits(whole[a][k]), Float.floatToIntBits(alone[a][k]),
                            names[a] + " row " + k);
                }
            }
        });
    }

    private static void computeRows(F32 f, Query q, int rowFrom, int rowTo, float[][] out) {
        VECTOR.hingeRanksF32(f.s, q.y(), q.off(), q.m(), rowFrom, rowTo, f.alpha, out[0]);
        VECTOR.hingeRankGradientF32(f.s, q.y(), f.c, q.off(), q.m(), rowFrom, rowTo, f.alpha, out[1]);
        VECTOR.logisticPairsF32(f.s, q.y(), f.gain, f.disc, q.off(), q.m(), rowFrom, rowTo, f.alpha, out[2], out[3]);
        Query g = withGains(q);
        F32 gf = F32.of(g);
        VECTOR.truncatedLambdasF32(gf.s, g.y(), gf.gain, gf.disc, positions(g), 3, true, g.off(), g.m(), rowFrom, rowTo,
                gf.alpha, out[4], out[5]);
    }

    /** The float32 copies of a query's inputs. */
    private record F32(float[] s, float[] c, float[] gain, float[] disc, float alpha) {
        static F32 of(Query q) {
            return new F32(toFloat(q.s()), toFloat(q.c()), toFloat(q.gain()), toFloat(q.disc()), (float) q.alpha());
        }
    }

    private static float[] toFloat(double[] a) {
        if (a == null) {
            return null;
        }
        float[] f = new float[a.length];
        for (int i = 0; i < a.length; i++) {
            f[i] = (float) a[i];
        }
        return f;
    }

    /** The pair terms whose magnitudes bound the kernels' differences. */
    private enum Term { HINGE_RANK, HINGE_GRADIENT, LOGISTIC_GRADIENT, LOGISTIC_COST, LEAD_LAMBDAS }

    /**
     * Scalar (index 0) and vector (index 1) outputs agree: rows outside [rowFrom, rowTo) are not
     * written (still 0); where the scalar row is infinite or NaN (scores at +-MAX_VALUE make
     * s_k - s_j overflow) the vector row is the same value; elsewhere they differ by at most
     * {@link #rowBound}.
     */
    private static void assertClose(Query q, String what, float[][] f32, Term term) {
        assertClose(q, what, f32, term, null);
    }

    private static void assertClose(Query q, String what, float[][] f32, Term term, Truncation truncation) {
        for (int k = 0; k < q.s().length; k++) {
            if (k < q.rowFrom() || k >= q.rowTo()) {
                assertEquals(0, Float.floatToIntBits(f32[1][k]), what + "F32 wrote row " + k + " outside the rows");
                continue;
            }
            if (!Float.isFinite(f32[0][k])) {
                assertEquals(f32[0][k], f32[1][k], what + "F32 row " + k);
            } else {
                double tol = rowBound(q, k, term, truncation, EPS_F32, Float.MIN_NORMAL);
                if (!(Math.abs(f32[1][k] - f32[0][k]) <= tol)) {
                    fail(what + "F32 row " + k + ": vector " + f32[1][k] + ", scalar " + f32[0][k] + ", tol " + tol);
                }
            }
        }
    }

    /**
     * sum_j ((m + 16) |t_j| + 2 |a x_j| p_j + extra_j) eps + m tiny, t_j the row's pair terms
     * (evaluated in float64 from the inputs). Both kernels add the terms in the same order, and form
     * x = s_k - s_j, a x, the weights, the tangents and every product and sum of a term with the
     * same operations; they differ in sigma, exp and log1p (the vector ones within 3 ulps, the
     * scalar ones within 2), so each term differs by at most 16 eps |t_j| and each of the m partial
     * sums by the rounding of a different value, m eps sum |t_j| in all. p_j: the part of a hinge
     * term that is a logistic value, which the float32 vector kernels take from factors e^{a (s -
     * c)} rounded to float32 when the scores are close enough (relative error 2 eps |a x| where the
     * scalar kernel rounds a x once). extra_j: the scalar hinge slope -a g (1 - g) comes from a
     * rounded g and loses 1 - g to cancellation when g is near 1, an absolute error up to 2 eps a
     * (|c_k| + |c_j|) that the vector form -a e / (1 + e)^2 does not have (doubled for margin).
     * tiny = the smallest normal: the scalar float32 sigmoid rounds results below e^-88 to 0
     * where the vector one keeps them as subnormals. With a {@code truncation}, only its pairs
     * count and the weight is divided by 0.01 + |x| (one more rounding, within the 16 eps).
     */
    private static double rowBound(Query q, int k, Term term, Truncation truncation, double eps, double tiny) {
        double bound = 0;
        double a = q.alpha();
        for (int j = q.off(); j < q.off() + q.m(); j++) {
            double x = q.s()[k] - q.s()[j];
            double yk = q.y()[k];
            double yj = q.y()[j];
            boolean tangent = yk > yj && x < 0 || yk < yj && x > 0;
            if (truncation != null && !truncation.counts(k, j)) {
                continue;
            }
            double w = weight(q, k, j);
            if (truncation != null && truncation.scoreDistance()) {
                w /= 0.01 + Math.abs(x);
            }
            double t;
            double p = 0;
            double extra = 0;
            switch (term) {
                case HINGE_RANK -> {
                    t = yk == yj ? sigmoid(-a * x) : yk > yj ? hingeA(a, x) : 1 + hingeA(a, -x);
                    p = tangent ? 0 : Math.abs(yk < yj ? t - 1 : t);
                }
                case HINGE_GRADIENT -> {
                    double slope = tangent ? a / 4 : a * sigmoid(a * x) * sigmoid(-a * x);
                    t = (Math.abs(q.c()[k]) + Math.abs(q.c()[j])) * slope;
                    p = tangent ? 0 : t;
                    extra = 4 * a * (Math.abs(q.c()[k]) + Math.abs(q.c()[j]));
                }
                case LOGISTIC_GRADIENT -> t = yk == yj ? 0 : w * a * sigmoid(yk > yj ? -a * x : a * x);
                case LOGISTIC_COST -> t = yk > yj ? w * softplus(-a * x) : 0;
                case LEAD_LAMBDAS -> t = yk > yj ? w * a * sigmoid(-a * x) : 0;
                default -> throw new AssertionError(term);
            }
            bound += (q.m() + 16) * Math.abs(t) + 2 * Math.abs(a * x) * p + extra;
        }
        return bound * eps + q.m() * tiny;
    }

    private static double weight(Query q, int k, int j) {
        return q.gain() == null ? 1 : Math.abs(q.gain()[k] - q.gain()[j]) * Math.abs(q.disc()[k] - q.disc()[j]);
    }

    private static double hingeA(double a, double x) {
        return x >= 0 ? sigmoid(-a * x) : 0.5 - 0.25 * a * x;
    }

    private static double softplus(double x) {
        return Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x)));
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }
}
