package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class FeatureMomentsTest {

    @Test
    void mergedPartsFitWhatStandardizationFitFits() {
        Dataset data = CubicData.create(12, 3).sample("train", 60, 15, 4);
        Normalization.Standardization expected = Normalization.Standardization.fit(data);
        for (int parts : new int[] {1, 2, 7}) {
            FeatureMoments all = FeatureMoments.empty(12);
            List<Query> qs = data.queries();
            for (int p = 0; p < parts; p++) {
                FeatureMoments part = FeatureMoments.empty(12);
                for (int i = p * qs.size() / parts; i < (p + 1) * qs.size() / parts; i++) {
                    part.add(qs.get(i));
                }
                all.merge(part);
            }
            assertEquals(data.documents(), all.documents());
            Normalization.Standardization got = all.standardization();
            // Equal float32 statistics: the float64 sums differ from fit's by rounding far below
            // float32's resolution, so both round to the same floats on this data.
            assertArrayEquals(expected.mean(), got.mean(), parts + " parts");
            assertArrayEquals(expected.std(), got.std(), parts + " parts");
        }
    }

    @Test
    void aSmallSpreadAroundALargeMeanIsKeptAndAConstantFeatureHasNone() {
        // Deviations of +-1 around 1e7 (float32 spacing 1 there): the update works with the
        // deviations, so nothing of them is lost to the size of the mean.
        float[] x = {1e7f, 5, 1e7f + 2, 5, 1e7f, 5, 1e7f + 2, 5};
        Query q = new Query("q", 2, x, new float[] {0, 1, 0, 1});
        Normalization.Standardization s = FeatureMoments.empty(2).add(q).standardization();
        assertEquals(1e7f + 1, s.mean()[0]);
        assertEquals(1f, s.std()[0]);
        assertEquals(5f, s.mean()[1]);
        assertEquals(0f, s.std()[1]);
    }
}
