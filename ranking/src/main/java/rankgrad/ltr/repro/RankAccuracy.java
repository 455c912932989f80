package rankgrad.ltr.repro;

import java.io.PrintStream;
import java.util.Locale;
import java.util.SplittableRandom;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.data.UniformData;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.ltr.rank.TieBreak;

/**
 * Reproduces Yu et al. 2020, Tables 2 and 3: how far approximate ranks are from the true ranks.
 * For v1 = 100 vectors of v2 = 123 and of v2 = 1000 values uniform in [0, 1) (float32, 24 random
 * bits, like {@code torch.rand}), the average over vectors of the L1 distance sum_i |pi(i) -
 * pi*(i)| between
 * <ul>
 *   <li>Table 2: pi^-(i) = 1 + sum_{j != i} sigma(sigma_steep (s_j - s_i)) for steepness in
 *       {1, 10, 100, 1e3, 1e4, 1e5} (computed by the pairwise backend in float64), and</li>
 *   <li>Table 3: Eq. 12 written pairwise, pi^+(i) = 1 + sum_{j != i} (1 - sigma^+(s_i - s_j)),
 *       with sigma^+(0) = 0.5 ("Eq-12": float32 draws tie about once per 34 vectors of 1000, and
 *       each tie costs 0.5 + 0.5) and with the tie rectified by a random permutation p (sigma^+ = 1
 *       iff p_i &gt; p_j, "plus tie breaking"),</li>
 * </ul>
 * and the true ranks pi*: the sorted order ({@link Ranking}) under the same tie permutation.
 *
 * <p>Run: {@code java -cp ltr/target/classes:autodiff/target/classes rankgrad.ltr.repro.RankAccuracy [seed]}.
 * The paper's numbers are printed beside; the data is random, so the sigma rows agree within a few
 * percent, not exactly.
 */
public final class RankAccuracy {
    /** Sigmoid steepness values of Table 2. */
    public static final double[] STEEPNESS = {1, 10, 100, 1e3, 1e4, 1e5};
    /** Vector lengths v2 of Tables 2 and 3. */
    public static final int[] LENGTHS = {123, 1000};
    /** Number of vectors v1. */
    public static final int VECTORS = 100;
    /** Yu et al. Table 2, rows: v2 = 123, 1000; columns: {@link #STEEPNESS}. */
    public static final double[][] PAPER_TABLE2 = {
        {2866.94, 350.25, 68.36, 16.45, 2.20, 0.23},
        {189401.48, 17600.48, 1671.72, 488.01, 112.80, 13.67},
    };
    /** Yu et al. Table 3 (columns v2 = 123, 1000): Eq-12, Eq-12 plus tie breaking. */
    public static final double[][] PAPER_TABLE3 = {{0, 0.03}, {0, 0}};

    /**
     * The measured tables: {@code approx[l][s]}, the mean L1 distance of the approximate ranks, for
     * length l and steepness s, with {@code approxStdError[l][s]} the standard error of that mean
     * over the vectors (how far another random draw, such as the paper's, may land); {@code
     * eq12[l]} and {@code eq12TieBreak[l]} for Table 3.
     */
    public record Tables(double[][] approx, double[][] approxStdError, double[] eq12, double[] eq12TieBreak) {
    }

    private RankAccuracy() {
    }

    /** Computes both tables from {@code seed} on the given backend. */
    public static Tables measure(long seed, PairwiseBackend backend) {
        double[][] approx = new double[LENGTHS.length][STEEPNESS.length];
        double[][] squares = new double[LENGTHS.length][STEEPNESS.length];
        double[] eq12 = new double[LENGTHS.length];
        double[] eq12TieBreak = new double[LENGTHS.length];
        for (int l = 0; l < LENGTHS.length; l++) {
            int m = LENGTHS[l];
            SplittableRandom rng = new SplittableRandom(seed + l);
            for (int v = 0; v < VECTORS; v++) {
                double[] s = new double[m];
                for (int i = 0; i < m; i++) {
                    s[i] = UniformData.value(rng);
                }
                int[] p = TieBreak.permutation(seed, v, l, m);
                int[] keys = new int[m];
                for (int i = 0; i < m; i++) {
                    keys[i] = m - 1 - p[i];
                }
                int[] truth = Ranking.ranks(Ranking.order(s, 0, m, keys));
                double[] ranks = new double[m];
                for (int k = 0; k < STEEPNESS.length; k++) {
                    backend.approxRanksF64(s, new int[] {0, m}, STEEPNESS[k], ranks);
                    double d = l1(ranks, truth);
                    approx[l][k] += d / VECTORS;
                    squares[l][k] += d * d / VECTORS;
                }
                eq12[l] += l1(twinSigmoidRanks(s, null), truth) / VECTORS;
                eq12TieBreak[l] += l1(twinSigmoidRanks(s, p), truth) / VECTORS;
            }
        }
        double[][] stdError = new double[LENGTHS.length][STEEPNESS.length];
        for (int l = 0; l < LENGTHS.length; l++) {
            for (int k = 0; k < STEEPNESS.length; k++) {
                double variance = (squares[l][k] - approx[l][k] * approx[l][k]) * VECTORS / (VECTORS - 1);
                stdError[l][k] = Math.sqrt(Math.max(0, variance) / VECTORS);
            }
        }
        return new Tables(approx, stdError, eq12, eq12TieBreak);
    }

    /**
     * Eq. 12 term by term: pi^+(i) = 1 + sum_{j != i} (1 - sigma^+(s_i - s_j)), sigma^+ = 1 above
     * 0, 0 below, and at 0 either 0.5 ({@code p == null}) or [p_i &gt; p_j].
     */
    static double[] twinSigmoidRanks(double[] s, int[] p) {
        int m = s.length;
        double[] r = new double[m];
        for (int i = 0; i < m; i++) {
            double sum = 1;
            for (int j = 0; j < m; j++) {
                if (j != i) {
                    double z = s[i] - s[j];
                    double step = z > 0 ? 1 : z < 0 ? 0 : p == null ? 0.5 : p[i] > p[j] ? 1 : 0;
                    sum += 1 - step;
                }
            }
            r[i] = sum;
        }
        return r;
    }

    private static double l1(double[] approx, int[] truth) {
        double sum = 0;
        for (int i = 0; i < approx.length; i++) {
            sum += Math.abs(approx[i] - truth[i]);
        }
        return sum;
    }

    /** sum_i |a_i - b_i|. */
    static double l1(double[] a, double[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += Math.abs(a[i] - b[i]);
        }
        return sum;
    }

    /** Prints both tables beside the paper's. */
    public static void print(Tables t, PrintStream out) {
        out.println("Yu et al. 2020, Table 2: average L1 distance of pi^- to the true ranks (100 vectors)");
        out.printf(Locale.ROOT, "%-6s %-7s %14s %10s %14s %8s%n", "v2", "sigma", "rankgrad", "std.err", "paper", "diff");
        for (int l = 0; l < LENGTHS.length; l++) {
            for (int k = 0; k < STEEPNESS.length; k++) {
                double ours = t.approx()[l][k];
                double paper = PAPER_TABLE2[l][k];
                out.printf(Locale.ROOT, "%-6d %-7s %14.2f %10.2f %14.2f %7.1f%%%n", LENGTHS[l],
                        String.format(Locale.ROOT, "%.0e", STEEPNESS[k]), ours, t.approxStdError()[l][k], paper,
                        100 * (ours - paper) / paper);
            }
        }
        out.println();
        out.println("Yu et al. 2020, Table 3: average L1 distance of pi^+ (Eq. 12) to the true ranks");
        out.printf(Locale.ROOT, "%-26s %12s %12s %12s %12s%n", "", "ours v2=123", "paper", "ours v2=1000", "paper");
        out.printf(Locale.ROOT, "%-26s %12.2f %12.2f %12.2f %12.2f%n", "Eq-12", t.eq12()[0], PAPER_TABLE3[0][0],
                t.eq12()[1], PAPER_TABLE3[0][1]);
        out.printf(Locale.ROOT, "%-26s %12.2f %12.2f %12.2f %12.2f%n", "Eq-12 plus tie breaking",
                t.eq12TieBreak()[0], PAPER_TABLE3[1][0], t.eq12TieBreak()[1], PAPER_TABLE3[1][1]);
    }

    /** Prints the tables; optional argument: the seed (default 2020). */
    public static void main(String[] args) {
        long seed = args.length > 0 ? Long.parseLong(args[0]) : 2020L;
        System.out.println("seed " + seed + ", pairwise backend " + PairwiseBackends.cpu());
        print(measure(seed, PairwiseBackends.cpu()), System.out);
    }
}
