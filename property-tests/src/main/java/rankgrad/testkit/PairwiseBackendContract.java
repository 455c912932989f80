package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.quicktheories.QuickTheory.qt;

import java.util.Arrays;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.rank.Float64Reference;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * The laws every {@link PairwiseBackend} must satisfy, as one JUnit 5 class to extend: implement
 * {@link #backend()} and every law runs for that backend.
 *
 * <pre>{@code
 * class MyBackendContractTest extends PairwiseBackendContract {
 *     @Override
 *     protected PairwiseBackend backend() {
 *         return PairwiseBackends.byName("my-backend");
 *     }
 * }
 * }</pre>
 *
 * <p>The laws, each checked with QuickTheories on generated ragged batches (1 to 4 queries, ties
 * in scores and labels, -0.0 beside +0.0, scores up to 2e4 apart, queries without relevant
 * documents) that shrink to a small counterexample when a law fails:
 * <ul>
 *   <li>{@link #matchesTheReferenceOnRaggedBatches()} (m from 1 to 40) and {@link
 *       #matchesTheReferenceOnLargeQueries()} (a query of 1,000 to 2,000 documents): every
 *       float32 method (LightGBM's truncated lambdas at level 3, with and without the score
 *       distance, included) equals {@link PairwiseBackends#reference() the scalar reference} and the
 *       float64 value of its definition within the error a correct implementation may make
 *       (stated in {@code PairwiseContractRows}: 4 eps times the row's sum of (m + 16 + 2 |a z|)
 *       |pair term|, plus m times the smallest normal), and so does the float64 path all backends
 *       share ({@link Float64Reference}) in float64; exact ranks equal the reference's exactly;
 *       every output element is overwritten;</li>
 *   <li>{@link #exactRanksArePermutations()}: exact ranks are a permutation of 1..m per query,
 *       equal to 1 + #{j : s_j &gt; s_i, or s_j == s_i and key_j &lt; key_i};</li>
 *   <li>{@link #lambdasSumToZero()}: the RankNet and LambdaRank score gradients (lambdas) of a
 *       query sum to zero (Burges: equal and opposite forces), and so do the rank and
 *       smoothed-hinge score gradients (ranks depend on score differences only);</li>
 *   <li>{@link #noNaNOnExtremeScores()}: scores of +-1e30 and 1e4 apart give finite outputs.</li>
 * </ul>
 *
 * <p>The laws are also public static methods ({@link #assertMatchesReference}, ...) for a
 * hand-made {@link Batch}. A backend that reports {@link PairwiseBackend#isAvailable()} false
 * (no device here) skips the laws. Seeds: QuickTheories reads {@code -DQT_SEED} and prints the
 * seed of a failure. The laws on small batches run first: a JIT-compiled backend (the Vector API
 * kernels are slow until C2 compiles them) then meets the large queries warmed up.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public abstract class PairwiseBackendContract {
    /**
     * The truncation level of the LightGBM pair terms the laws check: small, so that batches of up
     * to 40 documents a query hold pairs on both sides of it.
     */
    private static final int TRUNCATION_LEVEL = 3;

    /** The backend under test; called once per law. */
    protected abstract PairwiseBackend backend();

    /** The backend every result is compared with: the scalar reference. */
    protected PairwiseBackend reference() {
        return PairwiseBackends.reference();
    }

    private PairwiseBackend availableBackend() {
        PairwiseBackend backend = backend();
        assumeTrue(backend.isAvailable(), () -> "backend " + backend.name() + " has no runtime or device here");
        return backend;
    }

    /** Every method equals the reference and its definition on ragged batches of up to 40 documents a query. */
    @Test
    @Order(1)
    public void matchesTheReferenceOnRaggedBatches() {
        PairwiseBackend backend = availableBackend();
        PairwiseBackend reference = reference();
        qt().withExamples(150).withShrinkCycles(500).forAll(PairwiseContractBatches.ragged(40))
                .checkAssert(b -> assertMatchesReference(backend, reference, b));
    }

    /** The same on a query of 1,000 to 2,000 documents beside a small one (few examples: m^2 pairs each). */
    @Test
    @Order(5)
    public void matchesTheReferenceOnLargeQueries() {
        PairwiseBackend backend = availableBackend();
        PairwiseBackend reference = reference();
        qt().withExamples(2).withShrinkCycles(20).forAll(PairwiseContractBatches.large(1000, 2000))
                .checkAssert(b -> assertMatchesReference(backend, reference, b));
    }

    /** Exact ranks are a permutation of 1..m per query, ordered by score and then by tie key. */
    @Test
    @Order(2)
    public void exactRanksArePermutations() {
        PairwiseBackend backend = availableBackend();
        qt().withExamples(100).forAll(PairwiseContractBatches.ragged(60))
                .checkAssert(b -> assertExactRanksArePermutations(backend, b));
    }

    /** The score gradients of a query (lambdas, rank and hinge gradients) sum to zero. */
    @Test
    @Order(3)
    public void lambdasSumToZero() {
        PairwiseBackend backend = availableBackend();
        qt().withExamples(100).forAll(PairwiseContractBatches.ragged(60))
                .checkAssert(b -> assertScoreGradientsSumToZero(backend, b));
    }

    /** Scores of +-1e30, +-1e4, 2e4, +-0 and 1e-30 give finite outputs in every method. */
    @Test
    @Order(4)
    public void noNaNOnExtremeScores() {
        PairwiseBackend backend = availableBackend();
        qt().withExamples(100).forAll(PairwiseContractBatches.extreme(40)).checkAssert(b -> assertFinite(backend, b));
    }

    /**
     * A ragged batch: query q owns {@code [offsets[q], offsets[q+1])} of every per-document array.
     *
     * @param tieKeys per query a permutation of 0..m-1 (exact ranks' tie-break)
     * @param rankGrad dL/dr, the input of the two rank-gradient methods
     * @param gains LambdaRank gains 2^y - 1
     * @param discounts LambdaRank discounts (of some ranking)
     * @param alpha sigmoid steepness of the rank methods
     * @param sigma sigma_s of the logistic pair terms
     */
    public record Batch(float[] scores, float[] labels, int[] offsets, int[] tieKeys, float[] rankGrad, float[] gains,
            float[] discounts, float alpha, float sigma) {

        /** The number of queries. */
        public int queries() {
            return offsets.length - 1;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("Batch[offsets=" + Arrays.toString(offsets) + ", alpha=" + alpha
                    + ", sigma=" + sigma);
            if (scores.length <= 64) {
                sb.append(", scores=").append(Arrays.toString(scores)).append(", labels=").append(Arrays.toString(labels))
                        .append(", tieKeys=").append(Arrays.toString(tieKeys)).append(", rankGrad=")
                        .append(Arrays.toString(rankGrad)).append(", discounts=").append(Arrays.toString(discounts));
            }
            return sb.append(']').toString();
        }
    }

    /**
     * Law: every float32 method of {@code backend} (and the shared float64 path, {@link
     * Float64Reference}) agrees with {@code reference} and
     * with the float64 value of its definition within the error model of {@code
     * PairwiseContractRows}; exact ranks agree exactly; outputs are overwritten (the backend's
     * output arrays start as NaN).
     */
    public static void assertMatchesReference(PairwiseBackend backend, PairwiseBackend reference, Batch b) {
        Run want = Run.of(reference, b, 0f);
        Run got = Run.of(backend, b, Float.NaN);
        compare("approxRanks", b, got.approxRanks, want.approxRanks, PairwiseContractRows.approxRanks(b));
        for (BackwardType type : BackwardType.values()) {
            int t = type.ordinal();
            compare("rankGradient " + type, b, got.rankGradient[t], want.rankGradient[t],
                    PairwiseContractRows.rankGradient(b, type));
        }
        compare("hingeRanks", b, got.hingeRanks, want.hingeRanks, PairwiseContractRows.hingeRanks(b));
        compare("hingeRankGradient", b, got.hingeGradient, want.hingeGradient, PairwiseContractRows.hingeRankGradient(b));
        for (int l = 0; l < 2; l++) {
            String what = l == 0 ? "logisticPairs (RankNet)" : "logisticPairs (LambdaRank)";
            compare(what + " scoreGrad", b, got.logisticGrad[l], want.logisticGrad[l],
                    PairwiseContractRows.logisticGradient(b, l == 1));
            compare(what + " cost", b, got.logisticCost[l], want.logisticCost[l],
                    PairwiseContractRows.logisticCost(b, l == 1));
        }
        float[] ranks = truncationRanks(b);
        for (int d = 0; d < 2; d++) {
            String what = "logisticPairs (LightGBM, level " + TRUNCATION_LEVEL + (d == 1 ? ", score distance)" : ")");
            compare(what + " scoreGrad", b, got.truncatedGrad[d], want.truncatedGrad[d],
                    PairwiseContractRows.truncatedLambdas(b, ranks, TRUNCATION_LEVEL, d == 1, false));
            compare(what + " pairLambdas", b, got.truncatedLambdas[d], want.truncatedLambdas[d],
                    PairwiseContractRows.truncatedLambdas(b, ranks, TRUNCATION_LEVEL, d == 1, true));
        }
        for (int k = 0; k < b.scores().length; k++) {
            if (got.exactRanks.f32[k] != want.exactRanks.f32[k] || got.exactRanks.f64[k] != want.exactRanks.f64[k]) {
                fail(where("exactRanks", b, k) + ": backend " + got.exactRanks.f32[k] + " / " + got.exactRanks.f64[k]
                        + ", reference " + want.exactRanks.f32[k] + " / " + want.exactRanks.f64[k]);
            }
        }
    }

    /** Law: exact ranks (float32 and float64) are a permutation of 1..m per query, in score then tie-key order. */
    public static void assertExactRanksArePermutations(PairwiseBackend backend, Batch b) {
        Pair ranks = Pair.filled(b.scores().length, Float.NaN);
        backend.exactRanksF32(b.scores(), b.offsets(), b.tieKeys(), ranks.f32);
        Float64Reference.exactRanks(widen(b.scores()), b.offsets(), b.tieKeys(), ranks.f64);
        int[] o = b.offsets();
        for (int q = 0; q < b.queries(); q++) {
            int m = o[q + 1] - o[q];
            boolean[] seen = new boolean[m + 1];
            for (int i = o[q]; i < o[q + 1]; i++) {
                int want = 1;
                for (int j = o[q]; j < o[q + 1]; j++) {
                    float sj = b.scores()[j];
                    float si = b.scores()[i];
                    if (sj > si || sj == si && b.tieKeys()[j] < b.tieKeys()[i]) {
                        want++;
                    }
                }
                if (ranks.f32[i] != want || ranks.f64[i] != want) {
                    fail(where("exactRanks", b, i) + ": " + ranks.f32[i] + " / " + ranks.f64[i] + ", want " + want);
                }
                assertTrue(!seen[want], () -> where("exactRanks", b, 0) + ": rank repeated in the query");
                seen[want] = true;
            }
        }
    }

    /**
     * Law: per query, the sum of each score gradient (RankNet and LambdaRank lambdas, the three rank
     * gradients, the smoothed-hinge gradient) is zero within the sum of its rows' tolerances: every
     * pair term t_kj has its opposite t_jk = -t_kj in row j, so the exact sum is 0.
     */
    public static void assertScoreGradientsSumToZero(PairwiseBackend backend, Batch b) {
        Run got = Run.of(backend, b, Float.NaN);
        for (BackwardType type : BackwardType.values()) {
            sumsToZero("rankGradient " + type, b, got.rankGradient[type.ordinal()],
                    PairwiseContractRows.rankGradient(b, type));
        }
        sumsToZero("hingeRankGradient", b, got.hingeGradient, PairwiseContractRows.hingeRankGradient(b));
        sumsToZero("RankNet lambdas", b, got.logisticGrad[0], PairwiseContractRows.logisticGradient(b, false));
        sumsToZero("LambdaRank lambdas", b, got.logisticGrad[1], PairwiseContractRows.logisticGradient(b, true));
        float[] ranks = truncationRanks(b);
        for (int d = 0; d < 2; d++) {
            sumsToZero("LightGBM lambdas" + (d == 1 ? " (score distance)" : ""), b, got.truncatedGrad[d],
                    PairwiseContractRows.truncatedLambdas(b, ranks, TRUNCATION_LEVEL, d == 1, false));
        }
    }

    /** Law: every output of every method is finite (the caller guarantees finite scores). */
    public static void assertFinite(PairwiseBackend backend, Batch b) {
        Run got = Run.of(backend, b, Float.NaN);
        Pair[] all = {got.approxRanks, got.rankGradient[0], got.rankGradient[1], got.rankGradient[2], got.hingeRanks,
            got.hingeGradient, got.logisticGrad[0], got.logisticGrad[1], got.logisticCost[0], got.logisticCost[1],
            got.exactRanks, got.truncatedGrad[0], got.truncatedGrad[1], got.truncatedLambdas[0],
            got.truncatedLambdas[1]};
        String[] names = {"approxRanks", "rankGradient TYPE1", "rankGradient TYPE2", "rankGradient TYPE3", "hingeRanks",
            "hingeRankGradient", "RankNet scoreGrad", "LambdaRank scoreGrad", "RankNet cost", "LambdaRank cost",
            "exactRanks", "LightGBM scoreGrad", "LightGBM scoreGrad (score distance)", "LightGBM pairLambdas",
            "LightGBM pairLambdas (score distance)"};
        for (int a = 0; a < all.length; a++) {
            for (int k = 0; k < b.scores().length; k++) {
                if (!Float.isFinite(all[a].f32[k]) || !Double.isFinite(all[a].f64[k])) {
                    fail(where(names[a], b, k) + ": " + all[a].f32[k] + " / " + all[a].f64[k]);
                }
            }
        }
    }

    private static void compare(String what, Batch b, Pair got, Pair want, PairwiseContractRows.Rows rows) {
        for (int k = 0; k < b.scores().length; k++) {
            double tol = rows.tol32()[k];
            float g = got.f32[k];
            if (!(Math.abs(g - want.f32[k]) <= tol && Math.abs(g - rows.value()[k]) <= tol)) {
                fail(where(what + " F32", b, k) + ": backend " + g + ", reference " + want.f32[k] + ", definition "
                        + rows.value()[k] + ", tolerance " + tol);
            }
            double tol64 = rows.tol64()[k];
            double g64 = got.f64[k];
            if (!(Math.abs(g64 - want.f64[k]) <= tol64 && Math.abs(g64 - rows.value()[k]) <= tol64)) {
                fail(where(what + " F64", b, k) + ": backend " + g64 + ", reference " + want.f64[k] + ", definition "
                        + rows.value()[k] + ", tolerance " + tol64);
            }
        }
    }

    private static void sumsToZero(String what, Batch b, Pair got, PairwiseContractRows.Rows rows) {
        int[] o = b.offsets();
        for (int q = 0; q < b.queries(); q++) {
            double sum32 = 0;
            double sum64 = 0;
            double tol32 = 0;
            double tol64 = 0;
            for (int k = o[q]; k < o[q + 1]; k++) {
                sum32 += got.f32[k];
                sum64 += got.f64[k];
                tol32 += rows.tol32()[k];
                tol64 += rows.tol64()[k];
            }
            if (!(Math.abs(sum32) <= tol32 && Math.abs(sum64) <= tol64)) {
                fail(what + " of query " + q + " sums to " + sum32 + " (float32, tolerance " + tol32 + ") / " + sum64
                        + " (float64, tolerance " + tol64 + ")");
            }
        }
    }

    private static String where(String what, Batch b, int k) {
        int q = 0;
        while (k >= b.offsets()[q + 1]) {
            q++;
        }
        return what + " query " + q + " (m=" + (b.offsets()[q + 1] - b.offsets()[q]) + ") document " + (k - b.offsets()[q]);
    }

    /** The positions LightGBM's truncation reads: the exact ranks of the batch's scores and tie keys. */
    private static float[] truncationRanks(Batch b) {
        float[] ranks = new float[b.scores().length];
        Ranking.exactRanks(b.scores(), b.offsets(), 0, b.queries(), b.tieKeys(), ranks);
        return ranks;
    }

    private static double[] widen(float[] a) {
        double[] d = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            d[i] = a[i];
        }
        return d;
    }

    /** One output in float32 and float64. */
    private record Pair(float[] f32, double[] f64) {
        static Pair filled(int n, float fill) {
            float[] f = new float[n];
            double[] d = new double[n];
            Arrays.fill(f, fill);
            Arrays.fill(d, fill);
            return new Pair(f, d);
        }
    }

    /**
     * Every output of every method of one backend on one batch: float32 from the backend, float64
     * from {@link Float64Reference} (float64 never reaches a backend; its laws are checked here
     * all the same, against the definitions).
     */
    private record Run(Pair approxRanks, Pair[] rankGradient, Pair hingeRanks, Pair hingeGradient, Pair[] logisticGrad,
            Pair[] logisticCost, Pair exactRanks, Pair[] truncatedGrad, Pair[] truncatedLambdas) {

        static Run of(PairwiseBackend be, Batch b, float fill) {
            int n = b.scores().length;
            float[] s = b.scores();
            double[] s64 = widen(s);
            float[] y = b.labels();
            int[] o = b.offsets();
            Pair approx = Pair.filled(n, fill);
            be.approxRanksF32(s, o, b.alpha(), approx.f32);
            Float64Reference.approxRanks(s64, o, b.alpha(), approx.f64);
            Pair[] rankGrad = new Pair[3];
            for (BackwardType type : BackwardType.values()) {
                Pair p = Pair.filled(n, fill);
                be.rankGradientF32(type, b.alpha(), s, y, o, b.rankGrad(), p.f32);
                Float64Reference.rankGradient(type, b.alpha(), s64, y, o, widen(b.rankGrad()), p.f64);
                rankGrad[type.ordinal()] = p;
            }
            Pair hinge = Pair.filled(n, fill);
            be.hingeRanksF32(b.alpha(), s, y, o, hinge.f32);
            Float64Reference.hingeRanks(b.alpha(), s64, y, o, hinge.f64);
            Pair hingeGrad = Pair.filled(n, fill);
            be.hingeRankGradientF32(b.alpha(), s, y, o, b.rankGrad(), hingeGrad.f32);
            Float64Reference.hingeRankGradient(b.alpha(), s64, y, o, widen(b.rankGrad()), hingeGrad.f64);
            Pair[] grad = new Pair[2];
            Pair[] cost = new Pair[2];
            for (int l = 0; l < 2; l++) {
                grad[l] = Pair.filled(n, fill);
                cost[l] = Pair.filled(n, fill);
                float[] gains = l == 0 ? null : b.gains();
                float[] disc = l == 0 ? null : b.discounts();
                be.logisticPairsF32(b.sigma(), s, y, gains, disc, o, grad[l].f32, cost[l].f32);
                Float64Reference.logisticPairs(b.sigma(), s64, y, l == 0 ? null : widen(gains),
                        l == 0 ? null : widen(disc), o, grad[l].f64, cost[l].f64);
            }
            Pair exact = Pair.filled(n, fill);
            be.exactRanksF32(s, o, b.tieKeys(), exact.f32);
            Float64Reference.exactRanks(s64, o, b.tieKeys(), exact.f64);
            float[] ranks = truncationRanks(b);
            double[] ranks64 = widen(ranks);
            Pair[] truncGrad = new Pair[2];
            Pair[] truncLambdas = new Pair[2];
            for (int d = 0; d < 2; d++) {
                truncGrad[d] = Pair.filled(n, fill);
                truncLambdas[d] = Pair.filled(n, fill);
                be.logisticPairsF32(b.sigma(), s, y, b.gains(), b.discounts(),
                        new PairTruncation(ranks, TRUNCATION_LEVEL, d == 1), o, truncGrad[d].f32, truncLambdas[d].f32);
                Float64Reference.truncatedLambdas(b.sigma(), s64, y, widen(b.gains()), widen(b.discounts()), ranks64,
                        TRUNCATION_LEVEL, d == 1, o, truncGrad[d].f64, truncLambdas[d].f64);
            }
            return new Run(approx, rankGrad, hinge, hingeGrad, grad, cost, exact, truncGrad, truncLambdas);
        }
    }
}
