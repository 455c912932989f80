package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import rankgrad.autodiff.DType;
import rankgrad.simd.Parallel;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.loss.LossFamily.Property;
import rankgrad.ltr.internal.pairwise.CpuPairwiseBackend;
import rankgrad.ltr.internal.pairwise.PairKernelProvider;
import rankgrad.ltr.pairwise.PairwiseBackend;

/** The conventions every loss of the registry keeps ({@link RankingLoss}'s Javadoc), each run for every row. */
class RankingLossConventionsTest {
    /** Query 0 has no relevant document, query 1 has one document, query 2 has three. */
    private static final QueryBatch BATCH = QueryBatch.of(new float[] {0f, 0f}, new float[] {2f},
            new float[] {1f, 0f, 3f});
    private static final double[] SCORES = {0.4, -1.2, 0.9, 0.1, 0.5, -0.3};
    /**
     * Laws that hold exactly in real arithmetic and differ only by rounding, here the 1/Q of a mean
     * applied before or after the pair sums: a few ulps of values of order 1.
     */
    private static final double ULPS = 1e-15;

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void queryWithoutRelevantDocumentsAddsZeroButCountsInTheMean(LossFamily family) {
        QueryBatch third = QueryBatch.of(new float[] {1f, 0f, 3f});
        LossTesting.Evaluated all = LossTesting.evaluate(EveryLoss.make(family), BATCH, SCORES);
        assertArrayEquals(new double[] {0, 0}, new double[] {all.grad()[0], all.grad()[1]}, 0.0);
        LossTesting.Evaluated alone = LossTesting.evaluate(EveryLoss.make(family), third, 0.1, 0.5, -0.3);
        LossTesting.Evaluated single = LossTesting.evaluate(EveryLoss.make(family), QueryBatch.of(new float[] {2f}), 0.9);
        // Three queries: the mean divides the sum by 3.
        assertEquals((alone.value() + single.value()) / 3, all.value(), ULPS);
        for (int i = 0; i < 3; i++) {
            assertEquals(alone.grad()[i] / 3, all.grad()[3 + i], ULPS, "document " + i + " of query 2");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void oneDocumentQueriesHaveAFiniteLossAndNoPairGradient(LossFamily family) {
        LossTesting.Evaluated e = LossTesting.evaluate(EveryLoss.make(family), QueryBatch.of(new float[] {2f}), 0.9);
        assertTrue(Double.isFinite(e.value()), "loss " + e.value());
        if (family.has(Property.SHIFT_INVARIANT)) {
            // A lone document has no score difference to learn from; only a regression term pulls it.
            assertEquals(0.0, e.grad()[0], 0.0);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void nonFiniteScoresNameTheQuery(LossFamily family) {
        for (double bad : new double[] {Double.NaN, Double.NEGATIVE_INFINITY}) {
            double[] scores = SCORES.clone();
            scores[4] = bad;
            for (DType dtype : DType.values()) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> EveryLoss.make(family).loss(Var.param(Tensor.vector(scores).to(dtype)), BATCH));
                assertTrue(e.getMessage().contains("query 2"), e.getMessage());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void float32ScoresGiveFloat32ResultsCloseToFloat64(LossFamily family) {
        Var s = Var.param(Tensor.vector(SCORES).to(DType.F32));
        Var l = EveryLoss.make(family).loss(s, BATCH);
        l.backward();
        assertEquals(DType.F32, l.dtype());
        assertEquals(DType.F32, s.grad().dtype());
        LossTesting.Evaluated e = LossTesting.evaluate(EveryLoss.make(family), BATCH, s.value().toDoubleArray());
        // Pair terms run in float32: each operation rounds to 2^-24 (6e-8) relative, and a value or
        // gradient entry here is a sum over at most 3 documents of terms of order 1 (a few dozen
        // roundings, exp and log1p included), so 1e-5 of its size is a margin of ~10x; a term
        // computed with a wrong factor, sign or dtype misses by far more.
        double scale = 1 + Math.abs(e.value());
        assertEquals(e.value(), l.value().item(), 1e-5 * scale);
        double[] grad32 = s.grad().toDoubleArray();
        for (int i = 0; i < grad32.length; i++) {
            assertEquals(e.grad()[i], grad32[i], 1e-5 * scale, "document " + i);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void rejectsMisshapenScoresAndEmptyBatches(LossFamily family) {
        RankingLoss loss = EveryLoss.make(family);
        assertThrows(IllegalArgumentException.class, () -> loss.loss(Var.param(Tensor.vector(1.0, 2.0)), BATCH));
        assertThrows(IllegalArgumentException.class, () -> loss.loss(Var.param(Tensor.zeros(DType.F64, 2, 3)), BATCH));
        assertThrows(IllegalArgumentException.class,
                () -> loss.loss(Var.param(Tensor.zeros(DType.F64, 0)), new QueryBatch(new int[] {0}, new float[0])));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void itsNameParsesBackToTheSameLoss(LossFamily family) {
        // Model files and logs record loss.name(); the registry must read it back.
        RankingLoss loss = Losses.parse(family.example(), 1);
        assertTrue(family.pattern().matcher(loss.name()).matches(), loss.name() + " is not a name of " + family.syntax());
        assertEquals(loss.name(), Losses.parse(loss.name(), 1).name());
        assertEquals(loss.name(), Losses.parse(" " + loss.name().toUpperCase(java.util.Locale.ROOT) + " ", 1).name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void freshLossesAtTheSameStepReplayTheirDrawsBitForBit(LossFamily family) {
        // What a resumed run relies on: the loss of step t depends on (seed, t) only, tied scores
        // and labels (random tie-breaks) included, in both dtypes.
        QueryBatch tied = QueryBatch.of(new float[] {1f, 1f, 0f, 2f, 2f}, new float[] {0f, 3f, 3f});
        double[] scores = {0.5, 0.5, 0.5, -0.0, 0.0, 1.0, 1.0, 1.0};
        for (DType dtype : DType.values()) {
            Var a = Var.param(Tensor.vector(scores).to(dtype));
            Var b = Var.param(Tensor.vector(scores).to(dtype));
            Var la = EveryLoss.make(family).loss(a, tied);
            Var lb = EveryLoss.make(family).loss(b, tied);
            la.backward();
            lb.backward();
            assertEquals(la.value().item(), lb.value().item(), 0.0, dtype.toString());
            assertArrayEquals(a.grad().toDoubleArray(), b.grad().toDoubleArray(), 0.0, dtype.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rankgrad.ltr.loss.EveryLoss#families")
    void extraMemoryIsLinearInTheQuerySize(LossFamily family) {
        org.junit.jupiter.api.Assumptions.assumeTrue(family.has(Property.LINEAR_MEMORY),
                "its memory grows with its sorting network (DiffSortLossTest bounds it)");
        int m = 1200;
        SplittableRandom rng = new SplittableRandom(3);
        float[] labels = new float[m];
        float[] s = new float[m];
        for (int i = 0; i < m; i++) {
            labels[i] = rng.nextInt(5);
            s[i] = (float) rng.nextGaussian();
        }
        QueryBatch batch = QueryBatch.of(labels);
        // The scalar kernels allocate the same in every JIT tier (interpreted Vector API code
        // allocates a box per operation), and one thread runs every task inline on this thread,
        // so the thread's allocation counter sees everything.
        PairwiseBackend scalar = CpuPairwiseBackend.withKernels(PairKernelProvider.scalar());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int before = Parallel.threads();
        Parallel.setThreads(1);
        try {
            // A first, small call loads the classes and links the lambdas of the loss's code path.
            EveryLoss.make(family).withBackend(scalar).loss(Var.param(Tensor.vector(0f, 1f)),
                    QueryBatch.of(new float[] {1f, 0f})).backward();
            RankingLoss loss = EveryLoss.make(family).withBackend(scalar);
            long start = threads.getCurrentThreadAllocatedBytes();
            Var x = Var.param(Tensor.of(s.clone(), m));
            Var l = loss.loss(x, batch);
            l.backward();
            long allocated = threads.getCurrentThreadAllocatedBytes() - start;
            assertTrue(Double.isFinite(l.value().item()));
            // A float pair matrix alone is 4 m^2 = 5.8 MB, almost 5 times the bound; the O(m) arrays
            // of scores, ranks, keys, weights, gradients and sorting take a few hundred bytes per
            // document.
            assertTrue(allocated < 1024L * m, "allocated " + allocated + " bytes");
        } finally {
            Parallel.setThreads(before);
        }
    }
}
