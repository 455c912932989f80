package rankgrad.tornado;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A random ragged batch for the tests: query sizes drawn from {@code sizes} (0 and 1 included
 * where given), scores with ties and both signed zeros, graded labels 0..4, gains 2^y - 1 and
 * discounts 1 / log2(1 + position), and a random upstream gradient.
 */
record RaggedBatch(int[] offsets, float[] scores, float[] labels, float[] gains, float[] discounts, float[] upstream) {

    static RaggedBatch random(long seed, int[] sizes, int queries) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] offsets = new int[queries + 1];
        for (int q = 0; q < queries; q++) {
            offsets[q + 1] = offsets[q] + sizes[rnd.nextInt(sizes.length)];
        }
        int n = offsets[queries];
        float[] scores = new float[n];
        float[] labels = new float[n];
        float[] gains = new float[n];
        float[] discounts = new float[n];
        float[] upstream = new float[n];
        for (int i = 0; i < n; i++) {
            int kind = rnd.nextInt(10);
            scores[i] = switch (kind) {
                case 0 -> 0f;
                case 1 -> -0f;
                case 2 -> 1f;
                default -> (float) (rnd.nextGaussian() * 2);
            };
            labels[i] = rnd.nextInt(5);
            gains[i] = (float) (Math.pow(2, labels[i]) - 1);
            upstream[i] = (float) rnd.nextGaussian();
        }
        for (int q = 0; q < queries; q++) {
            for (int p = 0; p < offsets[q + 1] - offsets[q]; p++) {
                discounts[offsets[q] + p] = (float) (1 / (Math.log(2 + p) / Math.log(2)));
            }
        }
        return new RaggedBatch(offsets, scores, labels, gains, discounts, upstream);
    }

    /** One query of {@code m} documents (scores spread over [-3, 3], labels 0..4). */
    static RaggedBatch single(long seed, int m) {
        return random(seed, new int[] {m}, 1);
    }

    /** B queries of exactly m documents. */
    static RaggedBatch uniform(long seed, int queries, int m) {
        return random(seed, new int[] {m}, queries);
    }

    int docs() {
        return offsets[offsets.length - 1];
    }

    float[] newOutput() {
        float[] out = new float[docs()];
        Arrays.fill(out, Float.NaN);
        return out;
    }
}
