package rankgrad.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.testkit.KernelLaws.Tolerance;

/** Examples of the vector-equals-scalar comparison rules. */
class KernelLawsTest {

    private static String failure(float[] scalar, float[] vector, Tolerance tolerance) {
        return assertThrows(AssertionError.class, () -> KernelLaws.assertVectorEqualsScalar("k", scalar, vector, tolerance))
                .getMessage();
    }

    @Test
    void zeroToleranceComparesBits() {
        KernelLaws.assertVectorEqualsScalar("k", new float[] {1f, -0f, Float.NaN}, new float[] {1f, -0f, Float.NaN},
                Tolerance.EXACT);
        assertTrue(failure(new float[] {-0f}, new float[] {0f}, Tolerance.EXACT).contains("sign of zero"));
        assertTrue(failure(new float[] {1f}, new float[] {Math.nextUp(1f)}, Tolerance.EXACT).contains("element 0"));
    }

    @Test
    void positiveToleranceComparesValues() {
        float one = 1f;
        KernelLaws.assertVectorEqualsScalar("k", new float[] {one, 0f}, new float[] {Math.nextUp(one), -0f},
                (i, s) -> Math.ulp((float) s));
        String report = failure(new float[] {one}, new float[] {one + 4 * Math.ulp(one)}, (i, s) -> 2 * Math.ulp((float) s));
        assertTrue(report.contains("(4.0 ulps of scalar)"), report);
    }

    @Test
    void nonFiniteResultsMustMatchExactly() {
        KernelLaws.assertVectorEqualsScalar("k", new double[] {Double.POSITIVE_INFINITY, Double.NaN},
                new double[] {Double.POSITIVE_INFINITY, Double.NaN}, (i, s) -> 1);
        assertTrue(failure(new float[] {Float.POSITIVE_INFINITY}, new float[] {Float.MAX_VALUE}, (i, s) -> 1)
                .contains("non-finite scalar result"));
        assertTrue(failure(new float[] {1f}, new float[] {Float.NaN}, (i, s) -> 1).contains("vector NaN"));
    }

    @Test
    void rejectsBadTolerancesAndLengths() {
        assertThrows(IllegalArgumentException.class,
                () -> KernelLaws.assertVectorEqualsScalar("k", new float[] {1f}, new float[] {1f}, (i, s) -> Double.NaN));
        assertTrue(failure(new float[] {1f}, new float[] {1f, 2f}, Tolerance.EXACT).contains("gave 1 values, vector kernel 2"));
    }
}
