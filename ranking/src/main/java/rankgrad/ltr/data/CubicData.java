package rankgrad.ltr.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Burges' random cubic polynomial data (Burges et al. 2006, Sec. 6.3.1, following RankNet's
 * prescription): documents are points x uniform in [-1, 1]^d, their true relevance is a random
 * cubic polynomial
 * <pre>
 *   f(x) = sum_i a_i x_i + sum_{(i,j)} b_ij x_i x_j + sum_{(i,j,k)} c_ijk x_i x_j x_k
 * </pre>
 * (d linear terms, d random quadratic and d random cubic terms, coefficients N(0, 1)), and the
 * grade 0..4 of a document is f(x) + o_q cut at fixed thresholds, where o_q ~ N(0, (0.75 sd f)^2)
 * is a per-query offset. The thresholds are quantiles giving a web-like label mix (50% grade 0,
 * 30% 1, 14% 2, 4.5% 3, 1.5% 4); the offset makes some queries have no relevant document, and
 * never changes the order within a query, so ranking by f is ideal (NDCG = 1).
 *
 * <p>One generator is one polynomial: draw train, validation and test sets from the same
 * generator with different sample seeds.
 */
public final class CubicData {
    /** Cumulative label proportions at the four thresholds (grades 0, 1, 2, 3 below them). */
    static final double[] CUMULATIVE = {0.50, 0.80, 0.94, 0.985};
    private static final double OFFSET_SD = 0.75;

    private final int features;
    private final double[] linear;
    private final int[][] quadratic;
    private final double[] quadraticCoef;
    private final int[][] cubic;
    private final double[] cubicCoef;
    private final double fStd;
    private final double[] thresholds;

    private CubicData(int features, long seed) {
        this.features = features;
        SplittableRandom rng = new SplittableRandom(seed);
        linear = new double[features];
        for (int i = 0; i < features; i++) {
            linear[i] = gaussian(rng);
        }
        quadratic = new int[features][];
        quadraticCoef = new double[features];
        cubic = new int[features][];
        cubicCoef = new double[features];
        for (int t = 0; t < features; t++) {
            quadratic[t] = new int[] {rng.nextInt(features), rng.nextInt(features)};
            quadraticCoef[t] = gaussian(rng);
            cubic[t] = new int[] {rng.nextInt(features), rng.nextInt(features), rng.nextInt(features)};
            cubicCoef[t] = gaussian(rng);
        }
        // Calibrate spread and thresholds on a large sample of the same distribution.
        int n = 50_000;
        double[] f = new double[n];
        double[] x = new double[features];
        double sum = 0;
        double sq = 0;
        for (int i = 0; i < n; i++) {
            point(rng, x);
            f[i] = value(x);
            sum += f[i];
            sq += f[i] * f[i];
        }
        double mean = sum / n;
        fStd = Math.sqrt(Math.max(1e-12, sq / n - mean * mean));
        double[] shifted = new double[n];
        for (int i = 0; i < n; i++) {
            shifted[i] = f[i] + OFFSET_SD * fStd * gaussian(rng);
        }
        Arrays.sort(shifted);
        thresholds = new double[CUMULATIVE.length];
        for (int t = 0; t < thresholds.length; t++) {
            thresholds[t] = shifted[(int) (CUMULATIVE[t] * n)];
        }
    }

    /** A generator for a random cubic polynomial over {@code features} features. */
    public static CubicData create(int features, long seed) {
        if (features < 1) {
            throw new IllegalArgumentException("features must be >= 1, got " + features);
        }
        return new CubicData(features, seed);
    }

    /** The paper's setting: 50 features. */
    public static CubicData paper(long seed) {
        return create(50, seed);
    }

    /** The true relevance score f(x) of a document. */
    public double value(double[] x) {
        double f = 0;
        for (int i = 0; i < features; i++) {
            f += linear[i] * x[i];
        }
        for (int t = 0; t < features; t++) {
            f += quadraticCoef[t] * x[quadratic[t][0]] * x[quadratic[t][1]];
            f += cubicCoef[t] * x[cubic[t][0]] * x[cubic[t][1]] * x[cubic[t][2]];
        }
        return f;
    }

    /** {@code queries} queries of {@code docs} documents each, named "{name}", from its own seed. */
    public Dataset sample(String name, int queries, int docs, long sampleSeed) {
        SplittableRandom rng = new SplittableRandom(sampleSeed);
        List<Query> out = new ArrayList<>(queries);
        double[] x = new double[features];
        for (int q = 0; q < queries; q++) {
            double offset = OFFSET_SD * fStd * gaussian(rng);
            float[] fx = new float[docs * features];
            float[] labels = new float[docs];
            for (int d = 0; d < docs; d++) {
                point(rng, x);
                for (int i = 0; i < features; i++) {
                    fx[d * features + i] = (float) x[i];
                }
                labels[d] = grade(value(x) + offset);
            }
            out.add(new Query(Integer.toString(q + 1), features, fx, labels));
        }
        return new Dataset(name, features, out);
    }

    private float grade(double v) {
        int g = 0;
        while (g < thresholds.length && v >= thresholds[g]) {
            g++;
        }
        return g;
    }

    private void point(SplittableRandom rng, double[] x) {
        for (int i = 0; i < features; i++) {
            x[i] = rng.nextDouble(-1.0, 1.0);
        }
    }

    private static double gaussian(SplittableRandom rng) {
        // Box-Muller from two uniforms: reproducible across JDKs (nextGaussian's algorithm may change).
        double u = rng.nextDouble();
        double v = rng.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u)) * Math.cos(2 * Math.PI * v);
    }
}
