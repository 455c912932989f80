package rankgrad.ltr.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.NoGrad;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;
import rankgrad.ltr.loss.RankingLoss;
import rankgrad.testkit.RankingCase;
import rankgrad.testkit.RankingCases;
import rankgrad.ltr.loss.ApproxNdcgLoss;

class ApproxNdcgProperties {

    @Test
    void approxNdcgGradientMatchesCentralDifference() {
        qt().withExamples(60).forAll(RankingCases.moderateScores(3, 15, 2.0), integers().between(0, 2))
                .checkAssert((c, alphaIndex) -> {
                    double alpha = new double[] {1, 3, 10}[alphaIndex];
                    RankingLoss loss = ApproxNdcgLoss.of(alpha);
                    Var x = Var.param(c.tensor(DType.F64));
                    loss.loss(x, c.batch()).backward();
                    double[] grad = x.grad().toDoubleArray();
                    double[] s = c.scores();
                    double h = 1e-5;
                    for (int i = 0; i < s.length; i++) {
                        double[] plus = s.clone();
                        double[] minus = s.clone();
                        plus[i] += h;
                        minus[i] -= h;
                        double fd = (value(loss, plus, c) - value(loss, minus, c)) / (2 * h);
                        // Truncation h^2/6 |L'''| with |L'''| <= ~alpha^3 m (<= 1.5e4 here, so 2.5e-7)
                        // plus rounding ~1e-16 / h.
                        assertEquals(fd, grad[i], 5e-7, "alpha=" + alpha + " d/ds_" + i);
                    }
                });
    }

    private static double value(RankingLoss loss, double[] scores, RankingCase c) {
        try (NoGrad ignored = NoGrad.enter()) {
            return loss.loss(Var.constant(Tensor.of(scores, scores.length)), c.batch()).value().item();
        }
    }
}
