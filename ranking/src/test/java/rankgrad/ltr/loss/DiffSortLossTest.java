package rankgrad.ltr.loss;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.rank.SortingNetwork;
import rankgrad.ltr.rank.SwapSigmoid;
import rankgrad.simd.Parallel;

class DiffSortLossTest {

    /**
     * With hard comparators each network sorts every input: a wrong wire or direction leaves one
     * unsorted. (diffsort's own bitonic network fails this at m = 22, docs/losses.md.)
     */
    @ParameterizedTest
    @EnumSource(SortingNetwork.Kind.class)
    void hardComparatorsSortEveryInput(SortingNetwork.Kind kind) {
        SplittableRandom rng = new SplittableRandom(11);
        for (int m = 1; m <= 40; m++) {
            SortingNetwork net = SortingNetwork.of(kind, m);
            for (int trial = 0; trial < 20; trial++) {
                double[] x = rng.doubles(m, -5, 5).toArray();
                double[] expected = x.clone();
                Arrays.sort(expected);
                for (int c = 0; c < net.size(); c++) {
                    int lo = net.minToSecond(c) ? net.second(c) : net.first(c);
                    int hi = net.minToSecond(c) ? net.first(c) : net.second(c);
                    double a = Math.min(x[net.first(c)], x[net.second(c)]);
                    double b = Math.max(x[net.first(c)], x[net.second(c)]);
                    x[lo] = a;
                    x[hi] = b;
                }
                double[] out = new double[m];
                for (int r = 0; r < m; r++) {
                    out[r] = x[net.output(r)];
                }
                assertArrayEquals(expected, out, 0.0, kind + " network on " + m + " wires");
            }
        }
    }

    /** A steep network on well-separated scores in the grades' order is almost exact: the loss is near 0. */
    @ParameterizedTest
    @EnumSource(SortingNetwork.Kind.class)
    void aCorrectRankingAtHighSteepnessCostsAlmostNothing(SortingNetwork.Kind kind) {
        float[] grades = {3, 0, 2, 1, 4};
        double[] scores = {3, 0, 2, 1, 4};
        double loss = LossTesting.evaluate(DiffSortLoss.of(kind, SwapSigmoid.LOGISTIC, 40, Integer.MAX_VALUE),
                QueryBatch.of(grades), scores).value();
        double wrong = LossTesting.evaluate(DiffSortLoss.of(kind, SwapSigmoid.LOGISTIC, 40, Integer.MAX_VALUE),
                QueryBatch.of(grades), 4, 3, 2, 1, 0).value();
        // sigma(-40) ~ 4e-18 per comparator: each BCE term is below 1e-15.
        assertEquals(0, loss, 1e-12);
        assertTrue(wrong > 1, "a reversed ranking costs " + wrong);
    }

    /**
     * Memory is O(C + m), C the number of comparators (alpha, f', b - a, one number of history and
     * dL/dalpha each): odd-even at m = 600 has C = 179,700; bitonic at m = 1200 has about 30,000
     * comparators, so it stays far below the 11.5 MB of X.
     */
    @ParameterizedTest
    @EnumSource(SortingNetwork.Kind.class)
    void memoryIsBoundedByTheNetworkNotTheMatrix(SortingNetwork.Kind kind) {
        int m = kind == SortingNetwork.Kind.ODD_EVEN ? 600 : 1200;
        SplittableRandom rng = new SplittableRandom(3);
        float[] labels = new float[m];
        double[] s = new double[m];
        for (int i = 0; i < m; i++) {
            labels[i] = rng.nextInt(5);
            s[i] = rng.nextGaussian();
        }
        RankingLoss loss = DiffSortLoss.of(kind, SwapSigmoid.CAUCHY, 10, Integer.MAX_VALUE);
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int before = Parallel.threads();
        Parallel.setThreads(1);
        try {
            loss.loss(Var.param(Tensor.vector(0.0, 1.0)), QueryBatch.of(new float[] {1f, 0f})).backward();
            long start = threads.getCurrentThreadAllocatedBytes();
            Var x = Var.param(Tensor.vector(s));
            loss.loss(x, QueryBatch.of(labels)).backward();
            long allocated = threads.getCurrentThreadAllocatedBytes() - start;
            long comparators = SortingNetwork.of(kind, m).size();
            // 5 doubles per comparator (40 bytes), the network's 9 bytes, and a few hundred bytes per document.
            assertTrue(allocated < 50 * comparators + 1024L * m, "allocated " + allocated + " bytes for "
                    + comparators + " comparators");
            if (kind == SortingNetwork.Kind.BITONIC) {
                assertTrue(allocated < 8L * m * m / 4, "allocated " + allocated + " bytes, a quarter of X");
            }
        } finally {
            Parallel.setThreads(before);
        }
    }
}
