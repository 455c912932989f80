package rankgrad.nn.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import rankgrad.autodiff.CentralDifferences;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Op;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** The fused batch-norm node against the same function composed from primitive ops. */
class BatchNormTest {
    private static final double EPS = 1e-5;

    /**
     * (v + eps)^(-1/2) elementwise with its derivative -1/2 (v + eps)^(-3/2): the one piece of the
     * composition without a primitive op on this branch. Its rule is one line, unlike the fused
     * backward it helps to check.
     */
    private static final Op<Tensor> RSQRT = Op.of("rsqrt",
            in -> {
                Tensor out = Tensor.zerosLike(in[0]);
                for (int i = 0; i < out.size(); i++) {
                    out.set(i, 1 / Math.sqrt(in[0].get(i) + EPS));
                }
                return Op.result(out, out);
            },
            (r, g, needs) -> {
                Tensor dv = Tensor.zerosLike(r);
                for (int i = 0; i < dv.size(); i++) {
                    double y = r.get(i);
                    dv.set(i, g.get(i) * -0.5 * y * y * y);
                }
                return new Tensor[] {dv};
            });

    /** y = (x - mean) * rsqrt(var + eps) * gamma + beta from primitives; mean and var over rows. */
    private static Var composed(Var x, Var gamma, Var beta) {
        Var mean = Ops.mean(x, 0, true);
        Var centered = Ops.sub(x, mean);
        Var variance = Ops.mean(Ops.mul(centered, centered), 0, true);
        Var invStd = Var.apply(RSQRT, variance);
        return Ops.add(Ops.mul(Ops.mul(centered, invStd), gamma), beta);
    }

    private static Var fused(Var x, Var gamma, Var beta) {
        return Var.apply(BatchNorm.training(EPS), x, gamma, beta);
    }

    private static Tensor random(SplittableRandom rng, double lo, double hi, int... shape) {
        Tensor t = Tensor.zeros(DType.F64, shape);
        for (int i = 0; i < t.size(); i++) {
            t.set(i, rng.nextDouble(lo, hi));
        }
        return t;
    }

    @Test
    void trainingOutputOnAHandExample() {
        // Column 0: mean 2, biased variance 2/3; column 1: mean 30, biased variance 1400/3.
        Tensor x = Tensor.matrix(DType.F64, new double[][] {{1, 10}, {2, 20}, {3, 60}});
        Var y = Var.apply(BatchNorm.training(EPS), Var.constant(x), Var.constant(Tensor.vector(2.0, 1.0)),
                Var.constant(Tensor.vector(0.5, -1.0)));
        double s0 = Math.sqrt(2.0 / 3 + EPS);
        double s1 = Math.sqrt(1400.0 / 3 + EPS);
        double[] expected = {
            2 * -1 / s0 + 0.5, -20 / s1 - 1,
            0.5, -10 / s1 - 1,
            2 * 1 / s0 + 0.5, 30 / s1 - 1};
        // Two float64 roundings per step of the formula: 1e-15 relative on values of size ~3.
        assertArrayEquals(expected, y.value().toDoubleArray(), 1e-14);
    }

    @Test
    void statisticsAreReportedToTheSink() {
        Tensor x = Tensor.matrix(DType.F32, new double[][] {{1, 10}, {2, 20}, {3, 60}});
        double[][] seen = new double[2][];
        int[] rows = new int[1];
        Var.apply(BatchNorm.training(EPS, (mean, var, n) -> {
            seen[0] = mean;
            seen[1] = var;
            rows[0] = n;
        }), Var.constant(x), Var.constant(Tensor.vector(1f, 1f)), Var.constant(Tensor.vector(0f, 0f)));
        assertEquals(3, rows[0]);
        // float32 inputs are small integers, exact; the statistics are accumulated in double.
        assertArrayEquals(new double[] {2, 30}, seen[0], 1e-12);
        assertArrayEquals(new double[] {2.0 / 3, 1400.0 / 3}, seen[1], 1e-12);
    }

    @Test
    void fusedBackwardEqualsGradientOfComposition() {
        SplittableRandom rng = new SplittableRandom(21);
        Tensor x = random(rng, -3, 3, 9, 4);
        Tensor gamma = random(rng, 0.5, 2, 4);
        Tensor beta = random(rng, -1, 1, 4);
        Tensor w = random(rng, -1, 1, 9, 4);
        Function<Var[], Var> lossFused = v -> Ops.sum(Ops.mul(fused(v[0], v[1], v[2]), Var.constant(w)));
        Function<Var[], Var> lossComposed = v -> Ops.sum(Ops.mul(composed(v[0], v[1], v[2]), Var.constant(w)));
        Tensor[] in = {x, gamma, beta};
        assertEquals(lossComposed.apply(new Var[] {Var.constant(x), Var.constant(gamma), Var.constant(beta)}).value().item(),
                lossFused.apply(new Var[] {Var.constant(x), Var.constant(gamma), Var.constant(beta)}).value().item(), 1e-13);
        Tensor[] a = CentralDifferences.analytic(lossFused, in);
        Tensor[] b = CentralDifferences.analytic(lossComposed, in);
        for (int k = 0; k < 3; k++) {
            // Same function, different float64 evaluation order: agreement to ~1e-15 relative;
            // 1e-12 leaves room for cancellation in dx, whose terms nearly sum to zero.
            assertTrue(CentralDifferences.maxRelativeError(a[k].toDoubleArray(), b[k].toDoubleArray()) < 1e-12,
                    "input " + k);
            // And both agree with central differences (h = 1e-5: error ~1e-9).
            assertTrue(CentralDifferences.maxRelativeError(a[k].toDoubleArray(),
                    CentralDifferences.numeric(lossFused, in, k)) < 1e-7, "input " + k + " vs central differences");
        }
    }

    @Test
    void inferenceBackwardTreatsStatisticsAsConstants() {
        SplittableRandom rng = new SplittableRandom(22);
        Tensor x = random(rng, -3, 3, 6, 3);
        Tensor gamma = random(rng, 0.5, 2, 3);
        Tensor beta = random(rng, -1, 1, 3);
        Tensor mean = random(rng, -1, 1, 3);
        Tensor var = random(rng, 0.5, 2, 3);
        Tensor w = random(rng, -1, 1, 6, 3);
        Function<Var[], Var> loss = v -> Ops.sum(Ops.mul(Var.apply(BatchNorm.inference(EPS), v[0], v[1], v[2],
                Var.constant(mean), Var.constant(var)), Var.constant(w)));
        Tensor[] in = {x, gamma, beta};
        Tensor[] a = CentralDifferences.analytic(loss, in);
        for (int k = 0; k < 3; k++) {
            // Central differences of a function linear in each input: exact up to ~1e-10.
            assertTrue(CentralDifferences.maxRelativeError(a[k].toDoubleArray(),
                    CentralDifferences.numeric(loss, in, k)) < 1e-8, "input " + k);
        }
        // dx = w * gamma / sqrt(var + eps), column by column.
        for (int i = 0; i < 6; i++) {
            for (int j = 0; j < 3; j++) {
                assertEquals(w.get(i, j) * gamma.get(j) / Math.sqrt(var.get(j) + EPS), a[0].get(i, j), 1e-14);
            }
        }
    }

    @Test
    void float32MatchesFloat64AcrossChunksWithoutCancellation() {
        // 5000 x 20: the float32 path splits the rows into 4 chunks. The columns have mean ~1000
        // and standard deviation ~0.01, where a one-pass sum of squares in float32 would lose every
        // digit of the variance.
        SplittableRandom rng = new SplittableRandom(23);
        int n = 5000;
        int c = 20;
        Tensor x32 = Tensor.zeros(DType.F32, n, c);
        for (int i = 0; i < x32.size(); i++) {
            x32.set(i, 1000 + 0.01 * rng.nextGaussian());
        }
        Tensor x64 = x32.to(DType.F64);
        Tensor g = random(rng, -1, 1, n, c);
        Tensor gamma = random(rng, 0.5, 2, c);
        Tensor beta = random(rng, -1, 1, c);
        double[][] s32 = new double[2][];
        double[][] s64 = new double[2][];
        Var[] v32 = {Var.param(x32), Var.param(gamma.to(DType.F32)), Var.param(beta.to(DType.F32))};
        Var[] v64 = {Var.param(x64), Var.param(gamma), Var.param(beta)};
        Var y32 = Var.apply(BatchNorm.training(EPS, (m, v, rows) -> s32[0] = v), v32);
        Var y64 = Var.apply(BatchNorm.training(EPS, (m, v, rows) -> s64[0] = v), v64);
        // Both see the same (float32-representable) data: variances agree to double rounding over
        // 5000 terms, far below 1e-9 relative.
        for (int j = 0; j < c; j++) {
            assertEquals(s64[0][j], s32[0][j], 1e-9 * s64[0][j]);
        }
        y32.backward(g.to(DType.F32));
        y64.backward(g);
        // y = gamma xhat + beta with |xhat| <= ~4 and gamma <= 2: x - mean is exact in float32
        // near the mean (Sterbenz) and the rest costs a few ulps of 8 (~1e-6), so 1e-5.
        ActivationOpsTest.assertArraysClose(y64.value().toDoubleArray(), y32.value().toDoubleArray(), 1e-5, "y");
        // |dx| reaches ~200 (gamma / std); float32 relative error ~1e-6 of that is ~2e-4.
        ActivationOpsTest.assertArraysClose(v64[0].grad().toDoubleArray(), v32[0].grad().toDoubleArray(), 1e-3, "dx");
        // dgamma and dbeta are double sums of 5000 terms whose float32 rounding (~6e-8 each) adds up
        // to ~1e-5 at worst.
        ActivationOpsTest.assertArraysClose(v64[1].grad().toDoubleArray(), v32[1].grad().toDoubleArray(), 1e-4, "dgamma");
        ActivationOpsTest.assertArraysClose(v64[2].grad().toDoubleArray(), v32[2].grad().toDoubleArray(), 1e-4, "dbeta");
    }

    @Test
    void trainingNeedsTwoRows() {
        Var x = Var.constant(Tensor.zeros(DType.F32, 1, 3));
        Var one = Var.constant(Tensor.zeros(DType.F32, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Var.apply(BatchNorm.training(EPS), x, one, one));
        assertTrue(e.getMessage().contains("at least 2 rows"), e.getMessage());
    }
}
