package rankgrad.simd.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.DoubleUnaryOperator;
import java.util.function.UnaryOperator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;
import org.junit.jupiter.api.Test;

/**
 * Accuracy of {@link VectorMath} against {@link Math} on inputs spanning every exponent, the
 * range ends and the special values (the float32 exp, sigmoid and tanh are also checked through
 * the engine's kernels in {@code VectorKernelProperties}). Runs again with 4-lane vectors in the
 * surefire execution vector-128-bit.
 */
class VectorMathTest {

    @Test
    void speciesShareTheShapeAskedFor() {
        assertEquals(VectorSupport.FLOAT.vectorBitSize(), VectorSupport.DOUBLE.vectorBitSize());
        assertEquals(VectorSupport.LANES, 2 * VectorSupport.DOUBLE.length());
        String bits = System.getProperty("rankgrad.vector.bits");
        if (bits != null) {
            assertEquals(Integer.parseInt(bits), VectorSupport.FLOAT.vectorBitSize());
        }
    }

    @Test
    void expF64IsWithinOneUlpOfMathExp() {
        double[] x = spread(-746, 710, new double[] {0.0, -0.0, 709.78, 709.79, -708.4, -744.4, -745.2, 1e-300});
        double[] got = apply64(VectorMath::exp, x);
        for (int i = 0; i < x.length; i++) {
            double want = Math.exp(x[i]);
            // Math.exp is within 1 ulp of e^x; the Taylor polynomial's truncation is below 0.05 ulp
            // and Horner's rounding with FMA about 0.5, so 2 ulps of want bound their difference.
            // For subnormal results the ulp is absolute (MIN_VALUE): both round the same tiny value.
            assertEquals(want, got[i], 2 * Math.ulp(want), "exp(" + x[i] + ")");
        }
        assertSpecials64(VectorMath::exp, Math::exp);
    }

    /**
     * The scalar twin gives every lane's bits: scalar kernels that exponentiate (the attention
     * softmax's reference) rely on it to equal their vector kernels exactly. Inputs cover the clamp
     * ends, overflow, subnormal results, both zeros and the special values; NaN compares as NaN.
     */
    @Test
    void laneMathExpGivesTheBitsOfEveryLane() {
        double[] fixed = {0.0, -0.0, 709.78, 709.79, 710.5, -708.4, -744.4, -745.2, -746.5, 1e-300, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE, Double.MIN_VALUE};
        double[] x = spread(-750, 715, fixed);
        double[] got = apply64(VectorMath::exp, x);
        for (int i = 0; i < x.length; i++) {
            assertEquals(Double.doubleToLongBits(LaneMath.exp(x[i])), Double.doubleToLongBits(got[i]),
                    "exp(" + x[i] + ")");
        }
    }

    @Test
    void sigmoidF64IsWithinFourUlpsOfTheStableLogistic() {
        double[] x = spread(-800, 800, new double[] {0.0, -0.0, 36.8, -36.8, -745.0, 745.0});
        double[] got = apply64(VectorMath::sigmoid, x);
        for (int i = 0; i < x.length; i++) {
            double want = logistic(x[i]);
            // want: Math.exp (1 ulp), one add and one divide (0.5 ulp each); the vector side the
            // same with its exp (2 ulps): 4 ulps between them. Subnormal results: ulp absolute.
            assertEquals(want, got[i], 4 * Math.ulp(want), "sigmoid(" + x[i] + ")");
        }
        assertTrue(apply64(VectorMath::sigmoid, new double[] {-700})[0] > 0, "sigmoid(-700) keeps its tiny value");
        assertSpecials64(VectorMath::sigmoid, VectorMathTest::logistic);
    }

    @Test
    void log1pUnitF32IsWithinThreeUlpsOfMathLog1p() {
        float[] u = unitInterval32();
        float[] got = apply32(VectorMath::log1pUnit, u);
        for (int i = 0; i < u.length; i++) {
            float want = (float) Math.log1p(u[i]);
            // t = f / (2 + f) rounds twice (1 ulp), the series and adding k ln 2 about 1 more:
            // measured at most 2.2 ulps from the truth over 4M inputs; want, Math.log1p rounded
            // to float, is within half an ulp of it.
            assertEquals(want, got[i], 3 * Math.ulp(want), "log1p(" + u[i] + ")");
        }
        assertTrue(Float.isNaN(apply32(VectorMath::log1pUnit, new float[] {Float.NaN})[0]));
    }

    @Test
    void log1pUnitF64IsWithinThreeUlpsOfMathLog1p() {
        float[] u32 = unitInterval32();
        double[] u = new double[u32.length];
        SplittableRandom rnd = new SplittableRandom(7);
        for (int i = 0; i < u.length; i++) {
            // Fill the float's lower bits so the float64 version sees full-precision inputs.
            u[i] = Math.min(1.0, u32[i] * (1 + rnd.nextDouble() * 0x1p-24));
        }
        double[] got = apply64(VectorMath::log1pUnit, u);
        for (int i = 0; i < u.length; i++) {
            double want = Math.log1p(u[i]);
            // Math.log1p is within 1 ulp of the truth, the series about 2 (see the float32 case;
            // measured at most 2.0 ulps from Math.log1p over 4M inputs).
            assertEquals(want, got[i], 3 * Math.ulp(want), "log1p(" + u[i] + ")");
        }
        assertTrue(Double.isNaN(apply64(VectorMath::log1pUnit, new double[] {Double.NaN})[0]));
    }

    /** u in [0, 1]: every float exponent down to the subnormals, both sides of sqrt(2) - 1, and 1. */
    private static float[] unitInterval32() {
        SplittableRandom rnd = new SplittableRandom(3);
        float[] u = new float[20_000];
        float[] fixed = {0f, Float.MIN_VALUE, Float.MIN_NORMAL, 1e-20f, 0.41421354f, 0.41421356f, 0.4142136f, 0.5f,
            0.99999994f, 1f};
        System.arraycopy(fixed, 0, u, 0, fixed.length);
        for (int i = fixed.length; i < u.length; i++) {
            u[i] = i % 2 == 0 ? (float) rnd.nextDouble() : (float) Math.scalb(1 + rnd.nextDouble(), -rnd.nextInt(1, 150));
        }
        return u;
    }

    /** Fixed points, then values between lo and hi with every binary exponent of their magnitude. */
    private static double[] spread(double lo, double hi, double[] fixed) {
        SplittableRandom rnd = new SplittableRandom(5);
        double[] x = new double[20_000];
        System.arraycopy(fixed, 0, x, 0, fixed.length);
        for (int i = fixed.length; i < x.length; i++) {
            x[i] = i % 2 == 0 ? lo + (hi - lo) * rnd.nextDouble()
                    : Math.copySign(Math.scalb(1 + rnd.nextDouble(), -rnd.nextInt(-9, 60)), hi * (rnd.nextBoolean() ? 1 : -1));
            x[i] = Math.max(lo, Math.min(hi, x[i]));
        }
        return x;
    }

    private static void assertSpecials64(UnaryOperator<DoubleVector> f, DoubleUnaryOperator want) {
        double[] x = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MAX_VALUE, -Double.MAX_VALUE};
        double[] got = apply64(f, x);
        for (int i = 0; i < x.length; i++) {
            assertEquals(want.applyAsDouble(x[i]), got[i], 0.0, "at " + x[i]);
        }
    }

    private static double logistic(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        double e = Math.exp(-Math.abs(x));
        return x >= 0 ? 1 / (1 + e) : e / (1 + e);
    }

    private static float[] apply32(UnaryOperator<FloatVector> f, float[] x) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i += VectorSupport.FLOAT.length()) {
            VectorMask<Float> m = VectorSupport.FLOAT.indexInRange(i, x.length);
            f.apply(FloatVector.fromArray(VectorSupport.FLOAT, x, i, m)).intoArray(y, i, m);
        }
        return y;
    }

    private static double[] apply64(UnaryOperator<DoubleVector> f, double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i += VectorSupport.DOUBLE.length()) {
            VectorMask<Double> m = VectorSupport.DOUBLE.indexInRange(i, x.length);
            f.apply(DoubleVector.fromArray(VectorSupport.DOUBLE, x, i, m)).intoArray(y, i, m);
        }
        return y;
    }
}
