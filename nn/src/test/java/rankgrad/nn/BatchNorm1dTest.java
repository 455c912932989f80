package rankgrad.nn;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

class BatchNorm1dTest {
    private static final double EPS = 1e-5;

    private static Var rows(double[][] x) {
        return Var.constant(Tensor.matrix(DType.F64, x));
    }

    @Test
    void trainingOutputIsTheBatchStandardization() {
        BatchNorm1d bn = BatchNorm1d.create(2, DType.F64);
        Var y = bn.forward(rows(new double[][] {{1, 10}, {2, 20}, {3, 60}}));
        // Column 0: mean 2, biased variance 2/3; column 1: mean 30, biased variance 1400/3.
        double s0 = Math.sqrt(2.0 / 3 + EPS);
        double s1 = Math.sqrt(1400.0 / 3 + EPS);
        // A few float64 roundings of values of size ~1.
        assertArrayEquals(new double[] {-1 / s0, -20 / s1, 0, -10 / s1, 1 / s0, 30 / s1}, y.value().toDoubleArray(), 1e-15);
    }

    @Test
    void runningStatisticsAfterTwoStepsAndEvalOutput() {
        BatchNorm1d bn = BatchNorm1d.create(2, DType.F64);
        bn.forward(rows(new double[][] {{1, 10}, {2, 20}, {3, 60}}));
        // Batch 1: mean (2, 30), unbiased variance (1, 700). With momentum 0.1 from (0, 0) / (1, 1):
        // running mean (0.2, 3), running var 0.9 (1, 1) + 0.1 (1, 700) = (1, 70.9).
        assertArrayEquals(new double[] {0.2, 3}, bn.runningMean().toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {1, 70.9}, bn.runningVar().toDoubleArray(), 1e-13);
        bn.forward(rows(new double[][] {{0, 0}, {4, 8}}));
        // Batch 2: mean (2, 4), unbiased variance (8, 32): running mean 0.9 (0.2, 3) + 0.1 (2, 4) =
        // (0.38, 3.1), running var 0.9 (1, 70.9) + 0.1 (8, 32) = (1.7, 67.01).
        assertArrayEquals(new double[] {0.38, 3.1}, bn.runningMean().toDoubleArray(), 1e-14);
        assertArrayEquals(new double[] {1.7, 67.01}, bn.runningVar().toDoubleArray(), 1e-13);

        bn.eval();
        // Eval mode works on a single row and uses the running statistics; no update happens.
        Var y = bn.forward(rows(new double[][] {{1, 5}}));
        assertArrayEquals(new double[] {(1 - 0.38) / Math.sqrt(1.7 + EPS), (5 - 3.1) / Math.sqrt(67.01 + EPS)},
                y.value().toDoubleArray(), 1e-14);
        assertArrayEquals(new double[] {0.38, 3.1}, bn.runningMean().toDoubleArray(), 1e-14);
    }

    @Test
    void evalGradientReachesGammaAndBetaButNotTheStatistics() {
        BatchNorm1d bn = BatchNorm1d.create(2, DType.F64);
        bn.eval();
        Var x = Var.param(Tensor.matrix(DType.F64, new double[][] {{1, 2}, {3, 4}}));
        Ops.sum(bn.forward(x)).backward();
        // Fresh running statistics (0, 1): y = gamma x / sqrt(1 + eps) + beta.
        double k = 1 / Math.sqrt(1 + EPS);
        assertArrayEquals(new double[] {k, k, k, k}, x.grad().toDoubleArray(), 1e-15);
        assertArrayEquals(new double[] {4 * k, 6 * k}, bn.weight().grad().toDoubleArray(), 1e-14);
        assertArrayEquals(new double[] {2, 2}, bn.bias().grad().toDoubleArray(), 0.0);
    }

    @Test
    void namesFollowPyTorch() {
        BatchNorm1d bn = BatchNorm1d.create(3, DType.F32);
        assertEquals(List.of("weight", "bias"), List.copyOf(bn.namedParameters().keySet()));
        assertEquals(List.of("running_mean", "running_var"), List.copyOf(bn.namedBuffers().keySet()));
        assertEquals(List.of("weight", "bias", "running_mean", "running_var"), List.copyOf(bn.state().keySet()));
        assertArrayEquals(new double[] {1, 1, 1}, bn.weight().value().toDoubleArray(), 0.0);
        assertNull(bn.weight().grad());
    }
}
