package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.GradientCheck;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class DropoutTest {

    private static boolean[] mask(int n, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        boolean[] keep = new boolean[n];
        for (int i = 0; i < n; i++) {
            keep[i] = rng.nextBoolean();
        }
        return keep;
    }

    @Test
    void forwardKeepsAndScalesByTheMask() {
        Tensor x = Tensor.vector(1.0, -2.0, 3.0, 4.0);
        double[] y = Ops.dropout(Var.constant(x), new boolean[] {true, false, true, false}, 0.5).value().toDoubleArray();
        // Exact: x * 2 in float64, 0 where dropped.
        assertArrayEquals(new double[] {2.0, 0.0, 6.0, 0.0}, y, 0.0);
    }

    @Test
    void float32UsesTheFloat32Scale() {
        float[] x = {0.1f, 0.7f, -3.3f};
        Tensor t = Tensor.of(x, 3);
        double rate = 0.3;
        float scale = (float) (1.0 / (1.0 - rate));
        Tensor y = Ops.dropout(Var.constant(t), new boolean[] {true, true, false}, rate).value();
        assertEquals(x[0] * scale, (float) y.get(0), 0f);
        assertEquals(x[1] * scale, (float) y.get(1), 0f);
        assertEquals(0f, (float) y.get(2), 0f);
    }

    @Test
    void backwardMatchesCentralDifferenceWithAFixedMask() {
        SplittableRandom rng = new SplittableRandom(5);
        double[] x = new double[37];
        for (int i = 0; i < x.length; i++) {
            x[i] = rng.nextDouble(-3, 3);
        }
        Dropout op = Dropout.withMask(mask(x.length, 9), 0.25);
        // The op is linear in x: central differences in float64 are exact up to rounding (~1e-10).
        GradientCheck.withDefaults().withSeed(3).checkOp(op, Tensor.vector(x)).assertWithin(1e-8);
    }

    @Test
    void backwardIsTheMaskedScaledGradient() {
        Var x = Var.param(Tensor.of(new double[] {1, 2, 3}, 3));
        Ops.sum(Ops.dropout(x, new boolean[] {false, true, true}, 0.75)).backward();
        // d/dx of sum(x m / (1 - p)) = m / 0.25 = 4 m, exact in float64.
        assertArrayEquals(new double[] {0, 4, 4}, x.grad().toDoubleArray(), 0.0);
    }

    @Test
    void rejectsRatesOutsideZeroToOne() {
        assertThrows(IllegalArgumentException.class, () -> Dropout.withMask(new boolean[1], 1.0));
        assertThrows(IllegalArgumentException.class, () -> Dropout.withMask(new boolean[1], -0.1));
        assertThrows(IllegalArgumentException.class, () -> Dropout.withMask(new boolean[1], Double.NaN));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ops.dropout(Var.constant(Tensor.zeros(DType.F32, 4)), new boolean[3], 0.5));
        assertTrue(e.getMessage().contains("3 elements"), e.getMessage());
    }
}
