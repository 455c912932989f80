package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class FeatureTransformTest {
    private static final FeatureTransform T = FeatureTransform.SIGNED_LOG1P;

    @Test
    void valuesAtZeroNegativesAndLargeMagnitudes() {
        assertEquals(Float.floatToRawIntBits(0f), Float.floatToRawIntBits(T.apply(0f)));
        assertEquals(Float.floatToRawIntBits(-0f), Float.floatToRawIntBits(T.apply(-0f)), "-0 stays -0");
        assertEquals((float) Math.log(2), T.apply(1f), 0f);
        assertEquals((float) -Math.log(2), T.apply(-1f), 0f);
        assertEquals((float) -Math.log(1001), T.apply(-1000f), 0f);
        // Near 0 log1p keeps the digits ln(1 + x) loses: x - x^2/2 to float precision.
        assertEquals(1e-10f, T.apply(1e-10f), 0f);
        assertEquals((float) Math.log1p(Float.MAX_VALUE), T.apply(Float.MAX_VALUE), 0f);
        assertTrue(Float.isFinite(T.apply(-Float.MAX_VALUE)));
    }

    @Test
    void appliesToEveryFeatureOfEveryQueryAndKeepsLabels() {
        Dataset d = new Dataset("d", 2, List.of(new Query("q1", 2, new float[] {0f, -3f, 7f, 1f}, new float[] {1, 0})));
        Dataset t = T.apply(d);
        assertArrayEquals(new float[] {0f, T.apply(-3f), T.apply(7f), T.apply(1f)}, t.queries().get(0).x(), 0f);
        assertArrayEquals(new float[] {1, 0}, t.queries().get(0).labels(), 0f);
        assertArrayEquals(new float[] {0f, -3f, 7f, 1f}, d.queries().get(0).x(), 0f, "the input is not changed");
        assertSame(d, FeatureTransform.NONE.apply(d));
    }

    @Test
    void namesRoundTripAndUnknownNamesListTheChoices() {
        for (FeatureTransform f : FeatureTransform.values()) {
            assertSame(f, FeatureTransform.byName(f.kind()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FeatureTransform.byName("log"));
        assertEquals("unknown feature transform 'log'; choose one of none, signed-log1p", e.getMessage());
    }
}
