package rankgrad.ltr.data;

import java.io.Serializable;

/**
 * Per-feature count, mean and sum of squared deviations of documents, in one pass and mergeable:
 * statistics of parts of a data set (Spark partitions, files) merge into those of the whole, which
 * is how a global {@link Normalization.Standardization} is fitted where the data do not fit one
 * machine. Chan, Golub and LeVeque's pairwise update (1979), in float64: adding a value x to
 * (n, mean, M2) and merging two parts A and B,
 * <pre>
 *   delta = x - mean,  mean += delta / (n + 1),  M2 += delta (x - mean)
 *   delta = mean_B - mean_A,  n = n_A + n_B,  mean = mean_A + delta n_B / n,
 *   M2 = M2_A + M2_B + delta^2 n_A n_B / n
 * </pre>
 * {@link #standardization()} rounds the mean to float32 and, as {@link
 * Normalization.Standardization#fit} does, measures the spread around that rounded mean: M2 + n
 * (mean - float(mean))^2. The float32 statistics then equal {@code fit}'s except where a float64
 * result lies within float64 rounding (about 1e-16 relative, times the data's condition) of a
 * float32 rounding boundary: fit sums in document order, this in another association.
 *
 * <p>Not thread-safe; one instance per task, merged afterwards (in a fixed order for bit-equal
 * results across runs).
 */
public final class FeatureMoments implements Serializable {
    private static final long serialVersionUID = 1L;
    private long n;
    private final double[] mean;
    private final double[] m2;

    private FeatureMoments(int features) {
        this.mean = new double[features];
        this.m2 = new double[features];
    }

    /** No documents yet, over {@code features} features. */
    public static FeatureMoments empty(int features) {
        return new FeatureMoments(features);
    }

    /** Adds every document of {@code q}. */
    public FeatureMoments add(Query q) {
        int d = mean.length;
        if (q.features() != d) {
            throw new IllegalArgumentException("query " + q.qid() + " has " + q.features() + " features, expected " + d);
        }
        float[] x = q.x();
        for (int doc = 0; doc < q.docs(); doc++) {
            n++;
            for (int f = 0; f < d; f++) {
                double v = x[doc * d + f];
                double delta = v - mean[f];
                mean[f] += delta / n;
                m2[f] += delta * (v - mean[f]);
            }
        }
        return this;
    }

    /** Adds the documents counted by {@code other} (this changes; other does not). */
    public FeatureMoments merge(FeatureMoments other) {
        if (other.mean.length != mean.length) {
            throw new IllegalArgumentException("cannot merge moments of " + other.mean.length + " and " + mean.length
                    + " features");
        }
        if (other.n == 0) {
            return this;
        }
        long total = n + other.n;
        for (int f = 0; f < mean.length; f++) {
            double delta = other.mean[f] - mean[f];
            mean[f] += delta * other.n / total;
            m2[f] += other.m2[f] + delta * delta * ((double) n * other.n / total);
        }
        n = total;
        return this;
    }

    /** The number of documents added. */
    public long documents() {
        return n;
    }

    /** The standardization these moments fit (mean 0 and std 0 without documents, like {@code fit}). */
    public Normalization.Standardization standardization() {
        float[] m = new float[mean.length];
        float[] s = new float[mean.length];
        for (int f = 0; f < mean.length; f++) {
            m[f] = (float) mean[f];
            double shift = mean[f] - m[f];
            s[f] = n == 0 ? 0f : (float) Math.sqrt((m2[f] + n * shift * shift) / n);
        }
        return new Normalization.Standardization(m, s);
    }
}
