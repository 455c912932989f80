package rankgrad.spark;

import java.util.List;
import org.apache.spark.sql.Dataset;
import rankgrad.ltr.data.FeatureMoments;
import rankgrad.ltr.data.Normalization;
import rankgrad.ltr.data.Query;

/**
 * Fits the global {@link Normalization.Standardization} of a whole-query frame in one pass: one
 * {@link FeatureMoments} per partition, merged on the driver in partition order. Equal to {@code
 * Standardization.fit} on the collected data up to float64 rounding (see {@link FeatureMoments}),
 * and bit-identical across runs over the same partitioning.
 */
public final class GlobalStandardization {
    private GlobalStandardization() {
    }

    /** The standardization of every document of {@code frame}, whose queries have {@code width} features. */
    public static Normalization.Standardization fit(Dataset<QueryRow> frame, int width) {
        List<FeatureMoments> parts = frame.toJavaRDD().mapPartitions(rows -> {
            FeatureMoments m = FeatureMoments.empty(width);
            while (rows.hasNext()) {
                QueryRow r = rows.next();
                m.add(new Query(r.getQid(), r.getWidth(), r.getFeatures(), r.getLabels()));
            }
            return List.of(m).iterator();
        }).collect();
        FeatureMoments all = FeatureMoments.empty(width);
        parts.forEach(all::merge);
        return all.standardization();
    }
}
