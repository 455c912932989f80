package rankgrad.ltr.internal.pairwise;

import java.util.Arrays;
import java.util.Objects;
import rankgrad.simd.Parallel;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * The CPU implementation of {@link PairwiseBackend}: fused row kernels ({@link PairKernels}, SIMD
 * when available) that evaluate each pair term on the fly, so the extra memory is O(1) per row
 * and nothing of size m^2 is ever allocated; rows run in parallel in tasks of about 65,536 pairs
 * fixed by the batch's offsets ({@link WorkPartition}).
 *
 * <p>Exact ranks sort each query with {@link Ranking} (O(m log m)), the one definition of ranking
 * shared with the metrics and LambdaRank.
 *
 * <p>Thread-safety: stateless apart from its kernels; safe for concurrent use.
 */
public final class CpuPairwiseBackend implements PairwiseBackend {
    /** Pair terms per task: large enough to amortize task overhead, small enough to balance 2+ cores. */
    static final long PAIRS_PER_TASK = 1 << 16;
    /** Documents per task of the O(m log m) exact ranking. */
    static final int DOCS_PER_TASK = 4096;

    private final PairKernels kernels;

    private CpuPairwiseBackend(PairKernels kernels) {
        this.kernels = Objects.requireNonNull(kernels, "kernels");
    }

    /** The CPU backend on the kernels chosen for this JVM ({@link PairKernelProvider#kernels()}). */
    public static CpuPairwiseBackend create() {
        return new CpuPairwiseBackend(PairKernelProvider.kernels());
    }

    /** The CPU backend on given kernels (e.g. {@link PairKernelProvider#scalar()} as a reference). */
    public static CpuPairwiseBackend withKernels(PairKernels kernels) {
        return new CpuPairwiseBackend(kernels);
    }

    @Override
    public String name() {
        return "cpu";
    }

    /** The kernels this backend runs on. */
    public PairKernels kernels() {
        return kernels;
    }

    @Override
    public void exactRanksF32(float[] scores, int[] offsets, int[] tieKeys, float[] ranks) {
        int[] blocks = WorkPartition.queryBlocks(offsets, DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                int from = offsets[q];
                int m = offsets[q + 1] - from;
                int[] order = Ranking.order(scores, from, m, Arrays.copyOfRange(tieKeys, from, from + m));
                for (int p = 0; p < m; p++) {
                    ranks[from + order[p]] = p + 1;
                }
            }
        });
    }

    @Override
    public void exactRanksF64(double[] scores, int[] offsets, int[] tieKeys, double[] ranks) {
        int[] blocks = WorkPartition.queryBlocks(offsets, DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            for (int q = blocks[t]; q < blocks[t + 1]; q++) {
                int from = offsets[q];
                int m = offsets[q + 1] - from;
                int[] order = Ranking.order(scores, from, m, Arrays.copyOfRange(tieKeys, from, from + m));
                for (int p = 0; p < m; p++) {
                    ranks[from + order[p]] = p + 1;
                }
            }
        });
    }

    @Override
    public void approxRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.approxRanksF32(scores, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void approxRanksF64(double[] scores, int[] offsets, double alpha, double[] ranks) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.approxRanksF64(scores, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.rankGradientF32(type, scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void rankGradientF64(BackwardType type, double alpha, double[] scores, float[] labels, int[] offsets,
            double[] rankGrad, double[] scoreGrad) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.rankGradientF64(type, scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void hingeRanksF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRanksF32(scores, labels, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void hingeRanksF64(double alpha, double[] scores, float[] labels, int[] offsets, double[] ranks) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRanksF64(scores, labels, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void hingeRankGradientF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRankGradientF32(scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void hingeRankGradientF64(double alpha, double[] scores, float[] labels, int[] offsets,
            double[] rankGrad, double[] scoreGrad) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRankGradientF64(scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            int[] offsets, float[] scoreGrad, float[] cost) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> kernels.logisticPairsF32(scores, labels, gains,
                discounts, from, m, rowFrom, rowTo, sigma, scoreGrad, cost));
    }

    @Override
    public void logisticPairsF64(double sigma, double[] scores, float[] labels, double[] gains, double[] discounts,
            int[] offsets, double[] scoreGrad, double[] cost) {
        forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> kernels.logisticPairsF64(scores, labels, gains,
                discounts, from, m, rowFrom, rowTo, sigma, scoreGrad, cost));
    }

    /** The rows [rowFrom, rowTo) of the query of m documents starting at from. */
    @FunctionalInterface
    private interface RowSegment {
        void run(int from, int m, int rowFrom, int rowTo);
    }

    /** Runs the row tasks of {@link WorkPartition#rowBlocks}, cutting each task's rows at query boundaries. */
    private static void forEachRowSegment(int[] offsets, RowSegment segment) {
        int[] blocks = WorkPartition.rowBlocks(offsets, PAIRS_PER_TASK);
        Parallel.forEach(blocks.length - 1, t -> {
            int k = blocks[t];
            int q = WorkPartition.queryOf(offsets, k);
            while (k < blocks[t + 1]) {
                while (k >= offsets[q + 1]) {
                    q++;
                }
                int end = Math.min(blocks[t + 1], offsets[q + 1]);
                segment.run(offsets[q], offsets[q + 1] - offsets[q], k, end);
                k = end;
            }
        });
    }

    @Override
    public String toString() {
        return "cpu(" + kernels.name() + ")";
    }
}
