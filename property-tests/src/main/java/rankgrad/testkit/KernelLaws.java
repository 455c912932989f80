package rankgrad.testkit;

/**
 * The law of a SIMD kernel and its scalar reference (docs/design.md §5, Lucene's
 * {@code TestVectorUtilSupport}): on the same input the vector kernel's output equals the scalar
 * kernel's, element by element, within a tolerance the caller states and justifies (exact for
 * kernels that round each operation alike; a bound growing with n for reordered sums, e.g.
 * gamma_n sum |terms| with gamma_n = n u / (1 - n u) (Higham, Accuracy and Stability of
 * Numerical Algorithms, ch. 3 and 4); a few ulps for polynomial
 * exp).
 *
 * <p>Element i agrees when both values are NaN, or both are the same infinity, or the scalar value
 * is finite and: for a tolerance of 0, the vector value has the same bits (so +0.0 and -0.0
 * differ); for a positive tolerance, |vector - scalar| &lt;= tolerance (so +0.0 and -0.0 agree).
 * The tolerance is asked for at finite scalar values only.
 *
 * <pre>{@code
 * qt().forAll(arrays).checkAssert(x -> {
 *     float[] s = new float[x.length], v = new float[x.length];
 *     SCALAR.expF32(x, 0, s, 0, x.length);
 *     VECTOR.expF32(x, 0, v, 0, x.length);
 *     KernelLaws.assertVectorEqualsScalar("exp", s, v, (i, expected) -> 2 * Math.ulp((float) expected));
 * });
 * }</pre>
 */
public final class KernelLaws {
    private KernelLaws() {
    }

    /** The largest difference allowed at one element, 0 for bit equality. */
    @FunctionalInterface
    public interface Tolerance {
        /** Bit equality everywhere. */
        Tolerance EXACT = (index, expected) -> 0;

        /** The tolerance at element {@code index}, whose scalar result {@code expected} is finite; finite, &gt;= 0. */
        double at(int index, double expected);
    }

    /** float32 outputs of the two kernels agree element by element (see the class comment). */
    public static void assertVectorEqualsScalar(String what, float[] scalar, float[] vector, Tolerance tolerance) {
        checkLengths(what, scalar.length, vector.length);
        for (int i = 0; i < scalar.length; i++) {
            if (Float.isFinite(scalar[i])) {
                double tol = checked(tolerance.at(i, scalar[i]), what, i);
                boolean agree = tol == 0 ? Float.floatToIntBits(scalar[i]) == Float.floatToIntBits(vector[i])
                        : Math.abs((double) vector[i] - scalar[i]) <= tol;
                if (!agree) {
                    fail(what, i, scalar[i], vector[i], tol, Math.ulp(scalar[i]));
                }
            } else if (Float.floatToIntBits(scalar[i]) != Float.floatToIntBits(vector[i])) {
                fail(what, i, scalar[i], vector[i], 0, Double.NaN);
            }
        }
    }

    /** float64 outputs of the two kernels agree element by element (see the class comment). */
    public static void assertVectorEqualsScalar(String what, double[] scalar, double[] vector, Tolerance tolerance) {
        checkLengths(what, scalar.length, vector.length);
        for (int i = 0; i < scalar.length; i++) {
            if (Double.isFinite(scalar[i])) {
                double tol = checked(tolerance.at(i, scalar[i]), what, i);
                boolean agree = tol == 0 ? Double.doubleToLongBits(scalar[i]) == Double.doubleToLongBits(vector[i])
                        : Math.abs(vector[i] - scalar[i]) <= tol;
                if (!agree) {
                    fail(what, i, scalar[i], vector[i], tol, Math.ulp(scalar[i]));
                }
            } else if (Double.doubleToLongBits(scalar[i]) != Double.doubleToLongBits(vector[i])) {
                fail(what, i, scalar[i], vector[i], 0, Double.NaN);
            }
        }
    }

    private static double checked(double tol, String what, int i) {
        if (!(tol >= 0) || Double.isInfinite(tol)) {
            throw new IllegalArgumentException(what + ": tolerance at element " + i + " must be finite and >= 0, got " + tol);
        }
        return tol;
    }

    private static void checkLengths(String what, int scalar, int vector) {
        if (scalar != vector) {
            throw new AssertionError(what + ": scalar kernel gave " + scalar + " values, vector kernel " + vector);
        }
    }

    private static void fail(String what, int i, double scalar, double vector, double tol, double ulp) {
        String difference = !Double.isFinite(scalar) ? "a non-finite scalar result must be matched exactly"
                : tol == 0 && scalar == vector ? "the same value with other bits (sign of zero)"
                : "|difference| " + Math.abs(vector - scalar) + " (" + Math.abs(vector - scalar) / ulp
                        + " ulps of scalar), tolerance " + (tol == 0 ? "0 (same bits)" : tol);
        throw new AssertionError(what + ": element " + i + ": vector " + vector + ", scalar " + scalar + ", " + difference);
    }
}
