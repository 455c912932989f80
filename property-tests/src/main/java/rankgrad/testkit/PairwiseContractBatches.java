package rankgrad.testkit;

import org.quicktheories.core.Gen;
import org.quicktheories.core.RandomnessSource;
import org.quicktheories.impl.Constraint;
import rankgrad.testkit.PairwiseBackendContract.Batch;

/**
 * Generators of the ragged batches {@link PairwiseBackendContract} runs its laws on. Every value is
 * drawn from the QuickTheories randomness source, so a failing batch shrinks (fewer queries,
 * fewer documents, smaller scores, labels and parameters) to a small counterexample.
 */
final class PairwiseContractBatches {
    /** Sigmoid steepness alpha of the rank kernels and sigma_s of the logistic pairs. */
    private static final float[] ALPHAS = {1f, 0.5f, 2f, 10f};
    /** Grid steps of the scores: coarse (many ties), fine, and far apart. */
    private static final double[] STEPS = {0.125, 0x1.0p-12, 1e4};
    /** Scores of the extreme batches: far beyond any sigmoid's range, and both zeros. */
    private static final float[] EXTREMES = {1e30f, -1e30f, 1e4f, -1e4f, 2e4f, 0f, -0f, 1e-30f};

    private PairwiseContractBatches() {
    }

    /** 1 to 4 queries of 1 to {@code maxM} documents each. */
    static Gen<Batch> ragged(int maxM) {
        return in -> batch(in, (int) in.next(Constraint.between(1, 4)), 1, maxM, false);
    }

    /** One query of {@code minM} to {@code maxM} documents, then one of 1 to 8. */
    static Gen<Batch> large(int minM, int maxM) {
        return in -> {
            int m = (int) in.next(Constraint.between(minM, maxM).withShrinkPoint(minM));
            return batch(in, 2, m, m, false, (int) in.next(Constraint.between(1, 8)));
        };
    }

    /** 1 to 3 queries of 1 to {@code maxM} documents whose scores are +-1e30, +-1e4, 2e4, +-0 or 1e-30. */
    static Gen<Batch> extreme(int maxM) {
        return in -> batch(in, (int) in.next(Constraint.between(1, 3)), 1, maxM, true);
    }

    private static Batch batch(RandomnessSource in, int queries, int minM, int maxM, boolean extreme) {
        return batch(in, queries, minM, maxM, extreme, -1);
    }

    /** {@code lastM} >= 0 fixes the size of the last query. */
    private static Batch batch(RandomnessSource in, int queries, int minM, int maxM, boolean extreme, int lastM) {
        int[] offsets = new int[queries + 1];
        for (int q = 0; q < queries; q++) {
            int m = q == queries - 1 && lastM >= 0 ? lastM : (int) in.next(Constraint.between(minM, maxM));
            offsets[q + 1] = offsets[q] + m;
        }
        int n = offsets[queries];
        float[] scores = new float[n];
        float[] labels = new float[n];
        int[] tieKeys = new int[n];
        float[] rankGrad = new float[n];
        float[] gains = new float[n];
        float[] discounts = new float[n];
        for (int q = 0; q < queries; q++) {
            double step = STEPS[(int) in.next(Constraint.between(0, STEPS.length - 1))];
            int levels = (int) in.next(Constraint.between(1, 200));
            // maxLabel 0: a query without relevant documents (every pair tied in label).
            int maxLabel = (int) in.next(Constraint.between(0, 4));
            for (int i = offsets[q]; i < offsets[q + 1]; i++) {
                int kind = (int) in.next(Constraint.between(0, 9));
                if (extreme) {
                    scores[i] = EXTREMES[(int) in.next(Constraint.between(0, EXTREMES.length - 1))];
                } else {
                    scores[i] = switch (kind) {
                        case 0 -> 0f;
                        case 1 -> -0f;
                        default -> (float) (in.next(Constraint.between(-levels, levels)) * step);
                    };
                }
                labels[i] = in.next(Constraint.between(0, maxLabel));
                rankGrad[i] = (float) (in.next(Constraint.between(-(1 << 16), 1 << 16)) * 0x1.0p-16);
                gains[i] = (float) (Math.pow(2, labels[i]) - 1);
            }
            // Tie keys: a permutation of 0..m-1 (Fisher-Yates); discounts 1 / log2(1 + position)
            // of another one, as LambdaRank's are for the current ranking.
            permutation(in, tieKeys, offsets[q], offsets[q + 1]);
            int[] positions = new int[offsets[q + 1] - offsets[q]];
            permutation(in, positions, 0, positions.length);
            for (int i = 0; i < positions.length; i++) {
                discounts[offsets[q] + i] = (float) (Math.log(2) / Math.log(2 + positions[i]));
            }
        }
        float alpha = ALPHAS[(int) in.next(Constraint.between(0, ALPHAS.length - 1))];
        float sigma = ALPHAS[(int) in.next(Constraint.between(0, ALPHAS.length - 1))];
        return new Batch(scores, labels, offsets, tieKeys, rankGrad, gains, discounts, alpha, sigma);
    }

    private static void permutation(RandomnessSource in, int[] out, int from, int to) {
        for (int i = from; i < to; i++) {
            out[i] = i - from;
        }
        for (int i = to - 1; i > from; i--) {
            int j = from + (int) in.next(Constraint.between(0, i - from));
            int t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    }
}
