package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.QueryBatch;
import rankgrad.ltr.pairwise.BackwardType;

class RankOpsTest {
    private static final QueryBatch BATCH = QueryBatch.of(new float[] {2, 0, 1}, new float[] {1, 1});
    private static final double[] SCORES = {0.3, -0.2, 0.3, 1.0, 0.0};

    private static double sigmoid(double x) {
        return 1 / (1 + Math.exp(-x));
    }

    @Test
    void twinSigmoidRanksAreExactWithTiesBrokenByTheSeed() {
        Tensor ranks = TwinSigmoidRanks.of(BATCH, BackwardType.TYPE1, 1, TieBreak.seeded(5))
                .forward(Tensor.vector(SCORES)).output();
        int[] p = TieBreak.permutation(5, 0, 0, 3);
        // Documents 0 and 2 tie at 0.3: the one with the larger p is ranked first.
        double first = p[0] > p[2] ? 1 : 2;
        assertArrayEquals(new double[] {first, 3, 3 - first, 1, 2}, ranks.toDoubleArray(), 0.0);
    }

    @Test
    void approxRanksFollowBruchEquationSix() {
        double alpha = 2;
        Tensor ranks = ApproxRanks.of(BATCH, alpha).forward(Tensor.vector(SCORES)).output();
        double r0 = 1 + sigmoid(alpha * (-0.2 - 0.3)) + sigmoid(0);
        double r3 = 1 + sigmoid(alpha * (0.0 - 1.0));
        // Values of order 1 from a handful of exps: a few ulps.
        assertEquals(r0, ranks.get(0), 1e-15);
        assertEquals(r3, ranks.get(3), 1e-15);
    }

    @Test
    void typeOneTwinSigmoidGradientIsTheApproxRankGradientWithAlphaB() {
        // Both differentiate r = 1 + sum (1 - sigma(alpha z)): type 1 of the twin sigmoid is the
        // sigmoid's derivative (Yu Eq. 11), so weighted rank sums must get the same score gradient.
        double alpha = 1.5;
        Tensor weights = Tensor.vector(0.3, -1.0, 2.0, 0.5, -0.25);
        Var a = Var.param(Tensor.vector(SCORES));
        Ops.sum(Ops.mul(TwinSigmoidRanks.of(BATCH, BackwardType.TYPE1, alpha, TieBreak.seeded(1)).apply(a),
                Var.constant(weights))).backward();
        Var b = Var.param(Tensor.vector(SCORES));
        Ops.sum(Ops.mul(ApproxRanks.of(BATCH, alpha).apply(b), Var.constant(weights))).backward();
        assertArrayEquals(b.grad().toDoubleArray(), a.grad().toDoubleArray(), 0.0);
    }
}
