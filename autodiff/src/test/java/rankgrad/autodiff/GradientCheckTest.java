package rankgrad.autodiff;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

class GradientCheckTest {
    /** Float64 central differences at h = 1e-6 on O(1) values err by ~1e-10 (see GradientCheck). */
    private static final double TOLERANCE = 1e-6;

    /** y = x^2 elementwise with a backward given as a factor: 2 is right, anything else is wrong. */
    private static Op<Tensor> square(double factor) {
        return Op.of("square", in -> Op.result(Unary.map(in[0], v -> v * v), in[0]),
                (x, g, needs) -> new Tensor[] {Unary.zip(g, x, (gi, xi) -> factor * gi * xi)});
    }

    /** y = a * b elementwise, with the two gradients swapped when {@code swapped}. */
    private static Op<Tensor[]> product(boolean swapped) {
        return Op.of("product", in -> Op.result(Unary.zip(in[0], in[1], (a, b) -> a * b), in),
                (ab, g, needs) -> {
                    Tensor da = Unary.zip(g, ab[swapped ? 0 : 1], (gi, v) -> gi * v);
                    Tensor db = Unary.zip(g, ab[swapped ? 1 : 0], (gi, v) -> gi * v);
                    return new Tensor[] {da, db};
                });
    }

    @Test
    void correctBackwardPasses() {
        GradientCheck.Report r = GradientCheck.withDefaults()
                .checkOp(square(2), Tensor.matrix(DType.F64, new double[][] {{0.5, -1.5, 2}, {1, 0.25, -3}}))
                .assertWithin(TOLERANCE);
        assertEquals(GradientCheck.DEFAULT_DIRECTIONS + 6, r.comparisons().size(), "3 directions + 6 coordinates");
        assertTrue(r.maxAbsError() < 1e-8, "error " + r.maxAbsError() + " should be near the 1e-10 of the model");
    }

    @Test
    void wrongFactorIsCaughtWithItsLocation() {
        Tensor x = Tensor.vector(0.5, -1.5, 2.0);
        AssertionError e = assertThrows(AssertionError.class,
                () -> GradientCheck.withDefaults().checkOp(square(1), x).assertWithin(TOLERANCE));
        assertTrue(e.getMessage().startsWith("gradient check failed: 6 of 6 comparisons"), e.getMessage());
        assertTrue(e.getMessage().contains("input 0[2]: backward"), e.getMessage());
    }

    @Test
    void swappedGradientsAreCaughtAlongRandomDirectionsAlone() {
        Tensor a = Tensor.vector(1.0, 2.0);
        Tensor b = Tensor.vector(-3.0, 0.5);
        GradientCheck directionsOnly = GradientCheck.withDefaults().withPerCoordinate(false).withDirections(4);
        directionsOnly.checkOp(product(false), a, b).assertWithin(TOLERANCE);
        GradientCheck.Report wrong = directionsOnly.checkOp(product(true), a, b);
        assertEquals(4, wrong.comparisons().size());
        assertThrows(AssertionError.class, () -> wrong.assertWithin(TOLERANCE));
        assertTrue(wrong.worstAbsolute().orElseThrow().where().startsWith("direction "));
    }

    @Test
    void perCoordinateReportNamesTheMatrixEntry() {
        // Only entry [1, 0] of the gradient is wrong: the backward zeroes it.
        Op<Tensor> oneWrong = Op.of("oneWrong", in -> Op.result(Unary.map(in[0], v -> v * v), in[0]),
                (x, g, needs) -> {
                    Tensor dx = Unary.zip(g, x, (gi, xi) -> 2 * gi * xi);
                    dx.set(2, 0);
                    return new Tensor[] {dx};
                });
        Tensor x = Tensor.matrix(DType.F64, new double[][] {{1, 2}, {3, 4}});
        GradientCheck perCoordinate = GradientCheck.withDefaults().withDirections(0);
        GradientCheck.Report r = perCoordinate.checkOp(oneWrong, x);
        GradientCheck.Comparison worst = r.worstAbsolute().orElseThrow();
        assertEquals("input 0[1, 0]", worst.where());
        assertEquals(0.0, worst.analytic());
        // The numeric side is what the correct backward gives there (same seed, same output
        // weights), up to the ~1e-10 error of the central difference.
        double correct = perCoordinate.checkOp(square(2), x).comparisons().get(2).analytic();
        assertEquals(correct, worst.numeric(), 1e-8);
        assertEquals(1.0, r.maxRelError(), 0.0); // |0 - n| / |n| is exactly 1
        AssertionError e = assertThrows(AssertionError.class, () -> r.assertWithin(TOLERANCE));
        assertTrue(e.getMessage().contains("1 of 4 comparisons"), e.getMessage());
    }

    @Test
    void functionFormSkipsConstantsAndAcceptsFloat32Inputs() {
        Tensor labels = Tensor.vector(1.0, 0.0, 2.0);
        // Scores against constant labels, the way a rank loss is checked: only x[0] is differentiated.
        GradientCheck.Report r = GradientCheck.withDefaults().withSeed(11)
                .check(x -> Ops.sum(Ops.mul(Ops.softplus(x[0]), Var.constant(labels))), Tensor.vector(0.3f, -1.2f, 2f))
                .assertWithin(TOLERANCE);
        assertEquals(11, r.seed());
        assertEquals(GradientCheck.DEFAULT_STEP, r.step());
    }

    @Test
    void sameSeedSameReportOtherSeedOtherDirections() {
        Tensor x = Tensor.vector(0.5, 1.5);
        GradientCheck.Report a = GradientCheck.withDefaults().withSeed(3).checkOp(square(2), x);
        GradientCheck.Report b = GradientCheck.withDefaults().withSeed(3).checkOp(square(2), x);
        GradientCheck.Report c = GradientCheck.withDefaults().withSeed(4).checkOp(square(2), x);
        assertEquals(a, b);
        assertNotEquals(a.comparisons().get(0).analytic(), c.comparisons().get(0).analytic());
    }

    @Test
    void float32FunctionIsRejectedWithAHint() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> GradientCheck.withDefaults()
                .check(x -> Ops.mul(Var.constant(Tensor.vector(1f, 2f)), Var.constant(Tensor.vector(1f, 2f))),
                        Tensor.vector(1.0, 2.0)));
        assertTrue(e.getMessage().contains("must compute in float64"), e.getMessage());
    }

    @Test
    void badSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> GradientCheck.withDefaults().withStep(0));
        assertThrows(IllegalArgumentException.class, () -> GradientCheck.withDefaults().withStep(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> GradientCheck.withDefaults().withDirections(-1));
        assertThrows(IllegalArgumentException.class,
                () -> GradientCheck.withDefaults().withDirections(0).withPerCoordinate(false));
        Function<Var[], Var> identity = x -> x[0];
        assertThrows(IllegalArgumentException.class, () -> GradientCheck.withDefaults().check(identity));
    }

    /** Elementwise helpers for the hand-written test ops, float64 only. */
    private static final class Unary {
        static Tensor map(Tensor x, java.util.function.DoubleUnaryOperator f) {
            Tensor out = Tensor.zerosLike(x);
            for (int i = 0; i < x.size(); i++) {
                out.set(i, f.applyAsDouble(x.get(i)));
            }
            return out;
        }

        static Tensor zip(Tensor a, Tensor b, java.util.function.DoubleBinaryOperator f) {
            Tensor out = Tensor.zerosLike(a);
            for (int i = 0; i < a.size(); i++) {
                out.set(i, f.applyAsDouble(a.get(i), b.get(i)));
            }
            return out;
        }
    }
}
