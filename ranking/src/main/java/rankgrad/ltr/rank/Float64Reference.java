package rankgrad.ltr.rank;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.Ranking;
import rankgrad.ltr.internal.pairwise.ScalarPairKernels;
import rankgrad.ltr.internal.pairwise.WorkPartition;

/**
 * The pairwise work in float64, which only gradient checks use: always the scalar reference
 * kernels, never a {@link rankgrad.ltr.pairwise.PairwiseBackend} (as the engine routes float64
 * GEMM to its scalar reference). Same formulas, layout and conventions as the backend's float32
 * methods; labels stay float32, as in a batch. Rows run in the CPU backend's
 * deterministic tasks, each row summing j in the query's order, so results do not depend on the
 * number of threads. Stateless and thread-safe.
 */
public final class Float64Reference {
    private static final ScalarPairKernels KERNELS = ScalarPairKernels.INSTANCE;

    private Float64Reference() {
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#approxRanksF32} in float64. */
    public static void approxRanks(double[] scores, int[] offsets, double alpha, double[] ranks) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                KERNELS.approxRanksF64(scores, from, m, rowFrom, rowTo, alpha, ranks));
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#rankGradientF32} in float64. */
    public static void rankGradient(BackwardType type, double alpha, double[] scores, float[] labels, int[] offsets,
            double[] rankGrad, double[] scoreGrad) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                KERNELS.rankGradientF64(type, scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#hingeRanksF32} in float64. */
    public static void hingeRanks(double alpha, double[] scores, float[] labels, int[] offsets, double[] ranks) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                KERNELS.hingeRanksF64(scores, labels, from, m, rowFrom, rowTo, alpha, ranks));
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#hingeRankGradientF32} in float64. */
    public static void hingeRankGradient(double alpha, double[] scores, float[] labels, int[] offsets,
            double[] rankGrad, double[] scoreGrad) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) ->
                KERNELS.hingeRankGradientF64(scores, labels, rankGrad, from, m, rowFrom, rowTo, alpha, scoreGrad));
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#logisticPairsF32} in float64 ({@code gains == null}: RankNet). */
    public static void logisticPairs(double sigma, double[] scores, float[] labels, double[] gains,
            double[] discounts, int[] offsets, double[] scoreGrad, double[] cost) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> KERNELS.logisticPairsF64(scores,
                labels, gains, discounts, from, m, rowFrom, rowTo, sigma, scoreGrad, cost));
    }

    /**
     * LightGBM's LambdaRank pair terms ({@link rankgrad.ltr.pairwise.PairwiseBackend#logisticPairsF32(float,
     * float[], float[], float[], float[], rankgrad.ltr.pairwise.PairTruncation, int[], float[], float[])})
     * in float64, with float64 positions {@code ranks}.
     */
    public static void truncatedLambdas(double sigma, double[] scores, float[] labels, double[] gains,
            double[] discounts, double[] ranks, int level, boolean scoreDistance, int[] offsets, double[] scoreGrad,
            double[] pairLambdas) {
        WorkPartition.forEachRowSegment(offsets, (from, m, rowFrom, rowTo) -> KERNELS.truncatedLambdasF64(scores,
                labels, gains, discounts, ranks, level, scoreDistance, from, m, rowFrom, rowTo, sigma, scoreGrad,
                pairLambdas));
    }

    /** {@link rankgrad.ltr.pairwise.PairwiseBackend#exactRanksF32} for float64 scores (one sort per query). */
    public static void exactRanks(double[] scores, int[] offsets, int[] tieKeys, double[] ranks) {
        Ranking.exactRanks(scores, offsets, 0, offsets.length - 1, tieKeys, ranks);
    }
}
