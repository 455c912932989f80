package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class LinearTest {
    private static final int IN = 256;
    private static final int OUT = 512;
    private static final int N = IN * OUT;

    private static double[] weights(Init init, long seed) {
        return Linear.create(IN, OUT, init, new SplittableRandom(seed), DType.F64).weight().value().toDoubleArray();
    }

    private static double mean(double[] w) {
        return Arrays.stream(w).sum() / w.length;
    }

    private static double variance(double[] w) {
        double m = mean(w);
        return Arrays.stream(w).map(v -> (v - m) * (v - m)).sum() / w.length;
    }

    @Test
    void initializationsHaveTheirVariance() {
        // Sample of 131072 weights. Standard error of the variance: sqrt((mu4/sigma^4 - 1) / N)
        // relative, 0.25% for a uniform (kurtosis 1.8) and 0.4% for a normal (kurtosis 3); of the
        // mean: sigma / sqrt(N). Tolerances are ~8 standard errors (seeded, so never flaky anyway).
        for (Init init : Init.values()) {
            double expected = switch (init) {
                case KAIMING_UNIFORM, KAIMING_NORMAL -> 2.0 / IN;
                case XAVIER_UNIFORM, XAVIER_NORMAL -> 2.0 / (IN + OUT);
                // PyTorch's nn.Linear: uniform on +-1/sqrt(in), variance (1/sqrt(in))^2 / 3.
                case UNIFORM_FAN_IN -> 1.0 / (3.0 * IN);
            };
            double[] w = weights(init, 1);
            assertEquals(expected, init.variance(IN, OUT), 0.0);
            double tol = init.name().contains("NORMAL") ? 0.035 : 0.02;
            assertEquals(expected, variance(w), tol * expected, init + " variance");
            assertEquals(0.0, mean(w), 8 * Math.sqrt(expected / N), init + " mean");
        }
    }

    @Test
    void uniformInitializationsFillTheirInterval() {
        double bound = Math.sqrt(6.0 / IN);
        double[] w = weights(Init.KAIMING_UNIFORM, 2);
        double max = Arrays.stream(w).map(Math::abs).max().orElseThrow();
        assertTrue(max <= bound, "beyond the Kaiming bound: " + max);
        // With 131072 draws the largest |w| is within ~1e-5 relative of the bound.
        assertTrue(max > 0.999 * bound, "largest |w| " + max + " far below the bound " + bound);
    }

    @Test
    void uniformFanInFillsPyTorchsLinearInterval() {
        double bound = 1 / Math.sqrt(IN);
        double[] w = weights(Init.UNIFORM_FAN_IN, 3);
        double max = Arrays.stream(w).map(Math::abs).max().orElseThrow();
        assertTrue(max <= bound, "beyond PyTorch's nn.Linear bound 1/sqrt(in): " + max);
        // As above: 131072 draws come within ~1e-5 relative of the bound.
        assertTrue(max > 0.999 * bound, "largest |w| " + max + " far below the bound " + bound);
    }

    @Test
    void sameSeedGivesSameWeightsAndBiasStartsAtZero() {
        assertArrayEquals(weights(Init.KAIMING_NORMAL, 7), weights(Init.KAIMING_NORMAL, 7), 0.0);
        assertFalse(Arrays.equals(weights(Init.KAIMING_NORMAL, 7), weights(Init.KAIMING_NORMAL, 8)));
        Linear l = Linear.create(3, 2, Init.XAVIER_UNIFORM, new SplittableRandom(1), DType.F32);
        assertArrayEquals(new double[] {0, 0}, l.bias().value().toDoubleArray(), 0.0);
        assertEquals(List.of("weight", "bias"), List.copyOf(l.namedParameters().keySet()));
        assertEquals(8, l.parameterCount());
    }

    @Test
    void forwardIsXTimesWPlusB() {
        Linear l = Linear.of(Tensor.matrix(DType.F64, new double[][] {{1, 0, -1}, {2, 1, 0}}), Tensor.vector(0.5, 0, -0.5));
        Var y = l.forward(Var.constant(Tensor.matrix(DType.F64, new double[][] {{1, 2}, {3, 4}})));
        assertArrayEquals(new double[] {5.5, 2, -1.5, 11.5, 4, -3.5}, y.value().toDoubleArray(), 0.0);
    }

    @Test
    void wrongInputsAreExplained() {
        Linear l = Linear.create(3, 2, Init.KAIMING_UNIFORM, new SplittableRandom(1), DType.F32);
        IllegalArgumentException width = assertThrows(IllegalArgumentException.class,
                () -> l.forward(Var.constant(Tensor.zeros(DType.F32, 4, 5))));
        assertTrue(width.getMessage().contains("3 columns"), width.getMessage());
        IllegalArgumentException dtype = assertThrows(IllegalArgumentException.class,
                () -> l.forward(Var.constant(Tensor.zeros(DType.F64, 4, 3))));
        assertTrue(dtype.getMessage().contains("Tensor.to"), dtype.getMessage());
    }
}
