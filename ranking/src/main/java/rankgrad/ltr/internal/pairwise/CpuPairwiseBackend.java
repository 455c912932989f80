package rankgrad.ltr.internal.pairwise;

import java.util.Objects;
import rankgrad.simd.Parallel;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairTruncation;
import rankgrad.ltr.pairwise.PairwiseBackend;

/**
 * The CPU implementation of {@link PairwiseBackend}: fused row kernels ({@link PairKernels}, SIMD
 * when available) that evaluate each pair term on the fly, so the extra memory is O(1) per row
 * and nothing of size m^2 is ever allocated; rows run in parallel in tasks of about 65,536 pairs
 * fixed by the batch's offsets ({@link WorkPartition}).
 *
 * <p>Exact ranks sort each query with {@link Ranking#exactRanks} (O(m log m)), the one definition of
 * ranking shared with the metrics and LambdaRank, in tasks of about 4,096 documents. Float32 only:
 * float64 never reaches a backend ({@link rankgrad.ltr.rank.Float64Reference}).
 *
 * <p>Registered with {@link java.util.ServiceLoader} twice: as {@code cpu} on this JVM's kernels
 * and, as {@link Reference}, on the scalar pair kernels ({@code reference}), so that {@link
 * rankgrad.ltr.pairwise.PairwiseBackends} finds both without importing this package.
 *
 * <p>Thread-safety: stateless apart from its kernels; safe for concurrent use.
 */
public sealed class CpuPairwiseBackend implements PairwiseBackend permits CpuPairwiseBackend.Reference {
    private final PairKernels kernels;

    /** The CPU backend on the kernels chosen for this JVM; the constructor {@link java.util.ServiceLoader} calls. */
    public CpuPairwiseBackend() {
        this(PairKernelProvider.kernels());
    }

    private CpuPairwiseBackend(PairKernels kernels) {
        this.kernels = Objects.requireNonNull(kernels, "kernels");
    }

    /**
     * The CPU backend on the scalar pair kernels, registered as {@code reference}: what every
     * backend is checked against.
     */
    public static final class Reference extends CpuPairwiseBackend {
        /** The constructor {@link java.util.ServiceLoader} calls. */
        public Reference() {
            super(PairKernelProvider.scalar());
        }

        @Override
        public String name() {
            return "reference";
        }
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
        int[] blocks = WorkPartition.queryBlocks(offsets, WorkPartition.DOCS_PER_TASK);
        Parallel.forEach(blocks.length - 1,
                t -> Ranking.exactRanks(scores, offsets, blocks[t], blocks[t + 1], tieKeys, ranks));
    }

    @Override
    public void approxRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.approxRanksF32(scores, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.rankGradientF32(type, scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void hingeRanksF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRanksF32(scores, labels, from, m, rowFrom, rowTo, alpha, ranks));
    }

    @Override
    public void hingeRankGradientF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                kernels.hingeRankGradientF32(scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            int[] offsets, float[] scoreGrad, float[] cost) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> kernels.logisticPairsF32(scores, labels, gains,
                discounts, from, m, rowFrom, rowTo, sigma, scoreGrad, cost));
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            PairTruncation truncation, int[] offsets, float[] scoreGrad, float[] pairLambdas) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> kernels.truncatedLambdasF32(scores,
                labels, gains, discounts, truncation.ranks(), truncation.level(), truncation.scoreDistance(), from, m,
                rowFrom, rowTo, sigma, scoreGrad, pairLambdas));
    }

    @Override
    public String toString() {
        return "cpu(" + kernels.name() + ")";
    }
}
