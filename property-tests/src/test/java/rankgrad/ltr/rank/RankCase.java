package rankgrad.ltr.rank;

import java.util.Arrays;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.QueryBatch;

/**
 * A ragged batch drawn for a property: per-query labels and scores (float32-representable values,
 * so the float32 and float64 paths see the same numbers) and a tie-break seed.
 */
record RankCase(float[][] labels, double[][] scores, long seed) {

    QueryBatch batch() {
        return QueryBatch.of(labels);
    }

    int queries() {
        return labels.length;
    }

    double[] flatScores() {
        return Arrays.stream(scores).flatMapToDouble(Arrays::stream).toArray();
    }

    Tensor tensor(boolean f32) {
        double[] flat = flatScores();
        if (!f32) {
            return Tensor.of(flat, flat.length);
        }
        float[] f = new float[flat.length];
        for (int i = 0; i < f.length; i++) {
            f[i] = (float) flat[i];
        }
        return Tensor.of(f, f.length);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("RankCase[seed=").append(seed);
        for (int q = 0; q < labels.length; q++) {
            sb.append(", q").append(q).append(": labels=").append(Arrays.toString(labels[q]))
                    .append(" scores=").append(Arrays.toString(scores[q]));
        }
        return sb.append(']').toString();
    }
}
