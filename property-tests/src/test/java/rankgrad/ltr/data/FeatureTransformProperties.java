package rankgrad.ltr.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.floats;

import org.junit.jupiter.api.Test;

/** Laws of the signed log1p transform x' = sign(x) ln(1 + |x|) on every finite float32. */
class FeatureTransformProperties {
    private static final FeatureTransform T = FeatureTransform.SIGNED_LOG1P;

    @Test
    void isOdd() {
        qt().withExamples(2000).forAll(floats().any()).assuming(Float::isFinite).checkAssert(x ->
                assertEquals(-T.apply(x), T.apply(-x), 0f, "x = " + x));
    }

    @Test
    void isMonotoneAndKeepsTheSign() {
        qt().withExamples(2000).forAll(floats().any(), floats().any()).assuming((a, b) -> Float.isFinite(a) && Float.isFinite(b))
                .checkAssert((a, b) -> {
                    float lo = Math.min(a, b);
                    float hi = Math.max(a, b);
                    assertTrue(T.apply(lo) <= T.apply(hi), lo + " <= " + hi);
                    assertEquals(Math.signum(a), Math.signum(T.apply(a)), 0f, "sign of " + a);
                });
    }

    @Test
    void isTheCorrectlyRoundedLog1pOfTheMagnitude() {
        // One float32 rounding of the float64 log1p (itself within 1 ulp of double): the result is
        // within one float32 ulp of the exact value; checked by inverting with expm1 in float64.
        qt().withExamples(2000).forAll(floats().any()).assuming(Float::isFinite).checkAssert(x -> {
            float y = T.apply(x);
            assertEquals((float) Math.copySign(Math.log1p(Math.abs((double) x)), x), y, 0f);
            double back = Math.copySign(Math.expm1(Math.abs((double) y)), y);
            // |d expm1(y)/dy| = 1 + |x|: an error of one float32 ulp of y grows by that factor.
            assertEquals(x, back, (1 + Math.abs((double) x)) * Math.ulp(y) + Math.ulp(x), "x = " + x);
        });
    }

    @Test
    void noneIsTheIdentity() {
        qt().withExamples(500).forAll(floats().any()).checkAssert(x ->
                assertEquals(Float.floatToRawIntBits(x), Float.floatToRawIntBits(FeatureTransform.NONE.apply(x))));
    }
}
