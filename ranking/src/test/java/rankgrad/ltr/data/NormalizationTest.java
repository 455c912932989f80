package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NormalizationTest {

    @Test
    void queryZScoreUsesEachQuerysOwnStatisticsAndZeroForConstantFeatures() {
        // Feature 1: 1, 2, 3 (mean 2, population std sqrt(2/3)); feature 2 constant.
        Query q = new Query("q", 2, new float[] {1, 5, 2, 5, 3, 5}, new float[] {0, 1, 2});
        float[] z = new Normalization.QueryZScore().apply(q).x();
        float s = (float) (1 / Math.sqrt(2.0 / 3));
        // float32 rounding of (x - mean) / std: a few ulps of values near 1.2.
        assertArrayEquals(new float[] {-s, 0, 0, 0, s, 0}, z, 1e-6f);
    }

    @Test
    void standardizationIsFittedOnTrainingDataAndApplied() {
        Dataset train = new Dataset("t", 2, List.of(
                new Query("1", 2, new float[] {0, 7, 2, 7}, new float[] {0, 1}),
                new Query("2", 2, new float[] {4, 7}, new float[] {1})));
        Normalization.Standardization st = Normalization.Standardization.fit(train);
        assertArrayEquals(new float[] {2, 7}, st.mean());
        assertArrayEquals(new float[] {(float) Math.sqrt(8.0 / 3), 0}, st.std());
        Query other = new Query("x", 2, new float[] {2 + st.std()[0], 9}, new float[] {0});
        // (x - mean) / std = 1 up to one float32 rounding; constant feature -> 0.
        assertArrayEquals(new float[] {1, 0}, st.apply(other).x(), 1e-6f);
        assertEquals("standardize", st.kind());
    }

    @Test
    void everyNameIsFoundAndStandardizeIsFittedOnTheTrainingData() {
        Dataset train = new Dataset("t", 1, List.of(new Query("1", 1, new float[] {1, 3}, new float[] {0, 1})));
        for (String name : Normalization.names()) {
            assertEquals(name, Normalization.byName(name, train).kind());
        }
        assertEquals(new Normalization.Standardization(new float[] {2}, new float[] {1}),
                Normalization.byName("standardize", train));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Normalization.byName("zscore", train));
        assertEquals("unknown normalization 'zscore'; choose one of query-zscore, standardize, none", e.getMessage());
    }
}
