package rankgrad.testkit;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.testkit.PairwiseBackendContract.Batch;

/**
 * The outputs of every {@link rankgrad.ltr.pairwise.PairwiseBackend} method evaluated in float64
 * straight from the definitions in its Javadoc (docs/design.md §3.2-3.5), pair by pair, each with
 * the error a correct float32 or float64 implementation may make: {@link PairwiseBackendContract}
 * holds every backend, the scalar reference included, to both.
 *
 * <p>Error model. An output is a sum of m pair terms t_j (the term j = k included). A float32
 * implementation may add them in any order (m eps sum |t_j|, Higham Thm 3.1 for recursive
 * summation), evaluate exp, sigmoid and log1p within a few ulps and round the weights and
 * constant factors (16 eps |t_j| for all of these), and form the exponent a (s_k - s_j) in float32
 * (relative error eps in the argument, so 2 eps |a (s_k - s_j)| relative in the part p_j of the
 * term that depends on an exponential, factor 2 for a difference taken in float64 and rounded
 * once). A derivative sb (1 - sb) or 1 - sb formed from a rounded sb loses its relative accuracy
 * when sb is near 1: an absolute error of 2 eps times the factor c_j multiplying it. So for
 * each output, envelope = sum_j ((m + 16) |t_j| + 2 |a z_j| p_j + c_j), and an implementation
 * and the float64 value here may differ by 4 eps envelope (a factor 2 for the errors of both
 * sides and 2 for margin) plus m times the smallest normal (results that one side rounds to 0 and
 * the other keeps subnormal, or flushes to zero).
 */
final class PairwiseContractRows {
    private static final double EPS_F32 = 0x1.0p-24;
    private static final double EPS_F64 = 0x1.0p-53;

    /** Float64 values by definition, and the errors a float32 and a float64 implementation may make. */
    record Rows(double[] value, double[] tol32, double[] tol64) {
    }

    /** The pair terms of output k, accumulated as the value and its error envelope. */
    private static final class Acc {
        double value;
        double envelope;

        /** Adds term t whose exponential-dependent part is p (|t| at most), exponent a z, cancellation c. */
        void add(int m, double t, double p, double az, double c) {
            value += t;
            envelope += (m + 16) * Math.abs(t) + 2 * Math.abs(az) * p + c;
        }
    }

    /** One pair function: adds the term of (k, j) to acc. */
    @FunctionalInterface
    private interface PairTerm {
        void add(Batch b, int m, int k, int j, Acc acc);
    }

    private PairwiseContractRows() {
    }

    /** pi^-(k) = 1/2 + sum_j sigma(alpha (s_j - s_k)). */
    static Rows approxRanks(Batch b) {
        return rows(b, 0.5, (batch, m, k, j, acc) -> {
            double az = batch.alpha() * ((double) batch.scores()[j] - batch.scores()[k]);
            double t = sigmoid(az);
            acc.add(m, t, t, az, 0);
        });
    }

    /** The score gradient of {@link rankgrad.ltr.pairwise.PairwiseBackend#rankGradientF32}. */
    static Rows rankGradient(Batch b, BackwardType type) {
        return rows(b, 0, (batch, m, k, j, acc) -> {
            double a = batch.alpha();
            double az = a * ((double) batch.scores()[k] - batch.scores()[j]);
            double sb = sigmoid(az);
            double gk = batch.rankGrad()[k];
            double gj = batch.rankGrad()[j];
            double u = Math.signum(batch.labels()[k] - batch.labels()[j]);
            double cancellation = 2 * a * (Math.abs(gk) + Math.abs(gj));
            switch (type) {
                case TYPE1 -> {
                    double t = a * sb * (1 - sb) * (gj - gk);
                    acc.add(m, t, Math.abs(t), az, k == j ? 0 : cancellation);
                }
                case TYPE2 -> {
                    double t = -u * a * sb * (1 - sb) * (gk + gj);
                    acc.add(m, t, Math.abs(t), az, u == 0 ? 0 : cancellation);
                }
                case TYPE3 -> {
                    double d = u > 0 ? 2 * a * (1 - sb) : u < 0 ? -2 * a * sb : 0;
                    double t = -d * (gk + gj);
                    acc.add(m, t, Math.abs(t), az, u == 0 ? 0 : cancellation);
                }
                default -> throw new AssertionError(type);
            }
        });
    }

    /** rhat_k = 1/2 + sum_j T_kj(s_k - s_j) of SHF-SDCG. */
    static Rows hingeRanks(Batch b) {
        return rows(b, 0.5, (batch, m, k, j, acc) -> {
            double a = batch.alpha();
            double x = (double) batch.scores()[k] - batch.scores()[j];
            float yk = batch.labels()[k];
            float yj = batch.labels()[j];
            double t = yk == yj ? sigmoid(-a * x) : yk > yj ? hingeA(a, x) : 1 + hingeA(a, -x);
            boolean tangent = yk > yj && x < 0 || yk < yj && x > 0;
            acc.add(m, t, tangent ? 0 : Math.abs(yk < yj ? t - 1 : t), a * x, 0);
        });
    }

    /** sum_j (c_k T'_kj(s_k - s_j) - c_j T'_jk(s_j - s_k)), the exact gradient through {@link #hingeRanks}. */
    static Rows hingeRankGradient(Batch b) {
        return rows(b, 0, (batch, m, k, j, acc) -> {
            double a = batch.alpha();
            double x = (double) batch.scores()[k] - batch.scores()[j];
            float yk = batch.labels()[k];
            float yj = batch.labels()[j];
            double ck = batch.rankGrad()[k];
            double cj = batch.rankGrad()[j];
            double tk = ck * hingeSlope(a, yk, yj, x);
            double tj = cj * hingeSlope(a, yj, yk, -x);
            boolean tangent = yk > yj && x < 0 || yk < yj && x > 0;
            acc.add(m, tk - tj, tangent ? 0 : Math.abs(tk) + Math.abs(tj), a * x,
                    2 * a * (Math.abs(ck) + Math.abs(cj)));
        });
    }

    /** The score gradient of the RankNet ({@code lambdaRank} false) or LambdaRank pair terms. */
    static Rows logisticGradient(Batch b, boolean lambdaRank) {
        return rows(b, 0, (batch, m, k, j, acc) -> {
            float yk = batch.labels()[k];
            float yj = batch.labels()[j];
            if (yk == yj) {
                return;
            }
            double s = batch.sigma();
            double z = s * ((double) batch.scores()[k] - batch.scores()[j]);
            double w = weight(batch, lambdaRank, k, j);
            double t = yk > yj ? -w * s * sigmoid(-z) : w * s * sigmoid(z);
            acc.add(m, t, Math.abs(t), z, 0);
        });
    }

    /** The weighted logistic cost sum_{j: y_k &gt; y_j} w_kj log(1 + e^{-sigma_s (s_k - s_j)}). */
    static Rows logisticCost(Batch b, boolean lambdaRank) {
        return rows(b, 0, (batch, m, k, j, acc) -> {
            if (batch.labels()[k] <= batch.labels()[j]) {
                return;
            }
            double z = batch.sigma() * ((double) batch.scores()[k] - batch.scores()[j]);
            double w = weight(batch, lambdaRank, k, j);
            double tail = Math.log1p(Math.exp(-Math.abs(z)));
            acc.add(m, w * (Math.max(-z, 0) + tail), w * tail, z, 0);
        });
    }

    /**
     * LightGBM's truncated lambdas (pairs with min(r_k, r_j) &lt;= level; weight divided by 0.01f +
     * |s_k - s_j| with {@code scoreDistance}): the score gradient ({@code lambdaSums} false) or the
     * sum of the lambdas of the pairs k leads (true).
     */
    static Rows truncatedLambdas(Batch b, float[] ranks, int level, boolean scoreDistance, boolean lambdaSums) {
        return rows(b, 0, (batch, m, k, j, acc) -> {
            float yk = batch.labels()[k];
            float yj = batch.labels()[j];
            if (yk == yj || (ranks[k] > level && ranks[j] > level) || (lambdaSums && yk < yj)) {
                return;
            }
            double s = batch.sigma();
            double d = (double) batch.scores()[k] - batch.scores()[j];
            double w = weight(batch, true, k, j);
            if (scoreDistance) {
                w /= (double) 0.01f + Math.abs(d);
            }
            double z = s * d;
            double t = yk > yj ? w * s * sigmoid(-z) : w * s * sigmoid(z);
            double signed = lambdaSums || yk < yj ? t : -t;
            acc.add(m, signed, t, z, 0);
        });
    }

    private static Rows rows(Batch b, double start, PairTerm term) {
        int n = b.scores().length;
        double[] value = new double[n];
        double[] tol32 = new double[n];
        double[] tol64 = new double[n];
        int[] offsets = b.offsets();
        for (int q = 0; q + 1 < offsets.length; q++) {
            int m = offsets[q + 1] - offsets[q];
            for (int k = offsets[q]; k < offsets[q + 1]; k++) {
                Acc acc = new Acc();
                acc.value = start;
                acc.envelope = (m + 16) * start;
                for (int j = offsets[q]; j < offsets[q + 1]; j++) {
                    term.add(b, m, k, j, acc);
                }
                value[k] = acc.value;
                tol32[k] = 4 * EPS_F32 * acc.envelope + m * (double) Float.MIN_NORMAL;
                tol64[k] = 4 * EPS_F64 * acc.envelope + m * Double.MIN_NORMAL;
            }
        }
        return new Rows(value, tol32, tol64);
    }

    private static double weight(Batch b, boolean lambdaRank, int k, int j) {
        return lambdaRank ? Math.abs((double) b.gains()[k] - b.gains()[j]) * Math.abs((double) b.discounts()[k]
                - b.discounts()[j]) : 1;
    }

    /** Wu's A_a(x): G_a(x) = sigma(-a x) for x &gt;= 0, the tangent 1/2 - (a/4) x below. */
    private static double hingeA(double a, double x) {
        return x >= 0 ? sigmoid(-a * x) : 0.5 - 0.25 * a * x;
    }

    /** T'_kj(x) for labels y_k, y_j: G_a', A_a'(x) or -A_a'(-x). */
    private static double hingeSlope(double a, float yk, float yj, double x) {
        if (yk == yj) {
            return slopeG(a, x);
        }
        return yk > yj ? slopeA(a, x) : -slopeA(a, -x);
    }

    private static double slopeA(double a, double x) {
        return x >= 0 ? slopeG(a, x) : -0.25 * a;
    }

    /** G_a'(x) = -a e / (1 + e)^2, e = e^{-|a x|}: the same for x and -x, no cancellation. */
    private static double slopeG(double a, double x) {
        double e = Math.exp(-Math.abs(a * x));
        return -a * e / ((1 + e) * (1 + e));
    }

    private static double sigmoid(double x) {
        return x >= 0 ? 1 / (1 + Math.exp(-x)) : Math.exp(x) / (1 + Math.exp(x));
    }
}
