package rankgrad.ltr.internal.pairwise;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.impl.Constraint;
import rankgrad.ltr.pairwise.BackwardType;

class PairKernelProperties {
    private static final double EPS_F32 = 0x1.0p-24;

    /** One query of m documents at offset off (arrays longer on both sides), rows [rowFrom, rowTo). */
    record Query(double[] s, float[] y, double[] g, int off, int m, int rowFrom, int rowTo, double alpha) {
        @Override
        public String toString() {
            return "Query[m=" + m + ", off=" + off + ", rows=" + rowFrom + ".." + rowTo + ", alpha=" + alpha + ", s="
                    + Arrays.toString(s) + ", y=" + Arrays.toString(y) + ", g=" + Arrays.toString(g) + "]";
        }
    }

    /** Scores that reach the ends of the float range, both zeros and the smallest subnormal. */
    private static final double[] EXTREMES = {0.0, -0.0, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_VALUE, 1e20, -1e20};

    static Gen<Query> queries() {
        return in -> {
            // Up to 70 documents: full and partial blocks of 16 float lanes.
            int m = (int) in.next(Constraint.between(0, 70));
            int off = (int) in.next(Constraint.between(0, 5));
            int n = off + m + 3;
            // Narrow score ranges take the factored float path, wide ones (or extremes) the direct path.
            double spread = new double[] {1, 8, 100}[(int) in.next(Constraint.between(0, 2))];
            double[] s = new double[n];
            float[] y = new float[n];
            double[] g = new double[n];
            for (int i = 0; i < n; i++) {
                s[i] = in.next(Constraint.between(0, 19)) == 0
                        ? EXTREMES[(int) in.next(Constraint.between(0, EXTREMES.length - 1))]
                        : (float) ((in.next(Constraint.between(0, 1 << 20)) - (1 << 19)) * 0x1.0p-19 * spread);
                y[i] = in.next(Constraint.between(0, 4));
                g[i] = (float) ((in.next(Constraint.between(0, 1 << 20)) - (1 << 19)) * 0x1.0p-19);
            }
            int rowFrom = off + (int) in.next(Constraint.between(0, m));
            int rowTo = rowFrom + (int) in.next(Constraint.between(0, off + m - rowFrom));
            double alpha = new double[] {1, 0.5, 10, 1000}[(int) in.next(Constraint.between(0, 3))];
            return new Query(s, y, g, off, m, rowFrom, rowTo, alpha);
        };
    }

    @Test
    void vectorPairKernelEqualsScalar() {
        PairKernels vector = PairKernelProvider.kernels();
        PairKernels scalar = PairKernelProvider.scalar();
        assertTrue(vector.name().startsWith("vector"), "the Vector API kernels must be loaded, got " + vector.name());
        qt().withExamples(300).forAll(queries()).checkAssert(q -> {
            int n = q.s().length;
            float[] s32 = new float[n];
            float[] g32 = new float[n];
            for (int i = 0; i < n; i++) {
                s32[i] = (float) q.s()[i];
                g32[i] = (float) q.g()[i];
            }
            float a32 = (float) q.alpha();
            float[] want32 = new float[n];
            float[] got32 = new float[n];
            scalar.approxRanksF32(s32, q.off(), q.m(), q.rowFrom(), q.rowTo(), a32, want32);
            vector.approxRanksF32(s32, q.off(), q.m(), q.rowFrom(), q.rowTo(), a32, got32);
            for (int k = 0; k < n; k++) {
                double bound = termBound(q, k, null);
                assertEquals(want32[k], got32[k], bound * EPS_F32 + q.m() * Float.MIN_NORMAL, "approxRanksF32 row " + k);
            }
            for (BackwardType type : BackwardType.values()) {
                Arrays.fill(want32, 0f);
                Arrays.fill(got32, 0f);
                scalar.rankGradientF32(type, s32, q.y(), g32, q.off(), q.m(), q.rowFrom(), q.rowTo(), a32, want32);
                vector.rankGradientF32(type, s32, q.y(), g32, q.off(), q.m(), q.rowFrom(), q.rowTo(), a32, got32);
                for (int k = 0; k < n; k++) {
                    double bound = termBound(q, k, type);
                    assertEquals(want32[k], got32[k], bound * EPS_F32 + q.m() * Float.MIN_NORMAL,
                            "rankGradientF32 " + type + " row " + k);
                }
            }
        });
    }

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    /**
     * sum_j (m + 2 |alpha z_kj| + 16) |t_j| for the row's pair terms t_j (0 outside the rows):
     * the two kernels sum in the same order, so they differ by the rounding of m additions (m eps
     * |t| each), by a few ulps per term in exp, division and the constant factors (16 eps |t|),
     * and by how alpha z is formed (scalar: alpha (s_k - s_j) in the working precision, relative
     * error eps |alpha z| in e^z; vector float32: from e^{alpha (s - c)} in float64, whose terms
     * sb (1 - sb) change by up to 2 eps |alpha z|).
     */
    private static double termBound(Query q, int k, BackwardType type) {
        if (k < q.rowFrom() || k >= q.rowTo()) {
            return 0;
        }
        double bound = 0;
        for (int j = q.off(); j < q.off() + q.m(); j++) {
            double z = q.alpha() * (q.s()[k] - q.s()[j]);
            double sb = sigmoid(z);
            double w = Math.abs(q.g()[j]) + Math.abs(q.g()[k]);
            double t = type == null ? sigmoid(-z)
                    : type == BackwardType.TYPE3 ? 2 * q.alpha() * w : q.alpha() * sb * (1 - sb) * w;
            bound += (q.m() + 2 * Math.abs(z) + 16) * t;
            if (type == BackwardType.TYPE1 || type == BackwardType.TYPE2) {
                // sb (1 - sb) formed from a rounded sb loses 1 - sb to cancellation when sb is near 1
                // (and sb when near 0): an absolute error of a few ulps of max(sb, 1 - sb), not of the product.
                bound += 4 * q.alpha() * w * Math.max(sb, 1 - sb);
            }
        }
        return bound;
    }
}
