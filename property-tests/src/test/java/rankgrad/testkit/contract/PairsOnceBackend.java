package rankgrad.testkit.contract;

import rankgrad.ltr.pairwise.BackwardType;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;

/**
 * A test-only backend registered through {@code META-INF/services} under the name "pairs-once":
 * the scalar reference, except that the RankNet / LambdaRank pair terms are computed its own way,
 * visiting each unordered pair once in float64 and adding the lambda to one document and
 * subtracting it from the other (Burges's equal and opposite forces), then rounding once. A
 * different algorithm, order and precision from the row kernels, which the contract must accept.
 */
public final class PairsOnceBackend implements PairwiseBackend {
    private final PairwiseBackend reference = PairwiseBackends.reference();

    /** For {@link java.util.ServiceLoader}. */
    public PairsOnceBackend() {
    }

    @Override
    public String name() {
        return "pairs-once";
    }

    @Override
    public void approxRanksF32(float[] scores, int[] offsets, float alpha, float[] ranks) {
        reference.approxRanksF32(scores, offsets, alpha, ranks);
    }

    @Override
    public void rankGradientF32(BackwardType type, float alpha, float[] scores, float[] labels, int[] offsets,
            float[] rankGrad, float[] scoreGrad) {
        reference.rankGradientF32(type, alpha, scores, labels, offsets, rankGrad, scoreGrad);
    }

    @Override
    public void hingeRanksF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] ranks) {
        reference.hingeRanksF32(alpha, scores, labels, offsets, ranks);
    }

    @Override
    public void hingeRankGradientF32(float alpha, float[] scores, float[] labels, int[] offsets, float[] rankGrad,
            float[] scoreGrad) {
        reference.hingeRankGradientF32(alpha, scores, labels, offsets, rankGrad, scoreGrad);
    }

    @Override
    public void logisticPairsF32(float sigma, float[] scores, float[] labels, float[] gains, float[] discounts,
            int[] offsets, float[] scoreGrad, float[] cost) {
        for (int q = 0; q + 1 < offsets.length; q++) {
            int from = offsets[q];
            int m = offsets[q + 1] - from;
            double[] grad = new double[m];
            double[] c = new double[m];
            for (int i = 0; i < m; i++) {
                for (int j = i + 1; j < m; j++) {
                    if (labels[from + i] == labels[from + j]) {
                        continue;
                    }
                    int hi = labels[from + i] > labels[from + j] ? i : j;
                    int lo = hi == i ? j : i;
                    double w = gains == null ? 1 : Math.abs((double) gains[from + hi] - gains[from + lo])
                            * Math.abs((double) discounts[from + hi] - discounts[from + lo]);
                    double z = sigma * ((double) scores[from + hi] - scores[from + lo]);
                    // w sigma_s sigma(-z), and log(1 + e^{-z}), both without overflow.
                    double e = Math.exp(-Math.abs(z));
                    double lambda = w * sigma * (z >= 0 ? e / (1 + e) : 1 / (1 + e));
                    grad[hi] -= lambda;
                    grad[lo] += lambda;
                    c[hi] += w * (Math.max(-z, 0) + Math.log1p(e));
                }
            }
            for (int i = 0; i < m; i++) {
                scoreGrad[from + i] = (float) grad[i];
                cost[from + i] = (float) c[i];
            }
        }
    }
}
