package rankgrad.tornado;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import uk.ac.manchester.tornado.api.types.arrays.FloatArray;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * Every device kernel run as plain Java (no TaskGraph: the {@code @Parallel} loop runs
 * sequentially) on buffers larger than the batch, as a plan lays them out, against the scalar
 * reference. In Java, TornadoMath's float exp and signum are Java's, and each kernel writes its
 * pair term as the reference does, so the results are bit-identical; only the logistic cost may
 * differ (log1p: the kernel's float formula vs the reference's double one).
 */
@Tag(DeviceFree.TAG)
class KernelsAsJavaTest {
    private static final PairwiseBackend REFERENCE = PairwiseBackends.reference();
    /** Capacity slack: rows past the batch must stay untouched. */
    private static final int SLACK = 5;
    private static final float UNTOUCHED = -7f;

    private final RaggedBatch batch = RaggedBatch.random(11, new int[] {0, 1, 2, 3, 9, 40}, 23);
    private final int n = batch.docs();
    private final int queries = batch.offsets().length - 1;
    private final IntArray offsets = offsets(batch.offsets(), queries + 3);

    @Test
    void approxRanksEqualsReference() {
        FloatArray out = output();
        RankKernels.approxRanks(input(batch.scores()), offsets, shape(0), param(10f), out);
        float[] ref = new float[n];
        REFERENCE.approxRanksF32(batch.scores(), batch.offsets(), 10f, ref);
        assertBatch(ref, out);
    }

    @Test
    void rankGradientEqualsReferenceForEveryType() {
        for (BackwardType type : BackwardType.values()) {
            FloatArray out = output();
            RankKernels.rankGradient(input(batch.scores()), input(batch.labels()), input(batch.upstream()), offsets,
                    shape(type.number()), param(3f), out);
            float[] ref = new float[n];
            REFERENCE.rankGradientF32(type, 3f, batch.scores(), batch.labels(), batch.offsets(), batch.upstream(), ref);
            assertBatch(ref, out);
        }
    }

    @Test
    void hingeRanksEqualsReference() {
        FloatArray out = output();
        HingeKernels.hingeRanks(input(batch.scores()), input(batch.labels()), offsets, shape(0), param(2f), out);
        float[] ref = new float[n];
        REFERENCE.hingeRanksF32(2f, batch.scores(), batch.labels(), batch.offsets(), ref);
        assertBatch(ref, out);
    }

    @Test
    void hingeRankGradientEqualsReference() {
        FloatArray out = output();
        HingeKernels.hingeRankGradient(input(batch.scores()), input(batch.labels()), input(batch.upstream()), offsets,
                shape(0), param(2f), out);
        float[] ref = new float[n];
        REFERENCE.hingeRankGradientF32(2f, batch.scores(), batch.labels(), batch.offsets(), batch.upstream(), ref);
        assertBatch(ref, out);
    }

    @Test
    void logisticPairsEqualReferenceWithAndWithoutWeights() {
        for (boolean lambda : new boolean[] {true, false}) {
            FloatArray grad = output();
            FloatArray cost = output();
            LogisticPairKernels.logisticPairs(input(batch.scores()), input(batch.labels()), input(batch.gains()),
                    input(batch.discounts()), offsets, shape(lambda ? 1 : 0), param(1.5f), grad, cost);
            float[] refGrad = new float[n];
            float[] refCost = new float[n];
            REFERENCE.logisticPairsF32(1.5f, batch.scores(), batch.labels(), lambda ? batch.gains() : null,
                    lambda ? batch.discounts() : null, batch.offsets(), refGrad, refCost);
            assertBatch(refGrad, grad);
            // The cost's log1p: the kernel's Goldberg formula is within 2 ulps of log1p, and softplus
            // adds max(x, 0) exactly, so each non-negative term is within 4 eps, the row within (m + 4) eps.
            ErrorBound.assertClose("logistic cost", refCost, cost.toHeapArray(), batch.offsets(),
                    ErrorBound.ofPositiveSum(refCost));
            assertEquals(UNTOUCHED, cost.get(n));
        }
    }

    @Test
    void truncatedLambdasEqualReferenceWithAndWithoutScoreDistance() {
        float[] ranks = new float[n];
        int[] inputOrder = new int[n];
        for (int q = 0; q < queries; q++) {
            for (int i = batch.offsets()[q]; i < batch.offsets()[q + 1]; i++) {
                inputOrder[i] = i - batch.offsets()[q];
            }
        }
        rankgrad.ltr.Ranking.exactRanks(batch.scores(), batch.offsets(), 0, queries, inputOrder, ranks);
        for (boolean scoreDistance : new boolean[] {true, false}) {
            IntArray truncation = new IntArray(2);
            truncation.set(0, 3);
            truncation.set(1, scoreDistance ? 1 : 0);
            FloatArray grad = output();
            FloatArray lambdas = output();
            LogisticPairKernels.truncatedLambdas(input(batch.scores()), input(batch.labels()), input(batch.gains()),
                    input(batch.discounts()), input(ranks), offsets, shape(0), param(1.5f), truncation, grad, lambdas);
            float[] refGrad = new float[n];
            float[] refLambdas = new float[n];
            REFERENCE.logisticPairsF32(1.5f, batch.scores(), batch.labels(), batch.gains(), batch.discounts(),
                    new PairTruncation(ranks, 3, scoreDistance), batch.offsets(), refGrad, refLambdas);
            assertBatch(refGrad, grad);
            assertBatch(refLambdas, lambdas);
        }
    }

    @Test
    void log1pIsAccurateWhereFloatLogWouldRoundAway() {
        for (float e : new float[] {0f, 1e-30f, 1e-8f, 3e-7f, 1e-4f, 0.01f, 0.5f, 1f}) {
            double exact = Math.log1p(e);
            // Goldberg's formula: a few ulps of the result (here 2^-21 relative, i.e. 4 ulps).
            assertEquals(exact, DeviceMath.log1p(e), Math.max(Math.ulp((float) exact) * 4, 0), "log1p(" + e + ")");
        }
    }

    @Test
    void queryOfSkipsEmptyQueries() {
        IntArray o = IntArray.fromElements(0, 0, 3, 3, 3, 5, 5);
        int[] expected = {1, 1, 1, 4, 4};
        for (int k = 0; k < expected.length; k++) {
            assertEquals(expected[k], DeviceMath.queryOf(o, 6, k), "row " + k);
        }
    }

    private void assertBatch(float[] ref, FloatArray out) {
        assertArrayEquals(ref, Arrays.copyOf(out.toHeapArray(), n));
        for (int k = n; k < out.getSize(); k++) {
            assertEquals(UNTOUCHED, out.get(k), "row " + k + " is past the batch");
        }
    }

    private FloatArray input(float[] values) {
        FloatArray a = new FloatArray(n + SLACK);
        for (int i = 0; i < n; i++) {
            a.set(i, values[i]);
        }
        return a;
    }

    private FloatArray output() {
        FloatArray a = new FloatArray(n + SLACK);
        a.init(UNTOUCHED);
        return a;
    }

    private IntArray shape(int mode) {
        return IntArray.fromElements(n, queries, mode);
    }

    private static FloatArray param(float p) {
        return FloatArray.fromElements(p);
    }

    /** Offsets padded with n up to the capacity, as {@link PairPlan#loadBatch} lays them out. */
    private static IntArray offsets(int[] o, int capacity) {
        IntArray a = new IntArray(capacity + 1);
        for (int q = 0; q <= capacity; q++) {
            a.set(q, o[Math.min(q, o.length - 1)]);
        }
        return a;
    }
}
