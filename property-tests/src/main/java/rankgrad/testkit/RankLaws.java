package rankgrad.testkit;

import java.util.Arrays;
import java.util.SplittableRandom;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.Ranking;

/**
 * Laws of exact rank operators (docs/design.md §3.2), as assertions on one {@link RankingCase}: put
 * them in a QuickTheories property and a failure is shrunk and printed with its seed.
 *
 * <ul>
 *   <li>{@link #assertExactRanks}: within each query of m documents the ranks are the integers
 *       1..m, each once (a permutation), and they follow the scores: s_i &gt; s_j implies
 *       r_i &lt; r_j (rank 1 is the highest score; -0.0 and +0.0 are equal scores, so they tie).
 *       Holds for any tie-break.</li>
 *   <li>{@link #assertSortRanks}: in addition the ranks equal those of sorting the query by score,
 *       highest first, ties broken by the operator's {@link TieKeys}
 *       ({@link Ranking#order(double[], int, int, int[])}, then {@link Ranking#ranks}), exactly.</li>
 *   <li>{@link #assertPermutahedronRanks}: soft ranks (Blondel et al. 2020) lie in the permutahedron
 *       of (m, ..., 1) and keep the scores' order: within each query of m documents every rank is in
 *       [1, m], they sum to m (m + 1) / 2, s_i &gt; s_j implies r_i &lt;= r_j, and tied scores get
 *       equal ranks, bit for bit (they pool into one isotonic block).</li>
 *   <li>{@link #assertPermutationEquivariant}: permuting the documents of each query (labels with
 *       them) permutes the operator's output the same way.</li>
 * </ul>
 *
 * <pre>{@code
 * qt().withExamples(200).forAll(RankingCases.anyScores(4, 40))
 *         .checkAssert(c -> RankLaws.assertSortRanks(MyRanks::apply, c, TieKeys.INPUT_ORDER));
 * }</pre>
 *
 * <p>The forms that take a {@link RankOperator} run it without gradients on the case's scores in
 * float32 and in float64 (the same values, see {@link RankingCase}) and check both outputs; the
 * forms that take the ranks check one output the caller computed.
 */
public final class RankLaws {
    private RankLaws() {
    }

    /** The operator's ranks, in float32 and in float64, are exact ranks of the case's scores. */
    public static void assertExactRanks(RankOperator op, RankingCase c) {
        for (DType dtype : new DType[] {DType.F32, DType.F64}) {
            check(ranksOf(op, c, dtype), c, null, dtype + " ");
        }
    }

    /** {@code ranks} (one per document of the case) are exact ranks of the case's scores. */
    public static void assertExactRanks(double[] ranks, RankingCase c) {
        check(ranks, c, null, "");
    }

    /** The operator's ranks, in float32 and in float64, are the sort ranks of the case's scores. */
    public static void assertSortRanks(RankOperator op, RankingCase c, TieKeys ties) {
        for (DType dtype : new DType[] {DType.F32, DType.F64}) {
            check(ranksOf(op, c, dtype), c, ties, dtype + " ");
        }
    }

    /** {@code ranks} are the sort ranks of the case's scores with ties broken by {@code ties}. */
    public static void assertSortRanks(double[] ranks, RankingCase c, TieKeys ties) {
        check(ranks, c, ties, "");
    }

    /**
     * The operator's ranks, in float32 and in float64, lie in the permutahedron and keep the
     * scores' order (see the class comment); sums and bounds within {@code tolerance} (1 + m (m + 1) / 2),
     * the order within {@code tolerance} m.
     */
    public static void assertPermutahedronRanks(RankOperator op, RankingCase c, double tolerance) {
        for (DType dtype : new DType[] {DType.F32, DType.F64}) {
            double[] ranks = ranksOf(op, c, dtype);
            QueryBatch b = c.batch();
            for (int q = 0; q < b.queries(); q++) {
                int from = b.start(q);
                int m = b.size(q);
                double[] r = Arrays.copyOfRange(ranks, from, from + m);
                double full = m * (m + 1) / 2.0;
                double slack = tolerance * (1 + full);
                double sum = 0;
                for (int i = 0; i < m; i++) {
                    sum += r[i];
                    if (!(r[i] >= 1 - slack && r[i] <= m + slack)) {
                        throw new AssertionError(dtype + " query " + q + ": rank " + r[i] + " of document " + i
                                + " is outside [1, " + m + "]; ranks " + Arrays.toString(r));
                    }
                    for (int j = 0; j < m; j++) {
                        double si = c.scores()[from + i];
                        double sj = c.scores()[from + j];
                        if (si == sj && r[i] != r[j]) {
                            throw new AssertionError(dtype + " query " + q + ": tied documents " + i + " and " + j
                                    + " (score " + si + ") have ranks " + r[i] + " and " + r[j]);
                        }
                        if (si > sj && r[i] > r[j] + tolerance * m) {
                            throw new AssertionError(dtype + " query " + q + ": document " + i + " (score " + si
                                    + ") has rank " + r[i] + " below document " + j + " (score " + sj + ", rank "
                                    + r[j] + ")");
                        }
                    }
                }
                if (!(Math.abs(sum - full) <= slack)) {
                    throw new AssertionError(dtype + " query " + q + ": ranks sum to " + sum + ", not m (m + 1) / 2 = "
                            + full + "; ranks " + Arrays.toString(r));
                }
            }
        }
    }

    /**
     * Permuting the documents of each query of the case (scores and labels, by a permutation drawn
     * from the case's seed) permutes the operator's float64 output alike, within {@code tolerance}
     * (1 + |value|); 0 asks for the same bits.
     */
    public static void assertPermutationEquivariant(RankOperator op, RankingCase c, double tolerance) {
        QueryBatch b = c.batch();
        SplittableRandom random = new SplittableRandom(c.seed());
        int[] perm = new int[b.documents()];
        for (int q = 0; q < b.queries(); q++) {
            int from = b.start(q);
            for (int i = 0; i < b.size(q); i++) {
                perm[from + i] = from + i;
            }
            for (int i = b.size(q) - 1; i > 0; i--) {
                int j = random.nextInt(i + 1);
                int t = perm[from + i];
                perm[from + i] = perm[from + j];
                perm[from + j] = t;
            }
        }
        double[] scores = new double[perm.length];
        float[] labels = new float[perm.length];
        for (int i = 0; i < perm.length; i++) {
            scores[i] = c.scores()[perm[i]];
            labels[i] = b.labels()[perm[i]];
        }
        double[] original = ranksOf(op, c, DType.F64);
        double[] moved = ranksOf(op, new RankingCase(new QueryBatch(b.offsets(), labels), scores, c.seed()), DType.F64);
        for (int i = 0; i < perm.length; i++) {
            double expected = original[perm[i]];
            if (!(Math.abs(moved[i] - expected) <= tolerance * (1 + Math.abs(expected)))) {
                throw new AssertionError("document " + i + " (document " + perm[i] + " before the permutation): "
                        + moved[i] + " after, " + expected + " before; permutation " + Arrays.toString(perm));
            }
        }
    }

    private static double[] ranksOf(RankOperator op, RankingCase c, DType dtype) {
        try (NoGrad ignored = NoGrad.enter()) {
            return op.apply(Var.constant(c.tensor(dtype)), c.batch()).value().toDoubleArray();
        }
    }

    private static void check(double[] ranks, RankingCase c, TieKeys ties, String what) {
        QueryBatch b = c.batch();
        if (ranks.length != b.documents()) {
            throw new AssertionError(what + "ranks: " + ranks.length + " values for " + b.documents() + " documents");
        }
        for (int q = 0; q < b.queries(); q++) {
            int from = b.start(q);
            int m = b.size(q);
            double[] r = Arrays.copyOfRange(ranks, from, from + m);
            int[] order = new int[m];
            Arrays.fill(order, -1);
            for (int i = 0; i < m; i++) {
                double v = r[i];
                if (!(v >= 1 && v <= m && v == Math.rint(v))) {
                    throw new AssertionError(what + "query " + q + ": rank " + v + " of document " + i
                            + " is not an integer in 1.." + m + "; ranks " + Arrays.toString(r));
                }
                int p = (int) v - 1;
                if (order[p] >= 0) {
                    throw new AssertionError(what + "query " + q + ": documents " + order[p] + " and " + i
                            + " both have rank " + (p + 1) + ": not a permutation; ranks " + Arrays.toString(r));
                }
                order[p] = i;
            }
            for (int p = 1; p < m; p++) {
                double above = c.scores()[from + order[p - 1]];
                double below = c.scores()[from + order[p]];
                if (above < below) {
                    throw new AssertionError(what + "query " + q + ": document " + order[p - 1] + " (score " + above
                            + ") has rank " + p + " above document " + order[p] + " (score " + below + ", rank "
                            + (p + 1) + "); ranks " + Arrays.toString(r));
                }
            }
            if (ties != null) {
                int[] expected = Ranking.ranks(Ranking.order(c.scores(), from, m, ties.of(q, m)));
                for (int i = 0; i < m; i++) {
                    if (r[i] != expected[i]) {
                        throw new AssertionError(what + "query " + q + ": ranks " + Arrays.toString(r)
                                + " differ from the sort ranks " + Arrays.toString(expected) + " at document " + i
                                + " (ties broken by the given tie keys)");
                    }
                }
            }
        }
    }
}
