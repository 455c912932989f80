package rankgrad.ltr.data;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How feature values are normalized before they reach the model. The choice (and for
 * {@link Standardization}, its fitted statistics) is stored in the model file and applied again
 * by prediction, so scores never depend on the caller remembering to normalize.
 */
public sealed interface Normalization {

    /** The names {@link #byName} accepts, as {@link #kind()} spells them. */
    static List<String> names() {
        return List.of("query-zscore", "standardize", "none");
    }

    /**
     * The normalization called {@code name} ({@link #names()}); {@code standardize} is fitted on
     * {@code train} here, the others need no statistics.
     *
     * @throws IllegalArgumentException naming the choices, for an unknown name
     */
    static Normalization byName(String name, Dataset train) {
        return switch (name) {
            case "query-zscore" -> new QueryZScore();
            case "standardize" -> Standardization.fit(train);
            case "none" -> new None();
            default -> throw new IllegalArgumentException("unknown normalization '" + name + "'; choose one of "
                    + String.join(", ", names()));
        };
    }

    /** Normalizes one query's features (a new query; the input is not changed). */
    Query apply(Query q);

    /** The name used in model files and on the command line. */
    String kind();

    /** Normalizes every query of a dataset. */
    default Dataset apply(Dataset data) {
        List<Query> out = new ArrayList<>(data.size());
        for (Query q : data.queries()) {
            out.add(apply(q));
        }
        return new Dataset(data.name(), data.features(), out);
    }

    /** Features as they are. */
    record None() implements Normalization {
        @Override
        public Query apply(Query q) {
            return q;
        }

        @Override
        public String kind() {
            return "none";
        }
    }

    /**
     * Query-level z-score (Yu Sec. 6.2): per query and feature, x' = (x - mean_q) / std_q with the
     * population standard deviation over the query's documents; a feature constant within the
     * query becomes 0. Needs no stored statistics, but a serving system must see the whole
     * query's documents at once (Solr cannot, see the Solr export).
     */
    record QueryZScore() implements Normalization {
        @Override
        public Query apply(Query q) {
            int m = q.docs();
            int d = q.features();
            float[] x = q.x();
            float[] out = new float[x.length];
            for (int f = 0; f < d; f++) {
                double mean = 0;
                for (int i = 0; i < m; i++) {
                    mean += x[i * d + f];
                }
                mean /= Math.max(1, m);
                double var = 0;
                for (int i = 0; i < m; i++) {
                    double c = x[i * d + f] - mean;
                    var += c * c;
                }
                double std = Math.sqrt(var / Math.max(1, m));
                for (int i = 0; i < m; i++) {
                    out[i * d + f] = std > 0 ? (float) ((x[i * d + f] - mean) / std) : 0f;
                }
            }
            return q.withX(out);
        }

        @Override
        public String kind() {
            return "query-zscore";
        }
    }

    /**
     * Global standardization x' = (x - mean_f) / std_f with statistics fitted on training data
     * ({@link #fit}); a feature constant in the training data (std 0) becomes 0.
     *
     * @param mean per-feature mean
     * @param std per-feature population standard deviation
     */
    record Standardization(float[] mean, float[] std) implements Normalization {

        public Standardization {
            if (mean.length != std.length) {
                throw new IllegalArgumentException("mean has " + mean.length + " features, std " + std.length);
            }
            mean = mean.clone();
            std = std.clone();
            for (int f = 0; f < std.length; f++) {
                if (!Float.isFinite(mean[f]) || !Float.isFinite(std[f]) || std[f] < 0) {
                    throw new IllegalArgumentException("feature " + (f + 1) + ": mean " + mean[f] + ", std " + std[f]
                            + " are not a finite mean and std >= 0");
                }
            }
        }

        /** Fits mean and standard deviation per feature over all documents of {@code data}. */
        public static Standardization fit(Dataset data) {
            int d = data.features();
            double[] sum = new double[d];
            double[] sq = new double[d];
            long n = data.documents();
            for (Query q : data.queries()) {
                float[] x = q.x();
                for (int i = 0; i < x.length; i++) {
                    sum[i % d] += x[i];
                }
            }
            float[] mean = new float[d];
            for (int f = 0; f < d; f++) {
                mean[f] = (float) (sum[f] / Math.max(1, n));
            }
            for (Query q : data.queries()) {
                float[] x = q.x();
                for (int i = 0; i < x.length; i++) {
                    double c = x[i] - (double) mean[i % d];
                    sq[i % d] += c * c;
                }
            }
            float[] std = new float[d];
            for (int f = 0; f < d; f++) {
                std[f] = (float) Math.sqrt(sq[f] / Math.max(1, n));
            }
            return new Standardization(mean, std);
        }

        @Override
        public Query apply(Query q) {
            int d = q.features();
            if (d != mean.length) {
                throw new IllegalArgumentException("query " + q.qid() + " has " + d + " features, the standardization was fitted on "
                        + mean.length);
            }
            float[] x = q.x();
            float[] out = new float[x.length];
            for (int i = 0; i < x.length; i++) {
                int f = i % d;
                out[i] = std[f] > 0 ? (x[i] - mean[f]) / std[f] : 0f;
            }
            return q.withX(out);
        }

        @Override
        public String kind() {
            return "standardize";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Standardization s && Arrays.equals(mean, s.mean) && Arrays.equals(std, s.std);
        }

        @Override
        public int hashCode() {
            return 31 * Arrays.hashCode(mean) + Arrays.hashCode(std);
        }

        @Override
        public String toString() {
            return "Standardization[" + mean.length + " features]";
        }
    }
}
