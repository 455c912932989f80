package rankgrad.ltr.train;

import java.util.SplittableRandom;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.ltr.data.Dataset;

/**
 * Gaussian noise on the normalized training features, a data augmentation (Qin et al., ICLR 2021,
 * DASALC Sec. 3.2: x' = x + N(0, sigma^2 I) elementwise, during training only; validation, test
 * and scoring see the features as they are).
 *
 * <p>Determinism: the noise of query q (its index in the training set) in epoch e is drawn from a
 * {@link SplittableRandom} seeded with a mix of (seed, e, q), row by row, feature by feature. It
 * does not depend on which batch the query falls into, on the thread count, or on whether the run
 * was resumed: a query sees the same noise in the same epoch of any run with the same seed.
 *
 * <pre>{@code
 * Tensor x = train.featureMatrix(batch);
 * InputNoise.add(x, train, batch, seed, epoch, 0.1);
 * }</pre>
 *
 * @param seed the run's seed
 * @param sigma the noise's standard deviation, >= 0 (0: none)
 */
public record InputNoise(long seed, double sigma) {
    /** No noise. */
    public static final InputNoise NONE = new InputNoise(0, 0);

    public InputNoise {
        if (!(sigma >= 0) || !Double.isFinite(sigma)) {
            throw new IllegalArgumentException("the input noise must be finite and >= 0, got " + sigma);
        }
    }

    /** The noise of a run with this seed and sigma. */
    public static InputNoise of(long seed, double sigma) {
        return sigma == 0 ? NONE : new InputNoise(seed, sigma);
    }

    /** {@link #add(Tensor, Dataset, int[], long, int, double)} with this noise's seed and sigma. */
    public void addTo(Tensor features, Dataset data, int[] queryIndices, int epoch) {
        add(features, data, queryIndices, seed, epoch, sigma);
    }

    /**
     * Adds sigma * N(0, 1) to every element of {@code features}, in place: the float32 feature
     * matrix of {@code data}'s queries {@code queryIndices} in that order
     * ({@link Dataset#featureMatrix}). Each sum is rounded once to float32.
     */
    public static void add(Tensor features, Dataset data, int[] queryIndices, long seed, int epoch, double sigma) {
        if (sigma == 0) {
            return;
        }
        if (features.dtype() != DType.F32) {
            throw new IllegalArgumentException("input noise expects float32 features, got " + features.dtype());
        }
        float[] x = features.f32();
        int at = 0;
        for (int q : queryIndices) {
            SplittableRandom rng = new SplittableRandom(mix(seed, epoch, q));
            int n = data.queries().get(q).x().length;
            for (int i = 0; i < n; i++, at++) {
                x[at] = (float) (x[at] + sigma * rng.nextGaussian());
            }
        }
        if (at != x.length) {
            throw new IllegalArgumentException("the feature matrix has " + x.length + " values, the queries " + at);
        }
    }

    /** A seed for (seed, epoch, query): distinct triples give unrelated streams. */
    static long mix(long seed, int epoch, int query) {
        long h = seed * 0x9E3779B97F4A7C15L + 0x7F4A7C159E3779B9L;
        h = (h ^ (h >>> 31)) * 0xBF58476D1CE4E5B9L + epoch;
        h = (h ^ (h >>> 29)) * 0x94D049BB133111EBL + query;
        return h ^ (h >>> 32);
    }
}
