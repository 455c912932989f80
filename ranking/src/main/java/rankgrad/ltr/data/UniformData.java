package rankgrad.ltr.data;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Yu et al. 2020's uniform vectors (Sec. 4.2, Tables 2-3) as ranking data: a query is one vector
 * of values uniform in [0, 1), one value per document, stored as the document's first feature.
 * Values have 24 random bits, like {@code torch.rand} in float32, so equal values (ties) occur at
 * the paper's rate. The grade of a document is its value cut at the cubic data's web-like label
 * mix: grade g when the value lies in [q_g, q_{g+1}) with q = (0, 0.5, 0.8, 0.94, 0.985, 1), so
 * ranking by the first feature is ideal (NDCG = 1). Further features, if asked for, are
 * independent uniform values that carry no signal.
 *
 * <p>Thread-safety: stateless; every call draws from its own seed.
 */
public final class UniformData {
    private UniformData() {
    }

    /** One value uniform in [0, 1) with 24 random bits (exactly representable as a float). */
    public static float value(SplittableRandom rng) {
        return rng.nextInt(1 << 24) * 0x1.0p-24f;
    }

    /** {@code queries} vectors of {@code docs} values each, with {@code features - 1} noise features. */
    public static Dataset sample(String name, int queries, int docs, int features, long seed) {
        if (queries < 0 || docs < 1 || features < 1) {
            throw new IllegalArgumentException("need queries >= 0, docs >= 1 and features >= 1, got " + queries + ", "
                    + docs + ", " + features);
        }
        SplittableRandom rng = new SplittableRandom(seed);
        List<Query> out = new ArrayList<>(queries);
        for (int q = 0; q < queries; q++) {
            float[] x = new float[docs * features];
            float[] labels = new float[docs];
            for (int d = 0; d < docs; d++) {
                for (int f = 0; f < features; f++) {
                    x[d * features + f] = value(rng);
                }
                labels[d] = grade(x[d * features]);
            }
            out.add(new Query(Integer.toString(q + 1), features, x, labels));
        }
        return new Dataset(name, features, out);
    }

    private static float grade(float v) {
        int g = 0;
        while (g < CubicData.CUMULATIVE.length && v >= CubicData.CUMULATIVE[g]) {
            g++;
        }
        return g;
    }
}
